import { describe, expect, it } from 'vitest';
import type { Usage } from '../../canonical/index.ts';
import { costOf, ratesFor } from './cost.ts';
import type { ModelPrice } from '../../config/load.ts';
import { PRICE_TABLE } from './table.ts';

const usage = (u: Partial<Usage>): Usage => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0, ...u });
const sonnet45 = PRICE_TABLE['claude-sonnet-4-5'] as ModelPrice;

describe('cost of a usage', () => {
  it('input and output at their rates, per million tokens', () => {
    expect(costOf({ input: 3, output: 15 }, usage({ inputTokens: 1000, outputTokens: 500 }))).toBe(0.0105);
  });

  it('cache reads and writes out of the input, each at its rate; reasoning is output', () => {
    const p = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 };
    // 1000 plain + 2000 read + 4000 written; 100 output of which 60 reasoning.
    const u = usage({ inputTokens: 7000, cachedInputTokens: 2000, cacheWriteTokens: 4000, outputTokens: 100, reasoningTokens: 60 });
    expect(costOf(p, u)).toBe((1000 * 3 + 2000 * 0.3 + 4000 * 3.75 + 100 * 15) / 1e6);
  });

  it('Anthropic cache writes: the 5-minute rate, the 1-hour rate for what the upstream says, or for all when the request asked the 1-hour TTL', () => {
    const p = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 };
    const written = usage({ inputTokens: 1000, cacheWriteTokens: 1000 });
    expect(costOf(p, written)).toBe(0.00375);
    expect(costOf(p, written, { longCacheTtl: true })).toBe(0.006);
    expect(costOf(p, { ...written, cacheWrite1hTokens: 400 })).toBe((600 * 3.75 + 400 * 6) / 1e6);
    // The upstream's own split wins over what the request asked.
    expect(costOf(p, { ...written, cacheWrite1hTokens: 0 }, { longCacheTtl: true })).toBe(0.00375);
  });

  it('a rate the price omits is the input rate, never zero', () => {
    expect(costOf({ input: 2, output: 8 }, usage({ inputTokens: 1000, cachedInputTokens: 1000 }))).toBe(0.002);
    expect(costOf({ input: 2, output: 8, cacheWrite: 2.5 }, usage({ inputTokens: 1000, cacheWriteTokens: 1000, cacheWrite1hTokens: 1000 }))).toBe(0.0025);
  });

  it('no input or output rate: not priced', () => {
    expect(costOf({ output: 8 }, usage({ inputTokens: 1 }))).toBeUndefined();
    expect(costOf({ input: 8 }, usage({ inputTokens: 1 }))).toBeUndefined();
  });

  it('long context: every token at the tier rates once the prompt (cache included) passes the threshold', () => {
    expect(ratesFor(sonnet45, 200_000)).toBe(sonnet45);
    expect(ratesFor(sonnet45, 200_001)).toMatchObject({ input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5, cacheWrite1h: 12 });
    const below = costOf(sonnet45, usage({ inputTokens: 200_000, outputTokens: 1000 }))!;
    const above = costOf(sonnet45, usage({ inputTokens: 200_001, cachedInputTokens: 50_000, outputTokens: 1000 }))!;
    expect(below).toBe((200_000 * 3 + 1000 * 15) / 1e6);
    expect(above).toBe((150_001 * 6 + 50_000 * 0.6 + 1000 * 22.5) / 1e6);
  });

  it('several tiers: the highest one passed', () => {
    const p = { input: 1, output: 2, tiers: [{ above: 10, input: 3 }, { above: 100, input: 5, output: 6 }] };
    expect(ratesFor(p, 50)).toMatchObject({ input: 3, output: 2 });
    expect(ratesFor(p, 101)).toMatchObject({ input: 5, output: 6 });
  });

  it('no float noise on the log line', () => {
    expect(costOf({ input: 0.1, output: 0.2 }, usage({ inputTokens: 3, outputTokens: 3 }))).toBe(9e-7);
  });
});
