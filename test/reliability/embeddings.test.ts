/**
 * Embeddings when the upstream misbehaves: a body that is not JSON, too few vectors, an HTML
 * error page, a network failure, a hang past the deadline — each a clean error in the caller's
 * shape (never a 500 or a stack trace), and a fan-out that fails stops starting new calls.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';

function appWith(fetch: (url: string, init: RequestInit) => Promise<Response>) {
  const calls: string[] = [];
  const app = createApp({
    config: parseConfig({
      open: true,
      upstreams: {
        o: { dialect: 'openai', baseUrl: 'http://upstream.invalid/v1', apiKey: 'sk-x', retry: { attempts: 1 }, timeouts: { totalMs: 200, firstByteMs: 100, idleMs: 100 } },
        b: { dialect: 'anthropic', provider: 'bedrock', region: 'us-east-1', baseUrl: 'http://bedrock.invalid', apiKey: 'ABSK-x', retry: { attempts: 1 } },
      },
      models: { titan: { upstream: 'b', model: 'amazon.titan-embed-text-v2:0' }, '*': { upstream: 'o' } },
    }),
    fetch: async (url, init) => {
      calls.push(String(url));
      return fetch(String(url), init ?? {});
    },
  });
  const embed = (body: unknown) => app.request('/v1/embeddings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { embed, calls };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('embeddings against a misbehaving upstream', () => {
  it.each([
    ['a body that is not JSON', async () => new Response('<html>oops</html>', { status: 200, headers: { 'content-type': 'text/html' } }), 502],
    ['too few vectors', async () => json({ data: [{ index: 0, embedding: [1] }] }), 502],
    ['vectors that are not numbers', async () => json({ data: [{ index: 0, embedding: { x: 1 } }, { index: 1, embedding: [1] }] }), 502],
    ['an HTML 503 page', async () => new Response('<html>down</html>', { status: 503 }), 503],
    ['a network failure', async () => Promise.reject(new TypeError('fetch failed')), 502],
  ])('%s: OpenAI-shaped error, status %i', async (_name, reply, status) => {
    const { embed } = appWith(reply);
    const res = await embed({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error).toMatchObject({ message: expect.any(String), type: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('an upstream that never answers: a timeout in the caller shape', async () => {
    const { embed } = appWith((_url, init) => new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason))));
    const res = await embed({ model: 'text-embedding-3-small', input: 'a' });
    expect([504, 408]).toContain(res.status);
    expect((await res.json()).error.type).toBe('server_error');
  });

  it('a fan-out whose first call fails starts no call after the ones in flight', async () => {
    const { embed, calls } = appWith(async () => json({ message: 'Malformed input request' }, 400));
    const res = await embed({ model: 'titan', input: Array.from({ length: 40 }, (_, i) => `t${i}`) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe('Malformed input request');
    expect(calls.length).toBeLessThanOrEqual(8);
  });
});
