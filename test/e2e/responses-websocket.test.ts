/**
 * The Responses API over WebSocket (`GET /v1/responses` with an Upgrade), the openai SDK's own
 * WebSocket mode (`ResponsesWS`, on the `ws` package) as the caller, on Node and workerd, to every
 * upstream dialect: tool turns chained by `previous_response_id` with `store: false` (resolved from
 * the socket), Codex's warm-up (`generate: false`, no model call), an error event that leaves the
 * socket open, the caller's close cancelling the upstream call, an oversized message, a wrong key
 * refused at the upgrade, and the maximum connection age.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts';
import { INBOUND_KEY, TARGETS, responsesE2eConfig, useHarness, type Harness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { UPSTREAMS, sentTo, weatherTool, type UpstreamCase } from './responses-helpers.ts';

type Event = OpenAI.Responses.ResponsesServerEvent & Record<string, any>;

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);
const MAX_BYTES = 256 * 1024;

/** A socket on the proxy, and every event it got, with what turned it off. */
function open(h: Harness, apiKey = INBOUND_KEY, headers: Record<string, string> = {}) {
  const client = new OpenAI({ apiKey, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  const ws = new ResponsesWS(client, { headers });
  const events: Event[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason })));
  ws.on('event', (e) => events.push(e as Event));
  ws.on('error', () => {}); // error events are read from `events`
  /** One turn: the events from this send to its terminal event. */
  const turn = (body: Record<string, unknown>): Promise<Event[]> =>
    new Promise((resolve, reject) => {
      const from = events.length;
      const onEvent = (e: Event) => {
        if (!TERMINAL.has(e.type)) return;
        ws.off('event', onEvent);
        resolve(events.slice(from));
      };
      ws.on('event', onEvent);
      void closed.then((c) => reject(new Error(`closed ${c.code} ${c.reason}`)));
      ws.send({ type: 'response.create', ...body } as OpenAI.Responses.ResponsesClientEvent);
    });
  return { ws, events, closed, turn };
}

const sockets: Array<{ ws: ResponsesWS }> = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.ws.close();
});
const track = <T extends { ws: ResponsesWS }>(s: T): T => (sockets.push(s), s);

