/**
 * Seeing what a translation did: the loss report header, strict mode, dry-run (checked against
 * what the upstream really receives), the wire dump and metrics (checked for redaction).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';

const PNG_B64 = 'iVBORw0KGgo' + 'A'.repeat(2000);

describe.each(TARGETS)('%s: loss report, strict mode, dry-run', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let openai: OpenAI;

  beforeAll(async () => {
    mock = await startMockUpstream();
    const cfg = e2eConfig(mock.url);
    proxy = await startProxy({ ...cfg, models: { ...cfg.models, 'strict-claude': { upstream: 'anthropic', model: 'claude-x', strict: true } } }, {}, target);
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  const lossy = {
    model: 'to-anthropic',
    messages: [{ role: 'user' as const, content: 'Hi' }],
    logit_bias: { '50256': -100 },
    seed: 7,
  };

  it('x-interlingua-warnings names what the translation dropped', async () => {
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const { data, response } = await openai.chat.completions.create(lossy).withResponse();
    expect(data.choices[0]!.message.content).toBeTruthy();
    const warnings = response.headers.get('x-interlingua-warnings') ?? '';
    expect(warnings).toContain('dropped:logit_bias');
    expect(warnings).toContain('dropped:seed');
    expect(mock.requests[0]!.json.logit_bias).toBeUndefined();
    // The same request to an OpenAI upstream loses nothing.
    mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const same = await openai.chat.completions.create({ ...lossy, model: 'gpt-4o' }).withResponse();
    expect(same.response.headers.get('x-interlingua-warnings')).toBeNull();
  });

  it('strict mode by header: a 400 naming the loss, nothing sent upstream', async () => {
    const err = await openai.chat.completions
      .create(lossy, { headers: { 'x-interlingua-strict': 'true' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toMatch(/Strict mode.*dropped:logit_bias/);
    expect(mock.requests).toHaveLength(0);
  });

  it('strict mode by route config, through the Anthropic SDK', async () => {
    const anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    // Nothing lost: served.
    const ok = await anthropic.messages.create({ model: 'strict-claude', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    expect(ok.content.length).toBeGreaterThan(0);
    // An OpenAI caller's logit_bias cannot reach Anthropic: refused.
    const err = await openai.chat.completions.create({ ...lossy, model: 'strict-claude' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(mock.requests).toHaveLength(1);
  });

  it('dry-run returns exactly the upstream request that a real call sends', async () => {
    const body = {
      model: 'to-gemini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } }] },
      ],
      temperature: 0.3,
    };
    const headers = { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' };
    const dry = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...headers, 'x-interlingua-dry-run': 'true' },
      body: JSON.stringify(body),
    });
    expect(dry.status).toBe(200);
    const shown = (await dry.json()) as any;
    expect(mock.requests).toHaveLength(0);
    expect(JSON.stringify(shown)).not.toContain(UPSTREAM_KEYS.gemini);
    expect(shown.request.headers['x-goog-api-key']).toBe('***');
    expect(JSON.stringify(shown.request.body)).toContain('elided');

    mock.reply(fixtureReply('gemini', 'system-instruction.json'));
    await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body) });
    const real = mock.requests[0]!;
    expect(new URL(shown.request.url).pathname + new URL(shown.request.url).search).toBe(real.url);
    expect(shown.request.method).toBe(real.method);
    const realBody = real.json;
    realBody.contents[0].parts[1].inlineData.data = expect.stringContaining('elided');
    expect(shown.request.body).toEqual(realBody);
    expect(shown.upstream).toEqual({ name: 'gemini', dialect: 'gemini', model: 'gemini-2.5-flash' });
  });

  it('dry-run of an agent-sized conversation (sent in pieces) shows the JSON a real call sends', async () => {
    const messages = Array.from({ length: 200 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} é "q" ${'y'.repeat(600)}` }));
    const body = JSON.stringify({ model: 'to-gemini', messages });
    const headers = { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' };
    const dry = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { ...headers, 'x-interlingua-dry-run': 'true' }, body });
    expect(dry.status).toBe(200);
    const shown = (await dry.json()) as any;
    mock.reply(fixtureReply('gemini', 'system-instruction.json'));
    expect((await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers, body })).status).toBe(200);
    const real = mock.requests.at(-1)!;
    expect(Buffer.byteLength(real.body)).toBeGreaterThan(100_000);
    expect(shown.request.body).toEqual(real.json);
    expect(real.json.contents).toHaveLength(200);
  });
});

describe('wire dump and metrics', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(async () => {
    await mock.close();
  });

  function app(extra: Record<string, unknown>, dump: string[]) {
    return createApp({
      config: parseConfig(e2eConfig(mock.url, extra)),
      fetch: (url, init) => fetch(url, init),
      debugLog: (t) => dump.push(t),
    });
  }
  const post = (a: ReturnType<typeof createApp>, body: unknown) =>
    a.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('dumps caller request, upstream request and response, caller response — redacted', async () => {
    const dump: string[] = [];
    const a = app({ log: { debug: true } }, dump);
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const res = await post(a, { model: 'to-anthropic', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } }] }] });
    expect(res.status).toBe(200);
    const text = dump.join('\n');
    for (const stage of ['caller request', 'upstream request → anthropic', 'upstream response ← anthropic', 'caller response (200)']) expect(text).toContain(stage);
    expect(text).not.toContain(UPSTREAM_KEYS.anthropic);
    expect(text).not.toContain(INBOUND_KEY);
    expect(text).not.toContain(PNG_B64);
    expect(text).toContain('elided');
  });

  it('dumps stream events both ways', async () => {
    const dump: string[] = [];
    const a = app({ log: { debug: true } }, dump);
    mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
    const res = await post(a, { model: 'to-anthropic', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    await res.text();
    const text = dump.join('\n');
    expect(text).toContain('upstream events');
    expect(text).toContain('content_block_delta');
    expect(text).toContain('caller frames');
    expect(text).toContain('chat.completion.chunk');
  });

  it('no dump at all when debug is off', async () => {
    const dump: string[] = [];
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await post(app({}, dump), { model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }] });
    expect(dump).toHaveLength(0);
  });

  it('serves Prometheus metrics when enabled, with tokens and no secrets', async () => {
    const a = app({ metrics: true }, []);
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await post(a, { model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }] });
    mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
    await (await post(a, { model: 'to-anthropic', stream: true, messages: [{ role: 'user', content: 'Hi' }] })).text();
    expect((await a.request('/metrics')).status).toBe(401);
    const res = await a.request('/metrics', { headers: { authorization: `Bearer ${INBOUND_KEY}` } });
    const text = await res.text();
    expect(text).toContain('interlingua_requests_total{caller="openai-chat",upstream="anthropic",status="200"} 2');
    expect(text).toMatch(/interlingua_tokens_total\{upstream="anthropic",direction="in"\} \d+/);
    expect(text).toContain('interlingua_proxy_overhead_ms_count{caller="openai-chat",upstream="anthropic"} 2');
    expect(text).toContain('interlingua_time_to_first_byte_ms_bucket');
    for (const k of Object.values(UPSTREAM_KEYS)) expect(text).not.toContain(k);
    const off = app({}, []);
    expect((await off.request('/metrics', { headers: { authorization: `Bearer ${INBOUND_KEY}` } })).status).toBe(404);
  });
});

describe('request ids', () => {
  const app = createApp({ config: parseConfig(e2eConfig('http://127.0.0.1:9')), fetch: async () => new Response('{}') });
  it('keeps a caller id that is a plain token, replaces anything else', async () => {
    const ask = (id: string) => app.request('/v1/models', { headers: { authorization: `Bearer ${INBOUND_KEY}`, 'x-request-id': id } });
    expect((await ask('trace-42.a:b')).headers.get('x-request-id')).toBe('trace-42.a:b');
    expect((await ask('x'.repeat(500))).headers.get('x-request-id')).toMatch(/^req_/);
    expect((await ask('<script>')).headers.get('x-request-id')).toMatch(/^req_/);
  });
});
