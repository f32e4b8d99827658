/** Stop reasons and token counts as a caller reads them, both directions. */
import { describe, expect, it } from 'vitest';
import { decodeUsage, encodeDeltaUsage, encodeUsage } from './usage.ts';

describe('anthropic usage', () => {
  it('decode: input includes cache reads and writes; cache and thinking counts only when reported', () => {
    expect(decodeUsage({ input_tokens: 10, output_tokens: 5 })).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(decodeUsage({ input_tokens: 10, cache_read_input_tokens: 20, cache_creation_input_tokens: 30, output_tokens: 5, output_tokens_details: { thinking_tokens: 3 } })).toEqual({
      inputTokens: 60,
      outputTokens: 5,
      totalTokens: 65,
      cachedInputTokens: 20,
      cacheWriteTokens: 30,
      reasoningTokens: 3,
    });
    expect(decodeUsage({})).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('decode: the cache writes by TTL, the 1-hour part kept; the split alone gives the total', () => {
    const split = { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 };
    expect(decodeUsage({ input_tokens: 1, cache_creation_input_tokens: 30, cache_creation: split, output_tokens: 2 })).toEqual({
      inputTokens: 31,
      outputTokens: 2,
      totalTokens: 33,
      cacheWriteTokens: 30,
      cacheWrite1hTokens: 20,
    });
    expect(decodeUsage({ input_tokens: 1, cache_creation: split })).toMatchObject({ inputTokens: 31, cacheWriteTokens: 30, cacheWrite1hTokens: 20 });
    expect(decodeUsage({ input_tokens: 1, cache_creation_input_tokens: 5, cache_creation: null })).not.toHaveProperty('cacheWrite1hTokens');
    expect(decodeUsage({ cache_creation: { ephemeral_1h_input_tokens: 20 } })).toEqual({ inputTokens: 20, outputTokens: 0, totalTokens: 20, cacheWriteTokens: 20, cacheWrite1hTokens: 20 });
    expect(decodeUsage({ cache_creation: { ephemeral_5m_input_tokens: 7 } })).toEqual({ inputTokens: 7, outputTokens: 0, totalTokens: 7, cacheWriteTokens: 7 });
    // An hour's writes never more than all writes.
    expect(decodeUsage({ cache_creation_input_tokens: 5, cache_creation: { ephemeral_1h_input_tokens: 20 } })).toMatchObject({ cacheWriteTokens: 5, cacheWrite1hTokens: 5 });
  });

  it('encode: the 1-hour writes go back as ephemeral_1h_input_tokens', () => {
    expect(encodeUsage({ inputTokens: 31, outputTokens: 2, totalTokens: 33, cacheWriteTokens: 30, cacheWrite1hTokens: 20 }).cache_creation).toEqual({
      ephemeral_5m_input_tokens: 10,
      ephemeral_1h_input_tokens: 20,
    });
    expect(encodeUsage({ inputTokens: 10, outputTokens: 0, totalTokens: 10, cacheWriteTokens: 10, cacheWrite1hTokens: 30 }).cache_creation).toEqual({
      ephemeral_5m_input_tokens: 0,
      ephemeral_1h_input_tokens: 10,
    });
  });

  it('encode: input excludes cache reads and writes, never negative; thinking tokens in output_tokens_details', () => {
    expect(encodeUsage({ inputTokens: 60, outputTokens: 5, totalTokens: 65, cachedInputTokens: 20, cacheWriteTokens: 30, reasoningTokens: 3 })).toEqual({
      input_tokens: 10,
      cache_creation_input_tokens: 30,
      cache_read_input_tokens: 20,
      cache_creation: { ephemeral_5m_input_tokens: 30, ephemeral_1h_input_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { thinking_tokens: 3 },
      server_tool_use: null,
      service_tier: null,
      inference_geo: null,
      speed: null,
    });
    expect(encodeUsage({ inputTokens: 5, outputTokens: 0, totalTokens: 5, cachedInputTokens: 9 }).input_tokens).toBe(0);
    expect(encodeUsage(undefined)).toMatchObject({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, output_tokens_details: null });
    expect(encodeDeltaUsage({ inputTokens: 12, outputTokens: 4, totalTokens: 16, cachedInputTokens: 2, reasoningTokens: 0 })).toEqual({
      input_tokens: 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 2,
      output_tokens: 4,
      output_tokens_details: { thinking_tokens: 0 },
      server_tool_use: null,
    });
  });
});
