/** Adding up token counts of several upstream calls (fan-out, image fan-out). */
import type { Usage } from './chat.ts';

/** The sum of `key` over the list, or undefined when no entry has it. */
export function sumOf<T>(list: readonly T[], key: keyof T): number | undefined {
  let total = 0;
  let any = false;
  for (const u of list) {
    const v = u[key];
    if (typeof v === 'number') {
      total += v;
      any = true;
    }
  }
  return any ? total : undefined;
}

/** Usage of several calls as one (undefined when none reported any). */
export function sumUsage(list: ReadonlyArray<Usage | undefined>): Usage | undefined {
  const present = list.filter((u): u is Usage => !!u);
  if (present.length === 0) return undefined;
  const out: Usage = {
    inputTokens: sumOf(present, 'inputTokens') ?? 0,
    outputTokens: sumOf(present, 'outputTokens') ?? 0,
    totalTokens: sumOf(present, 'totalTokens') ?? 0,
  };
  for (const k of ['cachedInputTokens', 'cacheWriteTokens', 'cacheWrite1hTokens', 'reasoningTokens', 'cost'] as const) {
    const v = sumOf(present, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
