/**
 * Interactions `usage` ⇄ canonical `Usage` (OpenAI semantics: output includes reasoning).
 * Interactions: `total_output_tokens` is the visible output WITHOUT thoughts, which are
 * `total_thought_tokens`; `total_tokens` = input + output + thought in the docs' captures
 * (11 + 90 + 245 = 346). Whether `total_cached_tokens` is inside `total_input_tokens` is not
 * stated anywhere: we assume it is, as `promptTokenCount` includes `cachedContentTokenCount` in
 * generateContent (unverified). Tool-use prompt tokens are added to the input, as for Gemini.
 */
import type { Usage } from '../../src/canonical/index.ts';
import type { InteractionsUsage } from './wire-events.ts';

/** A usage as decoders read it (the schema lets `null` through). */
export type UsageIn = { [K in keyof InteractionsUsage]?: number | null };

export function hasUsage(u: UsageIn | null | undefined): u is UsageIn {
  return !!u && (u.total_input_tokens != null || u.total_output_tokens != null || u.total_tokens != null);
}

export function decodeUsage(u: UsageIn): Usage {
  const inputTokens = (u.total_input_tokens ?? 0) + (u.total_tool_use_tokens ?? 0);
  const thought = u.total_thought_tokens ?? 0;
  const outputTokens = (u.total_output_tokens ?? 0) + thought;
  // Only a total given (no split): the total is kept rather than summed from nothing.
  const onlyTotal = u.total_input_tokens == null && u.total_output_tokens == null && u.total_thought_tokens == null;
  const usage: Usage = { inputTokens, outputTokens, totalTokens: onlyTotal && u.total_tokens != null ? u.total_tokens : inputTokens + outputTokens };
  if (u.total_cached_tokens) usage.cachedInputTokens = u.total_cached_tokens;
  if (u.total_thought_tokens != null) usage.reasoningTokens = thought;
  return usage;
}

/** The `usage` of an Interaction: every total present, as the docs' captures show them. */
export function encodeUsage(u: Usage): Required<Omit<InteractionsUsage, 'total_tool_use_tokens'>> {
  const thought = u.reasoningTokens ?? 0;
  const output = Math.max(0, u.outputTokens - thought);
  return {
    total_input_tokens: u.inputTokens,
    total_output_tokens: output,
    total_thought_tokens: thought,
    total_cached_tokens: u.cachedInputTokens ?? 0,
    total_tokens: u.inputTokens + output + thought,
  };
}
