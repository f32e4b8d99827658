import { describe, expect, it } from 'vitest';
import { parseConfig } from './load.ts';
import { mergedPrices, pricesOfLiteLLM } from './prices.ts';

/** Rows shaped like LiteLLM's model_prices_and_context_window.json (per token). */
const LITELLM = {
  sample_spec: { input_cost_per_token: 0, output_cost_per_token: 0, litellm_provider: 'one of …' },
  'claude-sonnet-4-5': {
    input_cost_per_token: 3e-6,
    output_cost_per_token: 1.5e-5,
    cache_read_input_token_cost: 3e-7,
    cache_creation_input_token_cost: 3.75e-6,
    cache_creation_input_token_cost_above_1hr: 6e-6,
    input_cost_per_token_above_200k_tokens: 6e-6,
    output_cost_per_token_above_200k_tokens: 2.25e-5,
    cache_read_input_token_cost_above_200k_tokens: 6e-7,
    cache_creation_input_token_cost_above_1hr_above_200k_tokens: 1.2e-5,
    litellm_provider: 'anthropic',
    mode: 'chat',
    max_input_tokens: 200000,
    supports_vision: true,
  },
  'gemini/gemini-9-pro': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6, litellm_provider: 'gemini' },
  'vertex_ai/gemini-9-pro': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6, litellm_provider: 'vertex_ai' },
  'azure/eu/gpt-9': { input_cost_per_token: 2.2e-6, output_cost_per_token: 8.8e-6 },
  'openai/gpt-9': { input_cost_per_token: 2e-6, output_cost_per_token: 8e-6 },
  'dall-e-9': { output_cost_per_image: 0.04, mode: 'image_generation' },
};

describe('LiteLLM price documents', () => {
  it('reads per-token rates as per million, the 1-hour cache write apart, and tiers by their threshold', () => {
    const read = pricesOfLiteLLM(LITELLM);
    if ('problem' in read) throw new Error(read.problem);
    expect(read.prices['claude-sonnet-4-5']).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
      cacheWrite1h: 6,
      tiers: [{ above: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite1h: 12 }],
    });
    expect(read.prices).not.toHaveProperty('sample_spec');
    expect(read.prices).not.toHaveProperty('dall-e-9');
  });

  it('a provider-named row also prices its bare name, unless the providers disagree', () => {
    const read = pricesOfLiteLLM(LITELLM);
    if ('problem' in read) throw new Error(read.problem);
    expect(read.prices['gemini-9-pro']).toEqual({ input: 1, output: 4 });
    expect(read.prices).not.toHaveProperty('gpt-9');
    expect(read.prices['openai/gpt-9']).toEqual({ input: 2, output: 8 });
  });

  it('says what is wrong with a document that is not one', () => {
    expect(pricesOfLiteLLM([])).toEqual({ problem: 'not a LiteLLM price document (a JSON object of models)' });
    expect(pricesOfLiteLLM({ x: { mode: 'chat' } })).toEqual({ problem: 'no model in it has a price per token' });
  });

  it('the config\'s own prices win field by field', () => {
    expect(mergedPrices({ m: { input: 1, output: 2, cacheRead: 0.1 } }, { m: { output: 3 }, n: { input: 5 } })).toEqual({
      m: { input: 1, output: 3, cacheRead: 0.1 },
      n: { input: 5 },
    });
  });
});

describe('prices and pricesFile in the config', () => {
  const doc = (over: Record<string, unknown>) => ({ upstreams: { u: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } }, models: { '*': { upstream: 'u' } }, ...over });

  it('reads the file through the runtime, prices over it', () => {
    const files: string[] = [];
    const c = parseConfig(doc({ pricesFile: 'prices.json', prices: { 'claude-sonnet-4-5': { input: 2.5 }, mine: { input: 1, output: 1 } } }), {}, {
      readFile: (p) => (files.push(p), JSON.stringify(LITELLM)),
    });
    expect(files).toEqual(['prices.json']);
    expect(c.prices['claude-sonnet-4-5']).toMatchObject({ input: 2.5, output: 15, cacheWrite1h: 6 });
    expect(c.prices.mine).toEqual({ input: 1, output: 1 });
  });

  it('plain errors: no file reader (Workers), a file that cannot be read, not JSON, not LiteLLM\'s, a negative price', () => {
    expect(() => parseConfig(doc({ pricesFile: 'p.json' }))).toThrow('invalid config: pricesFile: files cannot be read here (Workers); give the prices in "prices"');
    const gone = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    expect(() => parseConfig(doc({ pricesFile: 'p.json' }), {}, { readFile: () => { throw gone; } })).toThrow('invalid config: pricesFile: cannot read p.json: ENOENT');
    expect(() => parseConfig(doc({ pricesFile: 'p.json' }), {}, { readFile: () => '{nope' })).toThrow('invalid config: pricesFile: p.json is not valid JSON');
    expect(() => parseConfig(doc({ pricesFile: 'p.json' }), {}, { readFile: () => '[1]' })).toThrow(/pricesFile: p\.json: not a LiteLLM price document/);
    expect(() => parseConfig(doc({ prices: { m: { input: -1 } } }))).toThrow('invalid config: `prices.m.input` must be at least 0');
    expect(() => parseConfig(doc({ prices: { m: { inputs: 1 } } }))).toThrow(/^invalid config: unknown field `inputs` at prices\.m \(did you mean `input`\?\)/);
  });
});
