/**
 * OpenTelemetry: official SDKs call through Interlingua with `telemetry` configured, and a local
 * OTLP receiver on 127.0.0.1 gets the spans: one SERVER span per request, one CLIENT span per
 * upstream attempt (retries included), GenAI attributes, the caller's trace continued and the
 * attempt's own context sent upstream; no content unless `captureContent`; a collector that is
 * down changes nothing for callers.
 */
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream } from '../support/mock-upstream.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, startProxy, useHarness } from '../support/proxy.ts';
import { genai } from './helpers-gemini.ts';
import { parseConfig } from '../../src/config/load.ts';

const OTLP_SECRET = 'otlp-collector-SECRET-5555';

/** The e2e config with telemetry on, and an Anthropic route that retries once (fast). */
function tracedConfig(otlpUrl: () => string, extra: Record<string, unknown> = {}) {
  return (mockUrl: string) => {
    const base = e2eConfig(mockUrl);
    return {
      ...base,
      upstreams: { ...base.upstreams, anthropic: { ...base.upstreams.anthropic, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } } },
      models: { ...base.models, 'with-fallback': { upstream: [{ upstream: 'anthropic', model: 'claude-sonnet-4-5' }, { upstream: 'openai', model: 'gpt-4o-mini' }] } },
      telemetry: { otlp: { endpoint: otlpUrl(), headers: { authorization: `Bearer ${OTLP_SECRET}` }, intervalMs: 20 }, ...extra },
    };
  };
}

const newTrace = () => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') });
const ofTrace = (traceId: string) => (s: ReceivedSpan) => s.traceId === traceId;
const ask = (extra: Record<string, unknown> = {}) => ({ model: 'to-anthropic', messages: [{ role: 'user' as const, content: 'Hi there' }], ...extra }) as never;