/** An upgrade by hand: the status and body a refused one answers. */
function rawUpgrade(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/v1/responses`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
  });
}

describe.each(TARGETS)('%s: openai SDK WebSocket mode → Interlingua', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, (mock) => ({ ...responsesE2eConfig(mock), limits: { maxBodyBytes: MAX_BYTES } }));

  describe.each(UPSTREAMS)('to $name', (u: UpstreamCase) => {
    it('two tool turns, the second by previous_response_id with store:false, resolved from the socket', async () => {
      const s = track(open(h));
      h.mock.reply(u.toolCall('get_weather', { location: 'Paris' }, 'call_ws1', true));
      const first = await s.turn({ model: u.model, input: 'Weather in Paris?', tools: [weatherTool], store: false });
      expect(first.map((e) => e.sequence_number)).toEqual(first.map((_, i) => i));
      expect(first[0]!.type).toBe('response.created');
      const done = first.at(-1)!;
      expect(done.type).toBe('response.completed');
      const call = done.response.output.find((o: any) => o.type === 'function_call');
      expect(call).toMatchObject({ name: 'get_weather' });

      h.mock.requests.length = 0;
      h.mock.reply(u.text('It is sunny.', true));
      const second = await s.turn({
        model: u.model,
        store: false,
        tools: [weatherTool],
        previous_response_id: done.response.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp":21}' }],
      });
      const text = second.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
      expect(text).toBe('It is sunny.');
      const sent = sentTo(h.mock.requests, u);
      // The whole history reached the upstream, whatever its dialect: the first question and the call's result.
      expect(sent.body).toContain('Weather in Paris?');
      expect(u.toolResultSent(sent.json, call.call_id)).toContain('21');
      if (u.name === 'responses') expect(sent.json.previous_response_id).toBeUndefined();
      expect(h.proxy.logs.some((l) => l.includes('"route":"responses"'))).toBe(true);
    });
  });

  it('a warm-up (generate:false) calls no model, and the next turn continues from its input', async () => {
    const s = track(open(h));
    const warm = await s.turn({ model: 'to-anthropic', instructions: 'Be brief.', input: 'Remember the word teal.', store: false, generate: false });
    expect(warm.map((e) => e.type)).toEqual(['response.created', 'response.completed']);
    expect(warm[1]!.response).toMatchObject({ status: 'completed', output: [], model: 'to-anthropic' });
    expect(h.mock.requests).toHaveLength(0);

    h.mock.reply(UPSTREAMS[1]!.text('Teal.', true));
    const next = await s.turn({ model: 'to-anthropic', store: false, previous_response_id: warm[1]!.response.id, input: 'Which word?' });
    expect(next.at(-1)!.type).toBe('response.completed');
    const sent = h.mock.requests[0]!.json;
    expect(JSON.stringify(sent.messages)).toContain('Remember the word teal.');
    expect(JSON.stringify(sent.messages)).toContain('Which word?');
  });

  it('a failed turn is an error event with its status; the socket stays open for the next turn', async () => {
    const s = track(open(h));
    h.mock.reply(UPSTREAMS[0]!.rateLimited());
    const failed = await s.turn({ model: 'to-openai', input: 'hi' });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: 'error', status: 429, error: { code: 'rate_limit_exceeded' } });

    const unknown = await s.turn({ model: 'to-openai', input: 'hi', store: false, previous_response_id: 'resp_nowhere' });
    expect(unknown[0]).toMatchObject({ type: 'error', status: 400, error: { param: 'previous_response_id' } });

    h.mock.reply(UPSTREAMS[0]!.text('Back.', true));
    const ok = await s.turn({ model: 'to-openai', input: 'again' });
    expect(ok.at(-1)!.type).toBe('response.completed');
  });

  it("the caller's close cancels the upstream call", async () => {
    const s = open(h);
    h.mock.reply({ hang: true });
    s.ws.send({ type: 'response.create', model: 'to-gemini', input: 'take your time' } as OpenAI.Responses.ResponsesClientEvent);
    await expect.poll(() => h.mock.requests.length, { timeout: 10_000 }).toBe(1);
    s.ws.close();
    await h.mock.requests[0]!.closed;
  });

  it('a message over the size limit closes the socket with 1009', async () => {
    const s = open(h);
    s.ws.send({ type: 'response.create', model: 'to-openai', input: 'x'.repeat(MAX_BYTES + 10) } as OpenAI.Responses.ResponsesClientEvent);
    const c = await s.closed;
    expect(c.code).toBe(1009);
    expect(h.mock.requests).toHaveLength(0);
  });

  it('a wrong key is refused at the upgrade, in the Responses error shape', async () => {
    const bad = await rawUpgrade(h.proxy.url, { authorization: 'Bearer il-wrong' });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'invalid_api_key' } });
    const good = await rawUpgrade(h.proxy.url, { authorization: `Bearer ${INBOUND_KEY}` });
    expect(good.status).toBe(101);
  });
});

describe.each(TARGETS)('%s: the maximum connection age', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, (mock) => ({ ...responsesE2eConfig(mock), limits: { socketMaxAgeSeconds: 1 } }));

  it('closes with websocket_connection_limit_reached', async () => {
    const s = open(h);
    const c = await s.closed;
    expect(c).toMatchObject({ code: 1000, reason: 'websocket_connection_limit_reached' });
    expect(s.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'websocket_connection_limit_reached' } });
  });
});

describe.each(TARGETS)('%s: a key’s limits on the socket', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, (mock) => ({ ...responsesE2eConfig(mock), keys: [{ key: INBOUND_KEY, name: 'one-a-minute', limits: { requestsPerMinute: 1 } }] }));

  it('count each turn: the second in a minute is a 429 error event, the socket stays open', async () => {
    const s = track(open(h));
    h.mock.reply(UPSTREAMS[0]!.text('First.', true));
    const first = await s.turn({ model: 'to-openai', input: 'one' });
    expect(first.at(-1)!.type).toBe('response.completed');
    const second = await s.turn({ model: 'to-openai', input: 'two' });
    expect(second).toEqual([expect.objectContaining({ type: 'error', status: 429 })]);
    expect(second[0]!.headers?.['retry-after']).toMatch(/^\d+$/);
    expect(h.mock.requests).toHaveLength(1);
    // A warm-up calls no model and spends nothing.
    const warm = await s.turn({ model: 'to-openai', input: 'three', generate: false });
    expect(warm.at(-1)!.type).toBe('response.completed');
  });
});

describe.each(TARGETS)('%s: traces of the socket', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  let otlp: OtlpReceiver;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
  });
  afterAll(() => otlp?.close());
  const h = useHarness(target, (mock) => ({ ...responsesE2eConfig(mock), telemetry: { otlp: { endpoint: otlp.url, intervalMs: 20 } } }));

  it("continue the upgrade's trace: a server span per turn, a client span per upstream call", async () => {
    const traceId = randomBytes(16).toString('hex');
    const s = track(open(h, INBOUND_KEY, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` }));
    for (const text of ['One.', 'Two.']) {
      h.mock.reply(UPSTREAMS[1]!.text(text, true));
      expect((await s.turn({ model: 'to-anthropic', input: text, store: false })).at(-1)!.type).toBe('response.completed');
    }
    const spans = await otlp.waitFor((x) => x.traceId === traceId, 5);
    // The upgrade's own span, and each turn's.
    expect(spans.filter((x) => x.kind === 2)).toHaveLength(3);
    expect(spans.filter((x) => x.kind === 3)).toHaveLength(2);
  });
});
