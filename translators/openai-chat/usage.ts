/**
 * Token usage both ways (canonical usage already follows OpenAI's semantics), with OpenRouter's
 * additions: `cost`, and `prompt_tokens_details.cache_write_tokens`
 * (https://openrouter.ai/docs/use-cases/usage-accounting).
 */
import type { Usage } from '../../src/canonical/index.ts';
import type { OpenAIChatUsage, OpenAIChatWireUsage } from './wire.ts';

export function decodeUsage(u: OpenAIChatUsage): Usage {
  const inputTokens = u.prompt_tokens ?? 0;
  const outputTokens = u.completion_tokens ?? 0;
  const usage: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: u.total_tokens ?? inputTokens + outputTokens,
  };
  const cached = u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens;
  if (cached != null) usage.cachedInputTokens = cached;
  const cacheWrite = u.prompt_tokens_details?.cache_write_tokens;
  if (cacheWrite != null) usage.cacheWriteTokens = cacheWrite;
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null) usage.reasoningTokens = reasoning;
  if (u.cost != null) usage.cost = u.cost;
  return usage;
}

export function encodeUsage(u: Usage): OpenAIChatWireUsage {
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.totalTokens,
    prompt_tokens_details: { cached_tokens: u.cachedInputTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
    ...(u.cost !== undefined ? { cost: u.cost } : {}),
  };
}