describe.each(TARGETS)('%s: OpenTelemetry traces to an OTLP receiver', (target) => {
  let otlp: OtlpReceiver;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
  });
  afterAll(() => otlp?.close());
  const h = useHarness(target, tracedConfig(() => otlp.url));
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  it('openai SDK → anthropic with one retry: 1 server span + 2 client spans, caller trace continued, attempt context sent upstream', async () => {
    h.mock.reply((_req, n) => (n === 1 ? fixtureReply('anthropic', 'error-529-overloaded.json') : fixtureReply('anthropic', 'text-basic.json')));
    const caller = newTrace();
    const res = await client.chat.completions.create(ask(), { headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` } });
    expect(res.choices[0]!.message.content).toBe(fixtureJson('anthropic', 'text-basic.json').content[0].text);

    const spans = await otlp.waitFor(ofTrace(caller.traceId), 3);
    const server = spans.filter((s) => s.kind === 2);
    const clients = spans.filter((s) => s.kind === 3).sort((a, b) => a.startTimeUnixNano.localeCompare(b.startTimeUnixNano));
    expect(server).toHaveLength(1);
    expect(clients).toHaveLength(2);
    const [srv] = server as [ReceivedSpan];
    expect(srv.parentSpanId).toBe(caller.spanId);
    expect(srv.spanId).toMatch(/^[0-9a-f]{16}$/);
    for (const c of clients) expect(c.parentSpanId).toBe(srv.spanId);
    expect(srv.name).toBe('chat to-anthropic');
    expect(srv.attrs).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'to-anthropic',
      'gen_ai.response.model': 'claude-sonnet-4-5-20250929',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 29,
      'gen_ai.response.finish_reasons': ['end_turn'],
      'http.response.status_code': 200,
      'interlingua.attempts': 2,
      'interlingua.caller.dialect': 'openai-chat',
      // No GenAI attribute for it: ours, the log line's cost (12 in, 29 out at claude-sonnet-4-5's $3 / $15).
      'interlingua.cost_usd': (12 * 3 + 29 * 15) / 1e6,
      'interlingua.key_name': 'keys[0]',
    });
    expect(clients[1]!.attrs['interlingua.cost_usd']).toBe((12 * 3 + 29 * 15) / 1e6);
    expect(clients[0]!.attrs).not.toHaveProperty('interlingua.cost_usd');
    expect(JSON.stringify(spans)).not.toContain(INBOUND_KEY);
    expect(srv.status.code ?? 0).toBe(0);
    expect(Number(srv.endTimeUnixNano)).toBeGreaterThanOrEqual(Number(srv.startTimeUnixNano));
    expect(srv.resource['service.name']).toBe('interlingua');

    const [first, second] = clients as [ReceivedSpan, ReceivedSpan];
    expect(first.name).toBe('chat claude-sonnet-4-5');
    expect(first.attrs).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-sonnet-4-5', 'server.address': '127.0.0.1', 'http.response.status_code': 529, 'error.type': '529' });
    expect(first.status.code).toBe(2);
    expect(first.attrs['gen_ai.response.model']).toBeUndefined();
    expect(second.attrs).toMatchObject({ 'http.response.status_code': 200, 'gen_ai.response.model': 'claude-sonnet-4-5-20250929', 'gen_ai.usage.output_tokens': 29, 'gen_ai.response.finish_reasons': ['end_turn'], 'server.port': h.mock.port });
    expect(second.attrs['error.type']).toBeUndefined();

    // Each upstream request carried its own attempt's context, in the caller's trace.
    expect(h.mock.requests.map((r) => r.headers.traceparent)).toEqual([`00-${caller.traceId}-${first.spanId}-01`, `00-${caller.traceId}-${second.spanId}-01`]);
    // No content by default, and the collector's key only in the export's own header.
    for (const s of spans) for (const k of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions']) expect(s.attrs[k]).toBeUndefined();
    expect(JSON.stringify(spans)).not.toContain('Hi there');
    const post = otlp.posts.find((p) => JSON.stringify(p.body).includes(caller.traceId))!;
    expect(post.path).toBe('/v1/traces');
    expect(post.headers.authorization).toBe(`Bearer ${OTLP_SECRET}`);
    expect(post.headers['content-type']).toContain('application/json');
    expect(h.proxy.logs.join('\n')).not.toContain(OTLP_SECRET);
  });

  it('a fallback is its own client span: two failed Anthropic tries, then OpenAI answers', async () => {
    h.mock.reply((req) => (req.url.startsWith('/v1/messages') ? fixtureReply('anthropic', 'error-529-overloaded.json') : fixtureReply('openai-chat', 'text-basic.json')));
    const caller = newTrace();
    await client.chat.completions.create(ask({ model: 'with-fallback' }), { headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` } });
    const spans = await otlp.waitFor(ofTrace(caller.traceId), 4);
    const clients = spans.filter((s) => s.kind === 3).sort((a, b) => a.startTimeUnixNano.localeCompare(b.startTimeUnixNano));
    expect(clients.map((c) => [c.attrs['gen_ai.provider.name'], c.attrs['gen_ai.request.model'], c.attrs['error.type']])).toEqual([
      ['anthropic', 'claude-sonnet-4-5', '529'],
      ['anthropic', 'claude-sonnet-4-5', '529'],
      ['openai', 'gpt-4o-mini', undefined],
    ]);
    const srv = spans.find((s) => s.kind === 2)!;
    expect(srv.attrs).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.response.model': 'gpt-4o-2024-08-06', 'interlingua.fallback': true, 'interlingua.attempts': 3 });
    expect(h.mock.requests.map((r) => r.headers.traceparent)).toEqual(clients.map((c) => `00-${caller.traceId}-${c.spanId}-01`));
  });

  it('a request without traceparent starts its own trace; the upstream gets a valid one of it', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await client.chat.completions.create(ask(), { headers: { traceparent: 'garbage', 'x-request-id': 'otel-new-trace-1' } });
    const [srv] = await otlp.waitFor((s) => s.attrs['interlingua.request_id'] === 'otel-new-trace-1', 1);
    expect(srv!.parentSpanId ?? '').toBe('');
    const [client1] = await otlp.waitFor((s) => s.traceId === srv!.traceId && s.kind === 3, 1);
    expect(h.mock.requests[0]!.headers.traceparent).toBe(`00-${srv!.traceId}-${client1!.spanId}-01`);
  });

  it('stream: time to first chunk on the server and client spans, finish reasons from the stream', async () => {
    h.mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse', { delayMs: 15 }));
    const caller = newTrace();
    const stream = await client.chat.completions.create(ask({ stream: true }), { headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` } });
    let text = '';
    for await (const chunk of stream as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
    const spans = await otlp.waitFor(ofTrace(caller.traceId), 2);
    const srv = spans.find((s) => s.kind === 2)!;
    const up = spans.find((s) => s.kind === 3)!;
    for (const s of [srv, up]) {
      const ttft = s.attributes.find((a) => a.key === 'gen_ai.response.time_to_first_chunk')!;
      expect(ttft.value).toHaveProperty('doubleValue');
      expect(s.attrs['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
      expect(s.attrs['gen_ai.response.time_to_first_chunk'] as number).toBeLessThan((Number(s.endTimeUnixNano) - Number(s.startTimeUnixNano)) / 1e9);
      expect(s.attrs['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
      expect(s.attrs['gen_ai.response.model']).toBe('claude-3-opus-latest');
    }
  });

  it('an upstream error: error.type on both spans, status error', async () => {
    h.mock.reply(fixtureReply('anthropic', 'error-400-invalid-request.json'));
    const caller = newTrace();
    const err = await client.chat.completions.create(ask(), { headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const spans = await otlp.waitFor(ofTrace(caller.traceId), 2);
    const srv = spans.find((s) => s.kind === 2)!;
    const up = spans.filter((s) => s.kind === 3);
    expect(up).toHaveLength(1); // a 400 is not retried
    expect(up[0]!.attrs).toMatchObject({ 'error.type': '400', 'http.response.status_code': 400 });
    expect(srv.attrs['http.response.status_code']).toBe(400);
    expect(srv.attrs['error.type']).toEqual(expect.any(String));
    expect(srv.status.code).toBe(2);
  });

  it('a caller that is not sampled: nothing exported, its decision passed upstream', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const caller = newTrace();
    await client.chat.completions.create(ask(), { headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-00` } });
    const sent = h.mock.requests[0]!.headers.traceparent as string;
    expect(sent).toMatch(new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-00$`));
    expect(sent).not.toContain(caller.spanId);
    await new Promise((r) => setTimeout(r, 150));
    expect(otlp.spans().filter(ofTrace(caller.traceId))).toEqual([]);
  });

  it('Gemini caller (google genai SDK): operation generate_content, provider of the upstream', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const ai = genai(h.proxy.url);
    await ai.models.generateContent({ model: 'to-anthropic', contents: 'Hi there', config: { httpOptions: { headers: { 'x-request-id': 'otel-gemini-1' } } } });
    const [srv] = await otlp.waitFor((s) => s.attrs['interlingua.request_id'] === 'otel-gemini-1', 1);
    expect(srv!.attrs).toMatchObject({ 'gen_ai.operation.name': 'generate_content', 'gen_ai.provider.name': 'anthropic', 'interlingua.caller.dialect': 'gemini' });
    const [up] = await otlp.waitFor((s) => s.traceId === srv!.traceId && s.kind === 3, 1);
    expect(up!.attrs['gen_ai.operation.name']).toBe('chat'); // the upstream speaks Messages
  });
});

describe.each(TARGETS)('%s: OpenTelemetry with captureContent', (target) => {
  let otlp: OtlpReceiver;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
  });
  afterAll(() => otlp?.close());
  const h = useHarness(target, tracedConfig(() => otlp.url, { captureContent: true }));

  it('input and output messages on the client span, in the GenAI shape', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    const caller = newTrace();
    await client.chat.completions.create(ask({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi there' }] }), {
      headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` },
    });
    const spans = await otlp.waitFor(ofTrace(caller.traceId), 2);
    const up = spans.find((s) => s.kind === 3)!;
    expect(JSON.parse(up.attrs['gen_ai.input.messages'] as string)).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Hi there' }] }]);
    expect(JSON.parse(up.attrs['gen_ai.system_instructions'] as string)).toEqual([{ type: 'text', content: 'Be brief.' }]);
    expect(JSON.parse(up.attrs['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: fixtureJson('anthropic', 'text-basic.json').content[0].text }], finish_reason: 'end_turn' },
    ]);
  });

  it('a streamed answer is put together for gen_ai.output.messages', async () => {
    h.mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    const caller = newTrace();
    const stream = await client.chat.completions.create(ask({ stream: true }), { headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` } });
    let text = '';
    for await (const chunk of stream as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>) text += chunk.choices[0]?.delta.content ?? '';
    const spans = await otlp.waitFor(ofTrace(caller.traceId), 2);
    const out = JSON.parse(spans.find((s) => s.kind === 3)!.attrs['gen_ai.output.messages'] as string);
    expect(out).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: text }], finish_reason: 'end_turn' }]);
  });
});

describe.each(TARGETS)('%s: OpenTelemetry collector down', (target) => {
  // A port nothing listens on: every export fails.
  let deadUrl = '';
  beforeAll(async () => {
    const r = await startOtlpReceiver();
    deadUrl = r.url;
    await r.close();
  });
  const h = useHarness(target, (mockUrl) => ({ ...tracedConfig(() => deadUrl)(mockUrl), metrics: true }));

  it('requests still succeed, streamed or not; the failed exports are counted in /metrics', async () => {
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    for (let i = 0; i < 3; i++) {
      h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
      const res = await client.chat.completions.create(ask());
      expect(res.choices[0]!.finish_reason).toBe('stop');
      h.mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
      const stream = await client.chat.completions.create(ask({ stream: true }));
      let n = 0;
      for await (const _ of stream as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>) n++;
      expect(n).toBeGreaterThan(1);
    }
    // 6 requests, 2 spans each: every one counted as failed once its export was refused.
    let failed = 0;
    for (let tries = 0; tries < 100 && failed < 12; tries++) {
      const text = await (await fetch(`${h.proxy.url}/metrics`, { headers: { authorization: `Bearer ${INBOUND_KEY}` } })).text();
      failed = Number(/interlingua_otlp_spans_total\{result="failed"\} (\d+)/.exec(text)?.[1] ?? 0);
      if (failed < 12) await new Promise((r) => setTimeout(r, 50));
    }
    expect(failed).toBe(12);
  });
});

describe.runIf(TARGETS.includes('node'))('node: OpenTelemetry on shutdown', () => {
  it('what waits for the export timer is sent when the server closes', async () => {
    const otlp = await startOtlpReceiver();
    const mock = await startMockUpstream();
    const doc = tracedConfig(() => otlp.url)(mock.url);
    const proxy = await startProxy({ ...doc, telemetry: { otlp: { endpoint: otlp.url, intervalMs: 600_000 } } });
    try {
      mock.reply(fixtureReply('anthropic', 'text-basic.json'));
      const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      await client.chat.completions.create(ask());
      await new Promise((r) => setTimeout(r, 100));
      expect(otlp.spans()).toEqual([]);
      await proxy.close();
      expect(otlp.spans().map((s) => s.kind).sort()).toEqual([2, 3]);
    } finally {
      await mock.close();
      await otlp.close();
    }
  });
});

describe('telemetry config', () => {
  const doc = (telemetry: unknown) => ({ open: true, upstreams: {}, models: {}, telemetry });
  it('resolves env: header values, defaults the service name and content capture; off when absent', () => {
    const c = parseConfig(doc({ otlp: { endpoint: 'http://127.0.0.1:4318', headers: { authorization: 'env:OTLP_AUTH' } } }), { OTLP_AUTH: 'Bearer x' });
    expect(c.telemetry).toEqual({ otlp: { endpoint: 'http://127.0.0.1:4318', headers: { authorization: 'Bearer x' }, serviceName: 'interlingua' }, captureContent: false });
    expect(parseConfig({ open: true, upstreams: {}, models: {} }).telemetry).toBeUndefined();
  });
  it('refuses a missing env variable, a relative endpoint and unknown fields', () => {
    expect(() => parseConfig(doc({ otlp: { endpoint: 'http://c', headers: { a: 'env:NOPE' } } }), {})).toThrow(/environment variable not set: NOPE \(telemetry\.otlp\.headers\.a\)/);
    expect(() => parseConfig(doc({ otlp: { endpoint: '/v1/traces' } }))).toThrow(/endpoint/);
    expect(() => parseConfig(doc({ otlp: { endpoint: 'http://c' }, sampler: 'all' }))).toThrow();
  });
});
