import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, configFromEnv, parseConfig } from './load.ts';

const base = {
  upstreams: { a: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com/' } },
  models: { '*': { upstream: 'a' } },
};

describe('parseConfig', () => {
  it('uses the built-in default with no config', () => {
    const c = configFromEnv({});
    expect(Object.keys(c.upstreams).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    expect(c.upstreams.openai!.baseUrl).toBe('https://api.openai.com/v1');
    expect(c.keys).toEqual([]);
    expect(c.globs.map((g) => g.pattern)).toEqual(['claude-*', 'gemini-*', '*']);
  });

  it('reads inline JSON from INTERLINGUA_CONFIG and resolves env: values', () => {
    const doc = { ...base, keys: ['env:IN_KEY'], upstreams: { a: { ...base.upstreams.a, apiKey: 'env:UP_KEY' } } };
    const c = configFromEnv({ INTERLINGUA_CONFIG: JSON.stringify(doc), IN_KEY: 'k1', UP_KEY: 'u1' });
    expect(c.keys).toEqual(['k1']);
    expect(c.upstreams.a!.apiKey).toBe('u1');
    expect(c.upstreams.a!.baseUrl).toBe('https://api.anthropic.com');
  });

  it('names the field of a schema violation', () => {
    const bad = { ...base, upstreams: { a: { dialect: 'anthropic', baseUrl: 'not a url' } } };
    expect(() => parseConfig(bad)).toThrow(/upstreams\.a\.baseUrl/);
    expect(() => parseConfig({ ...base, upstreams: { a: { dialect: 'cohere', baseUrl: 'https://x' } } })).toThrow(
      /upstreams\.a\.dialect/,
    );
    expect(() => parseConfig({ ...base, extra: 1 })).toThrow(ConfigError);
  });

  it('names a route pointing at an unknown upstream', () => {
    expect(() => parseConfig({ ...base, models: { 'gpt-4o': { upstream: 'nope' } } })).toThrow(
      /models\["gpt-4o"\]\.upstream: no upstream named "nope"/,
    );
    expect(() => parseConfig({ ...base, models: { x: { upstream: ['a', 'b'] } } })).toThrow(/upstream\[1\]/);
  });

  it('names a missing environment variable', () => {
    const doc = { ...base, open: true, upstreams: { a: { ...base.upstreams.a, apiKey: 'env:MISSING_KEY' } } };
    expect(() => parseConfig(doc, {})).toThrow(/upstreams\.a\.apiKey: environment variable MISSING_KEY is not set/);
  });

  it('refuses upstream keys without inbound keys unless open', () => {
    const doc = { ...base, upstreams: { a: { ...base.upstreams.a, apiKey: 'sk-x' } } };
    expect(() => parseConfig(doc)).toThrow(/keys: upstream keys are configured \(a\)/);
    expect(parseConfig({ ...doc, open: true }).open).toBe(true);
    expect(parseConfig({ ...doc, keys: ['k'] }).keys).toEqual(['k']);
  });

  it('rejects invalid JSON text with a clear message', () => {
    expect(() => parseConfig('{nope')).toThrow(/invalid config: not valid JSON/);
  });

  it('orders globs most specific first', () => {
    const c = parseConfig({
      ...base,
      models: { '*': { upstream: 'a' }, 'claude-*': { upstream: 'a' }, 'claude-3-*': { upstream: 'a' } },
    });
    expect(c.globs.map((g) => g.pattern)).toEqual(['claude-3-*', 'claude-*', '*']);
  });

  it('keeps DEFAULT_CONFIG valid', () => {
    expect(() => parseConfig(DEFAULT_CONFIG)).not.toThrow();
  });
});

describe('config errors never echo values', () => {
  it('does not quote the rejected value or the JSON text', () => {
    const secret = 'sk-live-SECRET-abcdef123456';
    try {
      parseConfig({ upstreams: { a: { dialect: 'openai', baseUrl: secret } }, models: {} });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toContain('upstreams.a.baseUrl');
      expect((e as Error).message).not.toContain(secret);
    }
    try {
      parseConfig(`{"keys": ["${secret}"`);
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain(secret);
    }
  });
});
