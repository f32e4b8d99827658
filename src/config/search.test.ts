import { describe, expect, it } from 'vitest';
import { configSecretValues } from '../upstream/secrets.ts';
import { parseConfig } from './load.ts';

const base = { upstreams: { o: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' } }, models: { '*': { upstream: 'o' } } };

describe('config search', () => {
  it('a backend with its key from the environment, maxResults 5 by default; the key a secret scrubbed everywhere', () => {
    const c = parseConfig({ ...base, search: { provider: 'brave', apiKey: 'env:BRAVE_KEY' } }, { BRAVE_KEY: 'bk-1' });
    expect(c.search).toEqual({ provider: 'brave', apiKey: 'bk-1', maxResults: 5 });
    expect(c.env).toContainEqual({ name: 'BRAVE_KEY', path: 'search.apiKey', set: true });
    expect(configSecretValues(c)).toContain('bk-1');
  });

  it('a key is needed but by SearXNG, which needs its instance URL; unknown providers and fields are refused', () => {
    expect(() => parseConfig({ ...base, search: { provider: 'tavily' } })).toThrow(/provider tavily needs an apiKey/);
    expect(() => parseConfig({ ...base, search: { provider: 'searxng' } })).toThrow(/searxng needs a baseUrl/);
    expect(parseConfig({ ...base, search: { provider: 'searxng', baseUrl: 'http://127.0.0.1:8888' } }).search).toEqual({ provider: 'searxng', baseUrl: 'http://127.0.0.1:8888', maxResults: 5 });
    expect(() => parseConfig({ ...base, search: { provider: 'bing', apiKey: 'k' } })).toThrow(/search\.provider/);
    expect(() => parseConfig({ ...base, search: { provider: 'exa', apiKey: 'k', maxResults: 50 } })).toThrow(/search\.maxResults/);
    expect(() => parseConfig({ ...base, search: { provider: 'exa', apiKey: 'k', depth: 1 } })).toThrow(/depth/);
  });

  it('an unset key variable is named with the others', () => {
    expect(() => parseConfig({ ...base, search: { provider: 'exa', apiKey: 'env:EXA_KEY' } })).toThrow(/EXA_KEY \(search\.apiKey\)/);
  });
});
