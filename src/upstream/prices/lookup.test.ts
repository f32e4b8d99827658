import { describe, expect, it } from 'vitest';
import { priceBook } from './lookup.ts';
import { PRICE_TABLE } from './table.ts';

const DEC_2026 = Date.UTC(2026, 11, 1);
const table = priceBook({});
const of = (model: string, at = DEC_2026) => table.priceOf(model, at);

describe('the price table by model name', () => {
  it('an exact name, and its dated or built variants by the longest name they start with', () => {
    expect(of('claude-sonnet-4-5')).toBe(PRICE_TABLE['claude-sonnet-4-5']);
    expect(of('claude-sonnet-4-5-20250929')).toBe(PRICE_TABLE['claude-sonnet-4-5']);
    expect(of('claude-sonnet-4-20250514')).toBe(PRICE_TABLE['claude-sonnet-4']);
    expect(of('claude-opus-4-1@20250805')).toBe(PRICE_TABLE['claude-opus-4-1']);
    expect(of('gpt-4o-2024-08-06')).toBe(PRICE_TABLE['gpt-4o']);
    expect(of('gpt-4o-mini-2024-07-18')).toBe(PRICE_TABLE['gpt-4o-mini']);
    expect(of('gpt-5-2025-08-07')).toBe(PRICE_TABLE['gpt-5']);
    expect(of('gemini-2.0-flash-001')).toBe(PRICE_TABLE['gemini-2.0-flash']);
    expect(of('gemini-2.5-flash-preview-09-2025')).toBe(PRICE_TABLE['gemini-2.5-flash']);
    expect(of('gemini-3-pro-preview')).toBe(PRICE_TABLE['gemini-3-pro']);
    expect(of('claude-3-5-haiku-latest')).toBe(PRICE_TABLE['claude-3-5-haiku']);
  });

  it('another version or another model is not a variant: unpriced rather than priced as its neighbour', () => {
    expect(of('claude-opus-4-9')).toBeUndefined(); // not claude-opus-4 at $15
    expect(of('gemini-2.5-flash-image')).toBeUndefined(); // not gemini-2.5-flash
    expect(of('gpt-5.3-codex')).toBeUndefined(); // not gpt-5
    expect(of('gpt-5-codex')).toBeUndefined();
    expect(of('my-azure-deployment')).toBeUndefined();
  });

  it('a host\'s spelling: Gemini models/…, Bedrock region and vendor prefixes and -v1:0, a provider path', () => {
    expect(of('models/gemini-2.5-pro')).toBe(PRICE_TABLE['gemini-2.5-pro']);
    expect(of('anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(PRICE_TABLE['claude-sonnet-4-5']);
    expect(of('us.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe(PRICE_TABLE['claude-haiku-4-5']);
    expect(of('global.anthropic.claude-opus-4-6-v1')).toBe(PRICE_TABLE['claude-opus-4-6']);
    expect(of('openai/gpt-4.1')).toBe(PRICE_TABLE['gpt-4.1']);
    expect(of('GPT-4o')).toBe(PRICE_TABLE['gpt-4o']);
  });

  it('a dated price takes effect on its day (a launch promotion ending)', () => {
    expect(of('gemini-3.8-flash', Date.UTC(2026, 11, 31, 23, 59))).toEqual({ input: 0.75, output: 3.75, cacheRead: 0.075 });
    expect(of('gemini-3.8-flash', Date.UTC(2027, 0, 1))).toEqual({ input: 1.5, output: 7.5, cacheRead: 0.15 });
  });
});

describe('the config over the table', () => {
  it('a partial entry keeps the table\'s other rates; a name it gives prices that model\'s variants', () => {
    const book = priceBook({ 'claude-sonnet-4-5': { input: 2 } });
    expect(book.priceOf('claude-sonnet-4-5-20250929', DEC_2026)).toEqual({ ...(PRICE_TABLE['claude-sonnet-4-5'] as object), input: 2 });
  });

  it('a more exact name in the config takes its fields from the table\'s entry for the same model', () => {
    const book = priceBook({ 'Claude-Haiku-4-5-20251001': { output: 4 } });
    expect(book.priceOf('claude-haiku-4-5-20251001', DEC_2026)).toEqual({ ...(PRICE_TABLE['claude-haiku-4-5'] as object), output: 4 });
    expect(book.priceOf('claude-haiku-4-5', DEC_2026)).toBe(PRICE_TABLE['claude-haiku-4-5']);
  });

  it('prices a model the table does not know (an Azure deployment), and only with what it says', () => {
    const book = priceBook({ 'prod-gpt': { input: 1, output: 2 } });
    expect(book.priceOf('prod-gpt', DEC_2026)).toEqual({ input: 1, output: 2 });
    expect(book.priceOf('prod-gpt-2', DEC_2026)).toBeUndefined();
  });
});

describe('the built-in table', () => {
  it('every entry prices input and output, with no negative rate and tiers above their base', () => {
    for (const [name, entry] of Object.entries(PRICE_TABLE)) {
      for (const p of Array.isArray(entry) ? entry : [entry]) {
        expect(p.input, name).toBeGreaterThan(0);
        expect(p.output, name).toBeGreaterThan(p.input!);
        for (const rate of [p.cacheRead, p.cacheWrite, p.cacheWrite1h]) if (rate !== undefined) expect(rate, name).toBeGreaterThan(0);
        if (p.cacheRead !== undefined) expect(p.cacheRead, name).toBeLessThan(p.input!);
        for (const t of p.tiers ?? []) expect(t.input!, name).toBeGreaterThan(p.input!);
      }
    }
  });

  it('holds the current models of the three vendors', () => {
    for (const m of ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-fable-5-1', 'gpt-6-astra', 'gpt-6-sol', 'gpt-6-luna', 'gpt-5.5', 'gemini-3.8-flash', 'gemini-3-pro', 'gemini-2.5-pro']) {
      expect(of(m), m).toBeDefined();
    }
  });
});
