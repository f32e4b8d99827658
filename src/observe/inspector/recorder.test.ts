import { describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../config/load.ts';
import type { CallerRequest } from '../../http/inbound.ts';
import { createInspector } from '../../runtime/inspector.ts';
import { RequestScope } from '../scope.ts';
import { MAX_BODY_CHARS, MAX_EVENTS, type Exchange, type Recorder } from './recorder.ts';

/** The recorder as the Node entry wires it (the one secret list, the plan from the routes). */
function recorderOf(config: Config, maxExchanges: number, onChange?: (s: { id: string; done: boolean }) => void): Recorder {
  const inspector = createInspector({ ...config, inspector: { maxExchanges, allowRemote: false } });
  inspector.close();
  if (onChange) inspector.recorder.onChange = onChange;
  return inspector.recorder;
}

const INBOUND = 'il-inbound-key-XYZ123';
const UPSTREAM = 'sk-ant-upstream-secret-ABCDEF99';
const HEADER_SECRET = 'custom-header-token-777';

const config = parseConfig({
  keys: [INBOUND],
  upstreams: { claude: { dialect: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKey: UPSTREAM, headers: { 'x-custom-auth': HEADER_SECRET } } },
  models: { 'claude-*': { upstream: 'claude' } },
});

function callerReq(headers: Record<string, string>, query: Record<string, string> = {}): CallerRequest {
  return { method: 'POST', path: '/v1/chat/completions', origin: 'http://127.0.0.1', headers, query, bytes: async () => new Uint8Array(), text: async () => '', onGone: () => {} };
}

/** One exchange through the recorder, as serve.ts and the flows would feed it. */
function record(r: Recorder, clock: { t: number }, body: unknown = { model: 'claude-x', messages: [] }) {
  const scope = new RequestScope('chat.completions', 'req_1', () => clock.t);
  const tap = r.begin(scope, callerReq({ authorization: `Bearer ${INBOUND}`, 'x-extra': `echo ${UPSTREAM}` }, { key: INBOUND }), INBOUND);
  tap.dump('caller request POST /v1/chat/completions', JSON.stringify(body));
  clock.t += 5;
  tap.dump('upstream request → claude', {
    method: 'POST',
    url: `http://127.0.0.1:9/v1/messages?token=${UPSTREAM}`,
    headers: { 'x-api-key': '***', 'x-nested': `k=${HEADER_SECRET}` },
    body: { model: 'claude-x', system: `use ${UPSTREAM}` },
  });
  clock.t += 20;
  tap.dump('upstream events', [{ event: 'message_start', data: '{"type":"message_start"}' }, { event: 'message_stop', data: `{"note":"${INBOUND}"}` }], [clock.t - 10, clock.t]);
  tap.dump('caller frames', [{ id: 'c1' }], [clock.t]);
  scope.log.caller = 'openai-chat';
  scope.log.model = 'claude-x';
  scope.log.upstream = 'claude';
  scope.warn([{ code: 'dropped', path: 'logprobs' }]);
  tap.end(scope.finishLog(200), { 'x-request-id': 'req_1', 'set-cookie': 'a=b' });
}

describe('inspector recorder', () => {
  it('keeps the last N exchanges only, newest first', () => {
    const r = recorderOf(config, 3);
    const clock = { t: 1_000 };
    for (let i = 0; i < 5; i++) record(r, clock);
    const list = r.list();
    expect(list.map((s) => s.id)).toEqual(['ex_5', 'ex_4', 'ex_3']);
    expect(r.get('ex_1')).toBeUndefined();
    expect(r.get('ex_5')?.done).toBe(true);
  });

  it('records the caller request, the plan, the attempt with timed events, what the caller got and the loss report', () => {
    const seen: string[] = [];
    const r = recorderOf(config, 10, (s) => seen.push(`${s.id}:${s.done}`));
    record(r, { t: 1_000 });
    const ex = r.get('ex_1')!;
    expect(seen).toEqual(['ex_1:false', 'ex_1:true']);
    expect(ex).toMatchObject({ callerDialect: 'openai-chat', model: 'claude-x', status: 200, upstream: { name: 'claude', dialect: 'anthropic' }, warnings: ['dropped:logprobs'] });
    expect(ex.plan).toEqual([{ upstream: 'claude', provider: undefined, dialect: 'anthropic', model: 'claude-x', baseUrl: 'http://127.0.0.1:9' }]);
    expect(ex.caller.body).toEqual({ model: 'claude-x', messages: [] });
    expect(ex.attempts).toHaveLength(1);
    expect(ex.attempts[0]!.at).toBe(5);
    expect(ex.attempts[0]!.events!.map((e) => [e.at, e.event])).toEqual([[15, 'message_start'], [25, 'message_stop']]);
    expect(ex.received.events).toEqual([{ at: 25, data: { id: 'c1' } }]);
    expect(ex.totalMs).toBe(25);
  });

  it('leaves no configured or caller secret in any field: headers, nested values, URLs, events', () => {
    const r = recorderOf(config, 10);
    record(r, { t: 1_000 });
    const ex: Exchange = r.get('ex_1')!;
    const text = JSON.stringify(ex);
    for (const secret of [INBOUND, UPSTREAM, HEADER_SECRET]) expect(text).not.toContain(secret);
    expect(ex.caller.headers.authorization).toBe('***');
    expect(ex.caller.query.key).toBe('***');
    expect(ex.received.headers['set-cookie']).toBe('***');
    expect(ex.attempts[0]!.url).toContain('token=***');
    // The redaction keeps the rest readable.
    expect(ex.attempts[0]!.headers!['x-nested']).toBe('k=***');
  });

  it('a caller credential that is not configured (forwarded to the upstream) is scrubbed too', () => {
    const open = parseConfig({ upstreams: { o: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } }, models: { '*': { upstream: 'o' } } });
    const r = recorderOf(open, 2);
    const scope = new RequestScope('chat.completions', 'req_2', () => 0);
    const own = 'caller-own-openai-key-5555';
    const tap = r.begin(scope, callerReq({ authorization: `Bearer ${own}` }), own);
    tap.dump('upstream request → o', { method: 'POST', url: 'http://127.0.0.1:9/v1/chat/completions', headers: { authorization: '***' }, body: `{"echo":"${own}"}` });
    tap.dump('upstream error ← o (401)', `{"error":{"message":"bad key ${own}"}}`);
    tap.end(scope.finishLog(401, 'authentication: bad key'), {});
    const ex = r.get('ex_1')!;
    expect(JSON.stringify(ex)).not.toContain(own);
    expect(ex.attempts[0]!.status).toBe(401);
    expect(ex.attempts[0]!.response).toEqual({ error: { message: 'bad key ***' } });
  });

  it('elides large base64 with its size and caps bodies', () => {
    const r = recorderOf(config, 2);
    const b64 = 'A'.repeat(10_000);
    record(r, { t: 0 }, { model: 'claude-x', image: `data:image/png;base64,${b64}`, big: 'x '.repeat(MAX_BODY_CHARS) });
    const body = r.get('ex_1')!.caller.body as { truncated: boolean; chars: number; text: string };
    expect(body.truncated).toBe(true);
    expect(body.chars).toBeGreaterThan(MAX_BODY_CHARS);
    expect(body.text.length).toBe(MAX_BODY_CHARS);
    expect(body.text).toContain('<base64, 10022 chars elided>');
    expect(body.text).not.toContain(b64);
  });

  it('keeps at most MAX_EVENTS stream events per list, saying how many more there were', () => {
    const r = recorderOf(config, 2);
    const scope = new RequestScope('messages', 'req_3', () => 0);
    const tap = r.begin(scope, callerReq({}), undefined);
    tap.dump('upstream request → claude', { method: 'POST', url: 'http://127.0.0.1:9/v1/messages', headers: {}, body: '{}' });
    const n = MAX_EVENTS + 7;
    tap.dump('upstream events', Array.from({ length: n }, (_, i) => ({ event: 'content_block_delta', data: { i } })), Array.from({ length: n }, (_, i) => i));
    tap.dump('caller frames (added to the forwarded stream)', [], []);
    tap.end(scope.finishLog(200), {});
    const ex = r.get('ex_1')!;
    const events = ex.attempts[0]!.events!;
    expect(events).toHaveLength(MAX_EVENTS + 1);
    expect(events[MAX_EVENTS]).toEqual({ at: n - 1, event: 'not kept', data: '7 more events' });
    expect(ex.received.passthrough).toBe(true);
  });

  it('never fails a request: a stage it cannot read is left out', () => {
    const r = recorderOf(config, 2);
    const scope = new RequestScope('messages', 'req_4', () => 0);
    const tap = r.begin(scope, callerReq({}), undefined);
    expect(() => tap.dump('upstream request → claude', null)).not.toThrow();
    tap.dump('caller response (200)', '{"ok":true}');
    expect(() => tap.end(scope.finishLog(200), {})).not.toThrow();
    expect(r.get('ex_1')).toMatchObject({ done: true, attempts: [], received: { body: { ok: true } } });
  });

  it('a request refused before routing keeps the model it named: its body\'s, else its Gemini path\'s', () => {
    const r = recorderOf(config, 4);
    const refuse = (req: CallerRequest, body?: string) => {
      const scope = new RequestScope('chat.completions', 'req_5', () => 0);
      const tap = r.begin(scope, req, undefined);
      if (body !== undefined) tap.dump(`caller request ${req.method} ${req.path}`, body);
      tap.end(scope.finishLog(400, 'invalid-request'), {});
    };
    refuse(callerReq({}), JSON.stringify({ model: 'claude-x', messages: 'no' }));
    refuse({ ...callerReq({}), path: '/v1beta/models/gemini-2.5-flash:generateContent' });
    refuse(callerReq({}));
    refuse(callerReq({}), '{"model": ');
    expect(r.list().map((s) => [s.callerDialect, s.model])).toEqual([
      ['none', undefined],
      ['none', undefined],
      ['none', 'gemini-2.5-flash'],
      ['none', 'claude-x'],
    ]);
    // Nothing planned for what was never routed.
    expect(r.get('ex_1')!.plan).toEqual([]);
  });
});
