import { describe, expect, it } from 'vitest';
import type { UpstreamHttpRequest } from '../../../translators/types.ts';
import { createApp } from '../../app.ts';
import { parseConfig } from '../../config/load.ts';
import { outgoing, providerOf } from './index.ts';

const KEY = 'azure-secret-key-0123456789';

function azure(extra: Record<string, unknown> = {}) {
  const config = parseConfig({
    keys: ['in'],
    upstreams: { az: { dialect: 'openai', provider: 'azure', baseUrl: 'https://res.openai.azure.com', apiKey: KEY, ...extra } },
    models: { '*': { upstream: 'az' } },
  });
  return config.upstreams['az']!;
}

const req = (path: string, headers: Record<string, string> = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }): UpstreamHttpRequest => ({
  method: 'POST',
  path,
  headers,
  body: '{}',
  stream: false,
});

const urlOf = (u: ReturnType<typeof azure>, path: string, model = 'my-gpt4o') => providerOf(u).url(req(path), { upstream: u, model });

describe('azure provider: URLs', () => {
  it('dated apiVersion: deployment URLs with api-version, the routed model as one encoded segment', () => {
    const u = azure({ apiVersion: '2024-10-21' });
    expect(urlOf(u, '/chat/completions')).toBe('https://res.openai.azure.com/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21');
    expect(urlOf(u, '/images/generations', 'dalle3')).toBe('https://res.openai.azure.com/openai/deployments/dalle3/images/generations?api-version=2024-10-21');
    expect(urlOf(u, '/images/edits', 'img')).toBe('https://res.openai.azure.com/openai/deployments/img/images/edits?api-version=2024-10-21');
    expect(urlOf(u, '/images/variations', 'img')).toBe('https://res.openai.azure.com/openai/deployments/img/images/variations?api-version=2024-10-21');
    // A deployment name cannot leave its segment.
    expect(urlOf(u, '/chat/completions', '../x?y#z')).toBe('https://res.openai.azure.com/openai/deployments/..%2Fx%3Fy%23z/chat/completions?api-version=2024-10-21');
    expect(() => urlOf(u, '/chat/completions', '..')).toThrow(/cannot be sent/);
  });

  it('v1 (the default): /openai/v1 paths, model in the body', () => {
    for (const u of [azure(), azure({ apiVersion: 'v1' })]) {
      expect(urlOf(u, '/chat/completions')).toBe('https://res.openai.azure.com/openai/v1/chat/completions');
      expect(urlOf(u, '/images/generations')).toBe('https://res.openai.azure.com/openai/v1/images/generations');
      expect(urlOf(u, '/models', '')).toBe('https://res.openai.azure.com/openai/v1/models');
    }
    expect(urlOf(azure({ apiVersion: 'preview' }), '/chat/completions')).toBe('https://res.openai.azure.com/openai/v1/chat/completions?api-version=preview');
  });

  it('the Responses paths always go to /openai/v1', () => {
    for (const u of [azure(), azure({ apiVersion: '2024-10-21' })]) {
      expect(urlOf(u, '/responses')).toBe('https://res.openai.azure.com/openai/v1/responses');
      expect(urlOf(u, '/responses/input_tokens')).toBe('https://res.openai.azure.com/openai/v1/responses/input_tokens');
    }
  });

  it('model list: only in the v1 style', () => {
    expect(providerOf(azure()).listsModels).toBe(true);
    expect(providerOf(azure({ apiVersion: '2024-10-21' })).listsModels).toBe(false);
  });

  it('a base with a query is never mangled: paths go before it, its api-version is not doubled', () => {
    const u = azure({ baseUrl: 'https://gw.example.com/azure?sub=1', apiVersion: '2024-10-21' });
    expect(urlOf(u, '/chat/completions')).toBe('https://gw.example.com/azure/openai/deployments/my-gpt4o/chat/completions?sub=1&api-version=2024-10-21');
    const pinned = azure({ baseUrl: 'https://gw.example.com/x?api-version=2025-01-01-preview', apiVersion: '2024-10-21' });
    expect(urlOf(pinned, '/chat/completions')).toBe('https://gw.example.com/x/openai/deployments/my-gpt4o/chat/completions?api-version=2025-01-01-preview');
    expect(urlOf(azure({ baseUrl: 'https://gw.example.com/x?sub=1' }), '/chat/completions')).toBe('https://gw.example.com/x/openai/v1/chat/completions?sub=1');
  });

  it('a base pasted with /openai or /openai/v1 is the resource; custom domains and mocks keep their paths', () => {
    expect(urlOf(azure({ baseUrl: 'https://res.openai.azure.com/openai/v1/' }), '/chat/completions')).toBe('https://res.openai.azure.com/openai/v1/chat/completions');
    expect(urlOf(azure({ baseUrl: 'https://res.openai.azure.com/openai', apiVersion: '2024-10-21' }), '/chat/completions')).toBe(
      'https://res.openai.azure.com/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21',
    );
    expect(urlOf(azure({ baseUrl: 'http://127.0.0.1:9999/mock' }), '/chat/completions')).toBe('http://127.0.0.1:9999/mock/openai/v1/chat/completions');
  });
});

