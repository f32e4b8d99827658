/**
 * Usage conversion. Anthropic's `input_tokens` EXCLUDES cache reads and cache writes; canonical
 * (OpenAI semantics) `inputTokens` includes both.
 */
import type { Usage } from '../../src/canonical/index.ts';
import type { AnthropicDeltaUsage, AnthropicUsage, AnthropicUsageIn } from './wire.ts';

export function decodeUsage(u: AnthropicUsageIn): Usage {
  const input = u.input_tokens ?? 0;
  const read = u.cache_read_input_tokens ?? 0;
  const byTtl = u.cache_creation;
  const hour = byTtl?.ephemeral_1h_input_tokens;
  const write = u.cache_creation_input_tokens ?? (byTtl ? (byTtl.ephemeral_5m_input_tokens ?? 0) + (hour ?? 0) : 0);
  const output = u.output_tokens ?? 0;
  const inputTokens = input + read + write;
  const usage: Usage = { inputTokens, outputTokens: output, totalTokens: inputTokens + output };
  if (u.cache_read_input_tokens != null) usage.cachedInputTokens = read;
  if (u.cache_creation_input_tokens != null || byTtl) usage.cacheWriteTokens = write;
  if (hour != null) usage.cacheWrite1hTokens = Math.min(hour, write);
  const thinking = u.output_tokens_details?.thinking_tokens;
  if (thinking != null) usage.reasoningTokens = thinking;
  return usage;
}

/**
 * Canonical → Anthropic `Usage` (a Message's, and `message_start`'s), with every field the
 * OpenAPI document requires (required and nullable: `cache_creation`, `inference_geo`,
 * `server_tool_use`, `service_tier`; `output_tokens_details` and `speed` per @anthropic-ai/sdk
 * 1.12's `Usage`). What the proxy cannot know is null rather than invented: the service tier and
 * inference region an answer ran on, server tool use. Cache writes the upstream did not say were
 * for an hour count as `ephemeral_5m_input_tokens` (the default TTL).
 */
export function encodeUsage(u: Usage | undefined): AnthropicUsage {
  const read = u?.cachedInputTokens ?? 0;
  const write = u?.cacheWriteTokens ?? 0;
  const hour = Math.min(write, u?.cacheWrite1hTokens ?? 0);
  return {
    input_tokens: Math.max(0, (u?.inputTokens ?? 0) - read - write),
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: write - hour, ephemeral_1h_input_tokens: hour },
    output_tokens: u?.outputTokens ?? 0,
    output_tokens_details: outputDetails(u),
    server_tool_use: null,
    service_tier: null,
    inference_geo: null,
    speed: null,
  };
}

/** `message_delta`'s `MessageDeltaUsage`: the cumulative counters, no tier or region fields. */
export function encodeDeltaUsage(u: Usage | undefined): AnthropicDeltaUsage {
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens, output_tokens_details } =
    encodeUsage(u);
  return {
    input_tokens,
    cache_creation_input_tokens,
    cache_read_input_tokens,
    output_tokens,
    output_tokens_details,
    server_tool_use: null,
  };
}

function outputDetails(u: Usage | undefined): { thinking_tokens: number } | null {
  return u?.reasoningTokens !== undefined ? { thinking_tokens: u.reasoningTokens } : null;
}
