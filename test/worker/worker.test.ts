/**
 * The built Worker in workerd (Miniflare, 127.0.0.1): health, a passthrough chat call against the
 * mock upstream with the key from a secret binding, streams that flow before the upstream is
 * done, caller disconnects reaching the upstream, and a broken config answered, not crashed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReply, startMockUpstream, splitSse, type MockUpstream } from '../support/mock-upstream.ts';
import { fixtureText } from '../support/fixtures.ts';
import { INBOUND_KEY, e2eConfig } from '../support/proxy.ts';
import { startWorker, type RunningWorker } from '../support/worker.ts';

const SECRET = 'sk-from-a-worker-secret-4444';

let mock: MockUpstream;
let worker: RunningWorker;

const chat = (url: string, body: Record<string, unknown>, init: RequestInit = {}) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], ...body }),
    ...init,
  });

beforeAll(async () => {
  mock = await startMockUpstream();
  const base = e2eConfig(mock.url);
  const config = { ...base, upstreams: { ...base.upstreams, openai: { ...base.upstreams.openai, apiKey: 'env:OPENAI_SECRET' } } };
  worker = await startWorker({ INTERLINGUA_CONFIG: JSON.stringify(config), OPENAI_SECRET: SECRET });
});
afterAll(async () => {
  await worker?.close();
  await mock?.close();
});
beforeEach(() => {
  mock.requests.length = 0;
});

describe('worker in workerd', () => {
  it('serves /health', async () => {
    const res = await fetch(`${worker.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('passes a chat completion through, with the upstream key from a secret binding', async () => {
    mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const res = await chat(worker.url, {});
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(fixtureText('openai-chat', 'text-basic.json'));
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]!.url).toBe('/v1/chat/completions');
    expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    // workerd's console output is captured: one log line per request, no key in it.
    await expect.poll(() => worker.logs.length).toBeGreaterThan(0);
    expect(worker.logs.join('\n')).not.toContain(SECRET);
  });

  it('returns a stream at once: the first event arrives while the upstream is still sending', async () => {
    const events = splitSse(fixtureText('openai-chat', 'stream-text-basic.sse'));
    mock.reply({ headers: { 'content-type': 'text/event-stream' }, chunks: events, delayMs: 40 });
    const started = Date.now();
    const res = await chat(worker.url, { stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    const firstAt = Date.now() - started;
    let text = first.value ?? '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    const total = Date.now() - started;
    expect(text).toBe(events.join(''));
    expect(total).toBeGreaterThanOrEqual(40 * (events.length - 1));
    expect(firstAt).toBeLessThan(total / 2);
  });

  it('a caller that disconnects mid-stream cancels the upstream call', async () => {
    // An upstream that streams for 10 s unless its connection is closed first.
    let closedAt = 0;
    const upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n'), 50);
      const stop = setTimeout(() => res.end(), 10_000);
      res.on('close', () => {
        closedAt = Date.now();
        clearInterval(timer);
        clearTimeout(stop);
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const config = e2eConfig(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    const w = await startWorker({ INTERLINGUA_CONFIG: JSON.stringify(config) });
    try {
      const abort = new AbortController();
      const res = await chat(w.url, { stream: true }, { signal: abort.signal });
      const reader = res.body!.getReader();
      await reader.read();
      const abortedAt = Date.now();
      abort.abort();
      await expect.poll(() => closedAt, { timeout: 5_000 }).toBeGreaterThan(0);
      expect(closedAt - abortedAt).toBeLessThan(3_000);
    } finally {
      await w.close();
      upstream.closeAllConnections();
      await new Promise((r) => upstream.close(r));
    }
  });
});

describe('worker with a broken INTERLINGUA_CONFIG', () => {
  const cases: Array<[string, string, RegExp, string?]> = [
    ['not JSON', '{"upstreams": {"a": sk-literal-secret-5555', /not valid JSON/, 'sk-literal-secret-5555'],
    ['a schema violation', JSON.stringify({ keys: 'sk-misplaced-secret-6666', upstreams: {}, models: {} }), /keys/, 'sk-misplaced-secret-6666'],
    [
      'an env: reference to a missing binding',
      JSON.stringify({ keys: ['k'], upstreams: { o: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'env:MISSING_KEY' } }, models: { '*': { upstream: 'o' } } }),
      /MISSING_KEY/,
    ],
  ];
  it.each(cases)('%s: every request gets a 500 that says why, in its own dialect, and the Worker keeps answering', async (_, text, why, secret) => {
    const w = await startWorker({ INTERLINGUA_CONFIG: text });
    try {
      const asked: Array<[string, string, (b: any) => string]> = [
        ['GET', '/health', (b) => (expect(b.error.code).toBe('invalid_config'), b.error.message)],
        ['POST', '/v1/chat/completions', (b) => (expect(b.error.code).toBe('invalid_config'), b.error.message)],
        ['POST', '/v1/messages', (b) => (expect(b.type).toBe('error'), b.error.message)],
        ['POST', '/v1beta/models/gemini-2.5-flash:generateContent', (b) => (expect(b.error.status).toBe('INTERNAL'), b.error.message)],
      ];
      for (const [method, path, messageOf] of asked) {
        const res = await fetch(`${w.url}${path}`, { method, body: method === 'GET' ? undefined : '{}' });
        expect(res.status).toBe(500);
        const message = messageOf(await res.json());
        expect(message).toMatch(/^Interlingua is misconfigured: invalid config/);
        expect(message).toMatch(why);
        if (secret) expect(message).not.toContain(secret);
      }
      await expect.poll(() => w.logs.join('\n')).toMatch(why);
      if (secret) expect(w.logs.join('\n')).not.toContain(secret);
    } finally {
      await w.close();
    }
  });
});
