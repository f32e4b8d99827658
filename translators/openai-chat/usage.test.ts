import { expect, test } from 'vitest';
import { fixtureJson } from '../../test/support/fixtures.ts';
import { decodeUsage, encodeUsage } from './usage.ts';

test('decode the cached/reasoning fixture and encode it back', () => {
  const wire = fixtureJson('openai-chat', 'usage-cached-and-reasoning-tokens.json');
  const usage = decodeUsage(wire);
  expect(usage).toEqual({ inputTokens: 6226, outputTokens: 1411, totalTokens: 7637, cachedInputTokens: 1152, reasoningTokens: 768 });
  expect(encodeUsage(usage)).toEqual(wire);
});

test('missing numbers default sensibly; DeepSeek cache hits', () => {
  expect(decodeUsage({ prompt_tokens: 3, completion_tokens: 4 })).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  expect(decodeUsage({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, prompt_cache_hit_tokens: 2 }).cachedInputTokens).toBe(2);
});

test('only the counts the upstream reported: null details add nothing; OpenRouter cost and cache writes are kept', () => {
  expect(decodeUsage({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, prompt_tokens_details: null, completion_tokens_details: null, cost: null })).toStrictEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  expect(decodeUsage({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 2 }, cost: 0.5 })).toStrictEqual({
    inputTokens: 3,
    outputTokens: 4,
    totalTokens: 7,
    cachedInputTokens: 0,
    cacheWriteTokens: 2,
    cost: 0.5,
  });
  expect(Object.keys(encodeUsage({ inputTokens: 1, outputTokens: 1, totalTokens: 2 }))).not.toContain('cost');
  expect(encodeUsage({ inputTokens: 1, outputTokens: 1, totalTokens: 2, cost: 0.25 }).cost).toBe(0.25);
});
