import { describe, expect, it } from 'vitest';
import type { Reply } from '../flows/reply.ts';
import { PipeBody } from '../sse/byte-step.ts';
import type { CallerRequest } from './inbound.ts';
import { openResponsesSocket, type SocketOptions } from './responses-socket.ts';
import { socketError, warmupEvents } from './responses-socket-events.ts';

const upgrade: CallerRequest = {
  method: 'GET',
  path: '/v1/responses',
  origin: 'http://127.0.0.1',
  headers: { authorization: 'Bearer k', upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'x', 'x-request-id': 'same', session_id: 's1', 'openai-beta': 'responses_websockets=2026-02-06, assistants=v2' },
  query: {},
  bytes: async () => new Uint8Array(),
  text: async () => '',
  onGone: () => {},
};

/** A completed answer as SSE, as the route table would stream it. */
function sseReply(id: string, output: unknown[]): Reply {
  const events = [
    { type: 'response.created', sequence_number: 0, response: { id, output: [] } },
    { type: 'response.completed', sequence_number: 1, response: { id, output } },
  ];
  const text = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  // A stream body as the session reads it (PipeBody.toStream), without an upstream behind it.
  const body = Object.assign(Object.create(PipeBody.prototype) as PipeBody, { toStream: () => new Response(text).body! });
  return { status: 200, headers: {}, body };
}

function harness(replies: Array<Reply | (() => Promise<Reply>)>, o: Partial<SocketOptions> = {}) {
  const sent: any[] = [];
  const closes: Array<[number, string]> = [];
  const turns: Array<{ req: CallerRequest; body: any }> = [];
  const session = openResponsesSocket(
    {
      dispatch: async (req) => {
        turns.push({ req, body: JSON.parse(await req.text(1 << 20)) });
        const r = replies.shift()!;
        return typeof r === 'function' ? r() : r;
      },
      warmup: async (req) => ({ status: 200, headers: {}, body: JSON.stringify(warmupEvents(JSON.parse(await req.text(1 << 20)), 'resp_warm', 0)) }),
      upgrade,
      socketId: 'req_socket',
      maxMessageBytes: 1000,
      maxSseBufferBytes: 1 << 20,
      maxAgeMs: 60_000,
      ...o,
    },
    { send: (t) => sent.push(JSON.parse(t)), close: (code, reason) => closes.push([code, reason]) },
  );
  /** Until `n` messages were sent (the turns run in the background). */
  const sentCount = (n: number) => expect.poll(() => sent.length, { timeout: 10_000 }).toBe(n);
  return { session, sent, closes, turns, sentCount };
}

const create = (body: Record<string, unknown>) => JSON.stringify({ type: 'response.create', ...body });

describe('openResponsesSocket', () => {
  it('serves each message as a streamed POST with the upgrade’s headers, and resolves its own last answer', async () => {
    const out = [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] }];
    const h = harness([sseReply('resp_1', out), sseReply('resp_2', [])]);
    h.session.message(create({ model: 'm', input: 'first', store: false }));
    h.session.message(create({ model: 'm', previous_response_id: 'resp_1', input: [{ type: 'message', role: 'user', content: 'second' }] }));
    await h.sentCount(4);
    expect(h.turns).toHaveLength(2);
    const [one, two] = h.turns;
    expect(one!.req).toMatchObject({ method: 'POST', path: '/v1/responses', socket: 'req_socket' });
    expect(one!.req.headers).toMatchObject({ authorization: 'Bearer k', session_id: 's1', 'content-type': 'application/json', 'openai-beta': 'assistants=v2' });
    expect(one!.req.headers).not.toHaveProperty('upgrade');
    expect(one!.req.headers).not.toHaveProperty('x-request-id');
    expect(one!.body).toEqual({ model: 'm', input: 'first', store: false, stream: true });
    expect(two!.body.previous_response_id).toBeUndefined();
    expect(two!.body.input).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first' }] }, ...out, { type: 'message', role: 'user', content: 'second' }]);
    expect(h.sent.map((e) => e.type)).toEqual(['response.created', 'response.completed', 'response.created', 'response.completed']);
  });

  it('leaves an id it did not answer to the route (the store or a Responses upstream)', async () => {
    const h = harness([sseReply('resp_9', [])]);
    h.session.message(create({ model: 'm', previous_response_id: 'resp_elsewhere', input: 'x' }));
    await h.sentCount(2);
    expect(h.turns[0]!.body.previous_response_id).toBe('resp_elsewhere');
  });

  it('answers a warm-up without a call, and keeps its input for the next turn', async () => {
    const h = harness([sseReply('resp_2', [])]);
    h.session.message(create({ model: 'm', input: 'warm', generate: false }));
    await h.sentCount(2);
    expect(h.turns).toHaveLength(0);
    expect(h.sent.map((e) => e.type)).toEqual(['response.created', 'response.completed']);
    expect(h.sent[1].response).toMatchObject({ id: 'resp_warm', status: 'completed', output: [], model: 'm' });
    h.session.message(create({ model: 'm', previous_response_id: 'resp_warm', input: 'go' }));
    await h.sentCount(4);
    expect(h.turns[0]!.body.input.map((i: any) => i.content[0].text)).toEqual(['warm', 'go']);
  });

  it('says what is wrong with a message as an error event and stays open', async () => {
    const failing: Reply = { status: 429, headers: { 'retry-after': '7' }, body: JSON.stringify({ error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } }) };
    const h = harness([failing]);
    h.session.message('not json');
    h.session.message(JSON.stringify({ type: 'session.update' }));
    h.session.message(create({ model: 'm', background: true }));
    h.session.message(create({ model: 'm', input: 'x' }));
    h.session.message(JSON.stringify({ type: 'response.processed', response_id: 'r' }));
    await h.sentCount(4);
    expect(h.sent.map((e) => [e.status, e.error.code])).toEqual([
      [400, 'invalid_json'],
      [400, 'unknown_event_type'],
      [400, 'unsupported_parameter'],
      [429, 'rate_limit_exceeded'],
    ]);
    expect(h.sent[3]).toMatchObject({ type: 'error', code: 'rate_limit_exceeded', message: 'slow down', headers: { 'retry-after': '7' } });
    expect(h.closes).toEqual([]);
  });

  it('closes with 1009 on a message over the limit, and calls the turn’s gone handlers when the caller leaves', async () => {
    const h = harness([]);
    h.session.message(create({ model: 'm', input: 'x'.repeat(2000) }));
    expect(h.closes).toEqual([[1009, 'message exceeds 1000 bytes']]);

    let goneCalls = 0;
    const g = harness([
      async () => {
        g.turns[0]!.req.onGone(() => goneCalls++);
        return new Promise<Reply>(() => {});
      },
    ]);
    g.session.message(create({ model: 'm', input: 'x' }));
    await expect.poll(() => g.turns.length, { timeout: 10_000 }).toBe(1);
    g.session.closed();
    expect(goneCalls).toBe(1);
  });

  it('closes after the maximum age with websocket_connection_limit_reached', async () => {
    const h = harness([], { maxAgeMs: 5 });
    await h.sentCount(1);
    expect(h.sent).toEqual([JSON.parse(socketError(400, { code: 'websocket_connection_limit_reached', message: h.sent[0].message }))]);
    expect(h.closes).toEqual([[1000, 'websocket_connection_limit_reached']]);
  });
});
