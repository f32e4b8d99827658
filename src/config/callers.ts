/**
 * Inbound keys as the config gives them: a key alone, or `{key, name, limits}`. A key's name is
 * how the log line, the metrics and the limit counters say who called; the key itself never
 * appears anywhere. A key without a name is `keys[i]`, its place in the list.
 */
import type { InboundKeySchema, KeyLimits } from './schema.ts';
import type * as v from 'valibot';

export interface InboundKey {
  /** The credential callers present (`env:` resolved). */
  key: string;
  /** Its `name`, else `keys[i]`. */
  name: string;
  /** What it may spend (docs/team.md "Limits"); undefined: no limit. */
  limits?: KeyLimits;
}

type KeyInput = v.InferOutput<typeof InboundKeySchema>;

/**
 * The inbound keys, or the first problem (`path` and what is wrong, never a key's value): a key
 * with limits needs a name, names are unique, and no key is listed twice.
 */
export function inboundKeys(list: readonly KeyInput[], resolve: (value: string, path: string) => string): InboundKey[] | { path: string; problem: string } {
  const out: InboundKey[] = [];
  const names = new Map<string, number>();
  const keys = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const entry = list[i]!;
    const given = typeof entry === 'string' ? { key: entry } : entry;
    const path = typeof entry === 'string' ? `keys[${i}]` : `keys[${i}].key`;
    const key = resolve(given.key, path);
    const limits = given.limits && Object.keys(given.limits).length > 0 ? given.limits : undefined;
    if (limits && given.name === undefined) return { path: `keys[${i}].name`, problem: 'required where limits are set (the counters, the log and the metrics go by it)' };
    const name = given.name ?? `keys[${i}]`;
    const sameName = names.get(name);
    if (sameName !== undefined) return { path: `keys[${i}].name`, problem: `"${name}" is already the name of keys[${sameName}]` };
    const sameKey = keys.get(key);
    if (sameKey !== undefined) return { path, problem: `the same key as keys[${sameKey}]` };
    names.set(name, i);
    keys.set(key, i);
    out.push({ key, name, ...(limits && { limits }) });
  }
  return out;
}