describe('azure provider: headers', () => {
  it('the key goes in api-key, never in Authorization; other headers untouched', async () => {
    const u = azure({ headers: { 'x-ms-client': 'a' } });
    const out = await outgoing(req('/chat/completions', { 'x-ms-client': 'a', authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }), {
      upstream: u,
      model: 'm',
      fetch: globalThis.fetch,
      now: Date.now,
    });
    expect(out.headers).toEqual({ 'x-ms-client': 'a', 'api-key': KEY, 'content-type': 'application/json' });
    expect(out.url).toBe('https://res.openai.azure.com/openai/v1/chat/completions');
  });

  it('a Microsoft Entra ID token (a JWT) stays a Bearer token', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJjb2duaXRpdmVzZXJ2aWNlcyJ9.c2ln';
    const u = azure();
    expect(providerOf(u).headers!({ authorization: `Bearer ${jwt}` }, { upstream: u, model: 'm' })).toEqual({ authorization: `Bearer ${jwt}` });
  });
});

describe('azure provider: dry-run shows the real URL and the key masked', () => {
  const app = (apiVersion: string) =>
    createApp({
      config: parseConfig({
        keys: ['il-in'],
        upstreams: { az: { dialect: 'openai', provider: 'azure', baseUrl: 'https://res.openai.azure.com', apiVersion, apiKey: KEY } },
        models: { '*': { upstream: 'az', model: 'prod-gpt4o' } },
      }),
      fetch: async () => {
        throw new Error('a dry-run sends nothing');
      },
    });
  const dry = (a: ReturnType<typeof app>, path: string, body: unknown) =>
    a.request(path, {
      method: 'POST',
      headers: { authorization: 'Bearer il-in', 'content-type': 'application/json', 'x-interlingua-dry-run': 'true' },
      body: JSON.stringify(body),
    });

  it.each([
    ['2024-10-21', 'https://res.openai.azure.com/openai/deployments/prod-gpt4o/chat/completions?api-version=2024-10-21'],
    ['v1', 'https://res.openai.azure.com/openai/v1/chat/completions'],
  ])('chat, apiVersion %s', async (apiVersion, url) => {
    const res = await dry(app(apiVersion), '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.status).toBe(200);
    const shown = (await res.json()) as any;
    expect(shown.request.url).toBe(url);
    expect(shown.request.headers['api-key']).toBe('***');
    expect(shown.request.headers.authorization).toBeUndefined();
    expect(JSON.stringify(shown)).not.toContain(KEY);
    expect(shown.request.body.model).toBe('prod-gpt4o');
  });

  it('images, deployment style', async () => {
    const res = await dry(app('2024-10-21'), '/v1/images/generations', { model: 'dall-e-3', prompt: 'a cat' });
    const shown = (await res.json()) as any;
    expect(shown.request.url).toBe('https://res.openai.azure.com/openai/deployments/prod-gpt4o/images/generations?api-version=2024-10-21');
    expect(shown.request.headers['api-key']).toBe('***');
  });
});
