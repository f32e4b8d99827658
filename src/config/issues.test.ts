import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { describeIssues, formatPath, nearest } from '../kit/index.ts';
import { ConfigSchema } from './schema.ts';

/** The words for a document's issues against the config schema. */
function words(doc: unknown): string {
  const r = v.safeParse(ConfigSchema, doc);
  if (r.success) throw new Error('valid');
  return describeIssues(ConfigSchema, r.issues);
}

const up = { dialect: 'openai', baseUrl: 'https://api.example/v1' };

describe('config issues in plain words', () => {
  it('missing and unknown fields, with the nearest known name', () => {
    expect(words({})).toBe('missing field `upstreams`; missing field `models`');
    expect(words({ upstreams: { openai: { ...up, apikey: 'k' } }, models: {} })).toBe('unknown field `apikey` at upstreams.openai (did you mean `apiKey`?)');
    expect(words({ upstreams: {}, models: {}, keyz: [] })).toBe('unknown field `keyz` (did you mean `keys`?)');
    expect(words({ upstreams: { a: { ...up, retyr: {} } }, models: {} })).toBe('unknown field `retyr` at upstreams.a (did you mean `retry`?)');
    // Nothing near: no guess.
    expect(words({ upstreams: {}, models: {}, colour: 1 })).toBe('unknown field `colour`');
    expect(words({ upstreams: { a: { baseUrl: 'https://x' } }, models: {} })).toBe('missing field `dialect` at upstreams.a');
  });

  it('inside a union: the option that got furthest speaks', () => {
    expect(words({ upstreams: { a: up }, models: { x: { upstream: [{ upstream: 'a', modle: 'm' }] } } })).toBe('unknown field `modle` at models.x.upstream[0] (did you mean `model`?)');
  });

  it('wrong types say what the value must be, and only the type of what it is', () => {
    expect(words({ keys: 'il-secret', upstreams: {}, models: {} })).toBe('`keys` must be a list of strings or objects, not a string');
    expect(words({ keys: [7], upstreams: {}, models: {} })).toBe('`keys[0]` must be a non-empty string or an object ({ … }), not a number');
    expect(words({ upstreams: { a: { ...up, dialect: 'cohere' } }, models: {} })).toBe('`upstreams.a.dialect` must be one of "openai", "anthropic", "gemini", "openai-responses", "gemini-interactions"');
    expect(words({ upstreams: { a: { ...up, timeouts: { idleMs: '5' } } }, models: {} })).toBe('`upstreams.a.timeouts.idleMs` must be a whole number of at least 1, not a string');
    expect(words({ upstreams: {}, models: { 'gpt-4o': { upstream: 'a', strict: 'yes' } } })).toBe('`models["gpt-4o"].strict` must be true or false, not a string');
    expect(words({ upstreams: {}, models: {}, inspector: 3 })).toBe('`inspector` must be true or false or an object ({ … }), not a number');
  });

  it('rules: bounds, lengths, URLs', () => {
    expect(words({ upstreams: { a: { ...up, retry: { attempts: 0 } } }, models: {} })).toBe('`upstreams.a.retry.attempts` must be at least 1');
    expect(words({ upstreams: { a: { ...up, retry: { attempts: 11 } } }, models: {} })).toBe('`upstreams.a.retry.attempts` must be at most 10');
    expect(words({ upstreams: { a: { ...up, retry: { attempts: 1.5 } } }, models: {} })).toBe('`upstreams.a.retry.attempts` must be a whole number');
    expect(words({ upstreams: {}, models: { x: { upstream: [] } } })).toBe('`models.x.upstream` must not be an empty list');
    expect(words({ upstreams: { a: { ...up, baseUrl: 'api.example' } }, models: {} })).toBe('`upstreams.a.baseUrl` must be an absolute URL (https://…)');
  });

  it('never quotes the rejected value', () => {
    const secret = 'sk-live-SECRET-0123456789';
    for (const doc of [{ keys: secret, upstreams: {}, models: {} }, { upstreams: { a: { ...up, baseUrl: secret } }, models: {} }, { upstreams: { a: { ...up, dialect: secret } }, models: {} }]) {
      expect(words(doc)).not.toContain(secret);
    }
  });

  it('says at most three, then how many more', () => {
    expect(words({ upstreams: { a: 1, b: 2, c: 3, d: 4, e: 5 }, models: {} })).toMatch(/^(`upstreams\.\w` must be an object \(\{ … \}\), not a number; ){2}`upstreams\.c`.*; and 2 more$/);
  });

  it('paths and guesses', () => {
    expect(formatPath(['models', 'gpt-4o', 'upstream', 0])).toBe('models["gpt-4o"].upstream[0]');
    expect(formatPath([])).toBe('');
    expect(nearest('modle', ['model', 'upstream'])).toBe('model');
    expect(nearest('apikey', ['apiKey', 'apiVersion'])).toBe('apiKey');
    expect(nearest('xyz', ['model'])).toBeUndefined();
  });
});
