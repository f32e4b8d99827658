import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
/**
 * The Node entry serves every route straight from node:http (runtime/node-server.ts); Workers and
 * tests go through the Hono app. Both hand the same route table a runtime-neutral request, so the
 * same requests must get the same answers either way: each case goes to a real Node server and to
 * the Hono app in-process (`app.fetch`, same config, same upstream client), and status, content
 * type, proxy headers and the (id-normalised) body are compared.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { parseConfig } from '../src/config/load.ts';
import { nodeFetch } from '../src/runtime/node-client.ts';
import { startNode } from '../src/runtime/node.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from './support/mock-upstream.ts';
import { INBOUND_KEY, e2eConfig } from './support/proxy.ts';

interface Case {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  reply?: [string, string];
}

const json = (v: unknown) => JSON.stringify(v);
const bearer = { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' };
const anthropicAuth = { 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
const googAuth = { 'x-goog-api-key': INBOUND_KEY, 'content-type': 'application/json' };
const hello = [{ role: 'user', content: 'Hi' }];
const geminiHello = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

const CASES: Case[] = [
  { name: 'openai → anthropic', path: '/v1/chat/completions', headers: bearer, body: json({ model: 'to-anthropic', messages: hello }), reply: ['anthropic', 'text-basic.json'] },
  { name: 'openai passthrough', path: '/v1/chat/completions', headers: bearer, body: json({ model: 'gpt-4o-mini', messages: hello }), reply: ['openai-chat', 'text-basic.json'] },
  { name: 'openai stream → gemini', path: '/v1/chat/completions', headers: bearer, body: json({ model: 'to-gemini', messages: hello, stream: true }), reply: ['gemini', 'stream-text-basic.sse'] },
  { name: 'anthropic → openai', path: '/v1/messages', headers: anthropicAuth, body: json({ model: 'to-openai', max_tokens: 100, messages: hello }), reply: ['openai-chat', 'text-basic.json'] },
  { name: 'anthropic stream passthrough', path: '/v1/messages', headers: anthropicAuth, body: json({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: hello, stream: true }), reply: ['anthropic', 'stream-text-basic.sse'] },
  { name: 'gemini → anthropic', path: '/v1beta/models/to-anthropic:generateContent', headers: googAuth, body: json(geminiHello), reply: ['anthropic', 'text-basic.json'] },
  { name: 'gemini 3.x path, stream', path: '/v1/models/to-openai:streamGenerateContent?alt=sse', headers: googAuth, body: json(geminiHello), reply: ['openai-chat', 'stream-text-basic.sse'] },
  { name: 'gemini key in the query', path: `/v1beta/models/to-anthropic:generateContent?key=${INBOUND_KEY}`, headers: { 'content-type': 'application/json' }, body: json(geminiHello), reply: ['anthropic', 'text-basic.json'] },
  { name: 'upstream error in the caller dialect', path: '/v1/messages', headers: anthropicAuth, body: json({ model: 'to-openai', max_tokens: 100, messages: hello }), reply: ['openai-chat', 'error-429-rate-limit-tpm.json'] },
  { name: 'unknown gemini method', path: '/v1beta/models/to-openai:embedContent', headers: googAuth, body: json(geminiHello) },
  { name: 'bad JSON', path: '/v1/chat/completions', headers: bearer, body: '{"model":' },
  { name: 'empty body', path: '/v1/messages', headers: anthropicAuth, body: '' },
  { name: 'wrong key', path: '/v1/chat/completions', headers: { ...bearer, authorization: 'Bearer nope' }, body: json({ model: 'to-anthropic', messages: hello }) },
  { name: 'validation error', path: '/v1/messages', headers: anthropicAuth, body: json({ model: 'to-openai', messages: hello }) },
  { name: 'dry run', path: '/v1/chat/completions', headers: { ...bearer, 'x-interlingua-dry-run': '1' }, body: json({ model: 'to-gemini', messages: hello }) },
  { name: 'count tokens, estimated', path: '/v1/messages/count_tokens', headers: anthropicAuth, body: json({ model: 'to-openai', messages: hello }) },
  { name: 'model list', method: 'GET', path: '/v1/models', headers: bearer },
  { name: 'gemini model list', method: 'GET', path: '/v1beta/models', headers: googAuth },
  { name: 'a gemini action is not a model to GET', method: 'GET', path: '/v1beta/models/to-openai:generateContent', headers: googAuth },
  { name: 'unknown route', method: 'PUT', path: '/v1/chat/completions', headers: bearer },
  { name: 'health', method: 'GET', path: '/health' },
];

/** Ids, timestamps and the request id differ per call; everything else must not. */
function normalise(text: string): string {
  return text
    .replace(/"(id|created|responseId|created_at|createTime)":\s*("[^"]*"|\d+)/g, '"$1":"*"')
    .replace(/(chatcmpl-|msg_|req_|toolu_|call_)[A-Za-z0-9_-]+/g, '$1*');
}

const HEADERS = ['content-type', 'x-interlingua-upstream', 'x-interlingua-warnings', 'x-interlingua-dry-run', 'x-interlingua-token-count', 'retry-after'];

describe('the Node server and the Hono app answer alike', () => {
  let mock: MockUpstream;
  let url: string;
  let close: () => Promise<void>;
  let app: ReturnType<typeof createApp>;
  let reply: Case['reply'];

  beforeAll(async () => {
    mock = await startMockUpstream();
    mock.reply(() => (reply ? fixtureReply(reply[0], reply[1]) : { status: 500, body: 'unexpected upstream call' }));
    const config = parseConfig(e2eConfig(mock.url));
    const running = await startNode({ config, port: 0, log: () => {} });
    url = `http://127.0.0.1:${running.port}`;
    close = running.close;
    app = createApp({ config: parseConfig(e2eConfig(mock.url)), fetch: nodeFetch });
  });
  afterAll(async () => {
    await close?.();
    await mock?.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it.each(CASES)('$name', async (c) => {
    reply = c.reply;
    const init = { method: c.method ?? 'POST', headers: c.headers ?? {}, body: c.body };
    const viaNode = await fetch(url + c.path, init);
    const nodeBody = await viaNode.text();
    const viaHono = await app.fetch(new Request(`http://127.0.0.1${c.path}`, init));
    const honoBody = await viaHono.text();
    expect(viaNode.status).toBe(viaHono.status);
    for (const h of HEADERS) expect([h, viaNode.headers.get(h)]).toEqual([h, viaHono.headers.get(h)]);
    if (c.path !== '/health') expect(viaNode.headers.get('x-request-id')).toMatch(/^req_\w+$/);
    expect(normalise(nodeBody)).toBe(normalise(honoBody));
    // The upstream saw the same request from both.
    if (c.reply && viaNode.status === 200) {
      expect(mock.requests).toHaveLength(2);
      expect(normalise(mock.requests[0]!.body)).toBe(normalise(mock.requests[1]!.body));
    }
  });

  it('a stream whose first event is slow still shows its status at once', async () => {
    // A comment frame (no event), then the answer 400 ms later: the caller's headers must not wait.
    const events = fixtureReply('anthropic', 'stream-text-basic.sse');
    reply = undefined;
    mock.reply({ ...events, chunks: [': thinking\n\n', ...(events.chunks ?? [])], delayMs: 400 });
    // The openai SDK's create() resolves once the response headers are in.
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
    const started = Date.now();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }], stream: true })
      .withResponse();
    const headersAfter = Date.now() - started;
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    const bodyAfter = Date.now() - started;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(headersAfter).toBeLessThan(300);
    expect(bodyAfter).toBeGreaterThanOrEqual(400);
    expect(text.length).toBeGreaterThan(0);
    expect(finish).toBe('stop');
    mock.reply(() => (reply ? fixtureReply(reply[0], reply[1]) : { status: 500, body: 'unexpected upstream call' }));
  });

  it('CORS: the same preflight and allow headers on both runtimes, none for other origins', async () => {
    const config = parseConfig(e2eConfig(mock.url, { cors: { origins: ['https://app.example'] } }));
    const running = await startNode({ config, port: 0, log: () => {} });
    const web = createApp({ config, fetch: nodeFetch });
    try {
      const preflight = { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } };
      for (const res of [await fetch(`http://127.0.0.1:${running.port}/v1/chat/completions`, preflight), await web.fetch(new Request('http://127.0.0.1/v1/chat/completions', preflight))]) {
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
        expect(res.headers.get('access-control-allow-methods')).toContain('POST');
        expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      }
      reply = ['openai-chat', 'text-basic.json'];
      const call = (origin: string) => ({ method: 'POST', headers: { ...bearer, origin }, body: json({ model: 'gpt-4o-mini', messages: hello }) });
      const ok = await fetch(`http://127.0.0.1:${running.port}/v1/chat/completions`, call('https://app.example'));
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
      // Every x-interlingua- header the proxy answers with (src/, outside tests) is readable by the page.
      const exposed = ok.headers.get('access-control-expose-headers')!.split(', ');
      for (const header of answeredHeaders()) expect(exposed).toContain(header);
      const other = await web.fetch(new Request('http://127.0.0.1/v1/chat/completions', call('https://evil.example')));
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await running.close();
    }
  });
});

/** The `x-interlingua-` headers src/ sets on answers (the two read from requests left out). */
function answeredHeaders(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/'(x-interlingua-[a-z-]+)'/g)) found.add(m[1]!);
    }
  };
  walk(fileURLToPath(new URL('../src/', import.meta.url)));
  for (const asked of ['x-interlingua-strict']) found.delete(asked);
  expect(found.size).toBeGreaterThan(3);
  return [...found];
}
