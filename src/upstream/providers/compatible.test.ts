import { describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { COMPATIBLE_BASES, COMPATIBLE_PROVIDERS } from '../../config/provider-names.ts';
import { parseConfig } from '../../config/load.ts';
import { providerOf } from './index.ts';
import { providerOfHost } from './compatible.ts';

function upstream(u: Record<string, unknown>) {
  return parseConfig({ keys: ['in'], upstreams: { u: { dialect: 'openai', apiKey: 'k', ...u } }, models: { '*': { upstream: 'u' } } }).upstreams['u']!;
}

const options = (u: ReturnType<typeof upstream>) => providerOf(u).options?.({ upstream: u, model: 'm' }) ?? {};
const url = (u: ReturnType<typeof upstream>, path = '/chat/completions') => providerOf(u).url({ method: 'POST', path, headers: {}, stream: false }, { upstream: u, model: 'm' });

describe('compatible providers', () => {
  it.each(COMPATIBLE_PROVIDERS)('%s: its default base, a Bearer key, max_tokens', (name) => {
    const u = upstream({ provider: name });
    expect(url(u)).toBe(`${COMPATIBLE_BASES[name]}/chat/completions`);
    expect(url(u, '/models')).toBe(`${COMPATIBLE_BASES[name]}/models`);
    expect(options(u)).toMatchObject({ maxTokensField: 'max_tokens' });
    expect(providerOf(u).headers).toBeUndefined();
  });

  it('each host’s own quirks', () => {
    expect(options(upstream({ provider: 'mistral' }))).toMatchObject({ streamOptions: false, toolCallIds: 'alphanumeric-9' });
    expect(options(upstream({ provider: 'deepseek' }))).toMatchObject({ replayReasoning: true, textContent: 'string' });
    expect(options(upstream({ provider: 'groq' }))).toMatchObject({ textContent: 'string' });
    expect(options(upstream({ provider: 'groq' })).replayReasoning).toBeUndefined();
    // OpenRouter takes content arrays (and reads cache_control on their parts).
    expect(options(upstream({ provider: 'openrouter' })).textContent).toBeUndefined();
    expect(options(upstream({ provider: 'openrouter' })).toolCallIds).toBeUndefined();
  });

  it('an explicit baseUrl keeps the provider’s quirks (a proxy, a mock)', () => {
    const u = upstream({ provider: 'mistral', baseUrl: 'http://127.0.0.1:9000/mistral/v1?tenant=a' });
    expect(url(u)).toBe('http://127.0.0.1:9000/mistral/v1/chat/completions?tenant=a');
    expect(options(u)).toMatchObject({ toolCallIds: 'alphanumeric-9' });
  });

  it('a plain openai upstream on a well-known host gets that host’s quirks', () => {
    expect(providerOfHost('https://api.mistral.ai/v1')).toBe('mistral');
    expect(options(upstream({ baseUrl: 'https://api.mistral.ai/v1' }))).toMatchObject({ streamOptions: false, toolCallIds: 'alphanumeric-9' });
    expect(options(upstream({ baseUrl: 'https://api.deepseek.com' }))).toMatchObject({ replayReasoning: true });
    expect(options(upstream({ baseUrl: 'https://openrouter.ai/api/v1' }))).toMatchObject({ maxTokensField: 'max_tokens' });
    expect(options(upstream({ baseUrl: 'https://api.groq.com/openai/v1' }))).toMatchObject({ maxTokensField: 'max_tokens' });
    // OpenAI proper, local servers (no well-known host) and other dialects on such hosts: none.
    expect(options(upstream({ baseUrl: 'https://api.openai.com/v1' }))).toEqual({});
    expect(options(upstream({ baseUrl: 'http://127.0.0.1:11434/v1' }))).toEqual({});
    const anthropicOnDeepSeek = parseConfig({ upstreams: { u: { dialect: 'anthropic', baseUrl: 'https://api.deepseek.com/anthropic' } }, models: {} }).upstreams['u']!;
    expect(providerOf(anthropicOnDeepSeek).options?.({ upstream: anthropicOnDeepSeek, model: 'm' }) ?? {}).toEqual({});
    expect(providerOfHost('not a url')).toBeUndefined();
  });

  it('dry-run: the real URL, the key masked, the host’s body', async () => {
    const app = createApp({
      config: parseConfig({
        keys: ['il-in'],
        upstreams: { m: { dialect: 'openai', provider: 'mistral', apiKey: 'mistral-secret-key-42' } },
        models: { '*': { upstream: 'm', model: 'mistral-large-latest' } },
      }),
      fetch: async () => {
        throw new Error('a dry-run sends nothing');
      },
    });
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer il-in', 'content-type': 'application/json', 'x-interlingua-dry-run': 'true' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, max_completion_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    const shown = (await res.json()) as any;
    expect(shown.request.url).toBe('https://api.mistral.ai/v1/chat/completions');
    expect(shown.request.headers.authorization).toBe('***');
    expect(JSON.stringify(shown)).not.toContain('mistral-secret-key-42');
    expect(shown.request.body).toEqual({ model: 'mistral-large-latest', stream: true, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
  });
});
