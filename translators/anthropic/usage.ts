/**
 * Usage conversion. Anthropic's `input_tokens` EXCLUDES cache reads and cache writes; canonical
 * (OpenAI semantics) `inputTokens` includes both.
 */
import type { Usage } from '../../src/canonical/index.ts';
import type { AnthropicUsage, AnthropicUsageIn } from './wire.ts';

export function decodeUsage(u: AnthropicUsageIn): Usage {
  const input = u.input_tokens ?? 0;
  const read = u.cache_read_input_tokens ?? 0;
  const write = u.cache_creation_input_tokens ?? 0;
  const output = u.output_tokens ?? 0;
  const inputTokens = input + read + write;
  const usage: Usage = { inputTokens, outputTokens: output, totalTokens: inputTokens + output };
  if (u.cache_read_input_tokens != null) usage.cachedInputTokens = read;
  if (u.cache_creation_input_tokens != null) usage.cacheWriteTokens = write;
  const thinking = u.output_tokens_details?.thinking_tokens;
  if (thinking != null) usage.reasoningTokens = thinking;
  return usage;
}

/** Canonical → Anthropic usage; all four counters always present. */
export function encodeUsage(u: Usage | undefined): AnthropicUsage {
  const read = u?.cachedInputTokens ?? 0;
  const write = u?.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (u?.inputTokens ?? 0) - read - write),
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    output_tokens: u?.outputTokens ?? 0,
  };
}
