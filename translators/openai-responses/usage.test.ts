import { describe, expect, it } from 'vitest';
import { decodeLogprobs } from './logprobs.ts';
import { decodeUsage, encodeUsage } from './usage.ts';

describe('usage both ways', () => {
  it('decoded: the total computed when missing, details only when present', () => {
    expect(decodeUsage({})).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(decodeUsage({ input_tokens: 3, output_tokens: 4 })).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
    expect(decodeUsage({ input_tokens: 3, output_tokens: 4, total_tokens: 9, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 2 }, output_tokens_details: { reasoning_tokens: 0 } })).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 9,
      cachedInputTokens: 0,
      cacheWriteTokens: 2,
      reasoningTokens: 0,
    });
    expect(decodeUsage({ input_tokens: 1, input_tokens_details: { cached_tokens: null, cache_write_tokens: null }, output_tokens_details: { reasoning_tokens: null } } as never)).toStrictEqual({ inputTokens: 1, outputTokens: 0, totalTokens: 1 });
    expect(decodeUsage({ input_tokens: 1, input_tokens_details: {}, output_tokens_details: {} })).toStrictEqual({ inputTokens: 1, outputTokens: 0, totalTokens: 1 });
  });

  it('encoded: every detail present, zero when unknown', () => {
    expect(encodeUsage({ inputTokens: 1, outputTokens: 2, totalTokens: 3 })).toEqual({
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 3,
    });
  });

  it('logprobs: an empty or unreadable list is none', () => {
    expect(decodeLogprobs([])).toBeUndefined();
    expect(decodeLogprobs('x')).toBeUndefined();
    expect(decodeLogprobs([{ token: 'a', logprob: -1, top_logprobs: [] }])).toEqual([{ token: 'a', logprob: -1, top: [] }]);
  });
});
