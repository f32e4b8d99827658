/** Token usage both ways (canonical usage already follows OpenAI's semantics). */
import type { Usage } from '../../src/canonical/index.ts';
import type { ResponsesUsage } from './wire.ts';

export function decodeUsage(u: ResponsesUsage): Usage {
  const inputTokens = u.input_tokens ?? 0;
  const outputTokens = u.output_tokens ?? 0;
  const usage: Usage = { inputTokens, outputTokens, totalTokens: u.total_tokens ?? inputTokens + outputTokens };
  const cached = u.input_tokens_details?.cached_tokens;
  if (cached != null) usage.cachedInputTokens = cached;
  const written = u.input_tokens_details?.cache_write_tokens;
  if (written != null) usage.cacheWriteTokens = written;
  const reasoning = u.output_tokens_details?.reasoning_tokens;
  if (reasoning != null) usage.reasoningTokens = reasoning;
  return usage;
}

/** The `usage` of a Response object (every detail present, as the API writes it). */
export function encodeUsage(u: Usage): Record<string, unknown> {
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: u.cachedInputTokens ?? 0, cache_write_tokens: u.cacheWriteTokens ?? 0 },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens ?? 0 },
    total_tokens: u.totalTokens,
  };
}
