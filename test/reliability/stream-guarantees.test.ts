/**
 * What the one stream pipeline guarantees, on every caller × upstream pair of the four chat
 * dialects (same-dialect passthrough included) and on `n > 1` (an openai-chat caller with n=2 and a
 * Gemini caller with candidateCount=2, to each upstream: merged fan-out where the upstream returns
 * one choice per call): a stream either ends the way its dialect ends a complete answer, because the
 * upstream completed, or ends with the caller dialect's own error event and then closes. A non-SSE
 * answer is a 502 before the stream starts. A Responses caller always gets one response: one id,
 * strictly increasing sequence numbers, exactly one terminal event, last.
 *
 * Runtime: the whole matrix runs on Node; on workerd (same pipeline, another driver and another
 * runtime's streams) a representative subset runs — every caller against its own dialect and
 * against one foreign upstream, and fan-out against the Anthropic and Responses upstreams — since
 * the deadline cases take a second each.
 */
import { describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures.ts';
import { splitSse, type MockReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, useHarness, type TargetKind } from '../support/proxy.ts';
import { ALL_CALLERS, call, errorMessage, sseData, streamClosedCleanly, type CallerDialect } from './callers.ts';

type Upstream = 'openai' | 'anthropic' | 'gemini' | 'responses';
const UPSTREAMS: Upstream[] = ['openai', 'anthropic', 'gemini', 'responses'];
const folder: Record<Upstream, string> = { openai: 'openai-chat', anthropic: 'anthropic', gemini: 'gemini', responses: 'openai-responses' };
const dialectOf: Record<Upstream, CallerDialect> = { openai: 'openai-chat', anthropic: 'anthropic', gemini: 'gemini', responses: 'openai-responses' };
/** Upstreams that answer one choice per call: `n > 1` toward them is merged fan-out. */
const FANS_OUT = new Set<Upstream>(['anthropic', 'responses']);

const MAX_FRAME = 4096;
const IDLE_MS = 400;
const TOTAL_MS = 1200;

function config(mockUrl: string) {
  const cfg = e2eConfig(mockUrl, { limits: { maxSseBufferBytes: MAX_FRAME } });
  const upstreams: Record<string, object> = {
    ...cfg.upstreams,
    responses: { dialect: 'openai-responses', baseUrl: `${mockUrl}/v1`, apiKey: 'sk-upstream-responses', retry: { attempts: 1 } },
  };
  for (const u of Object.values(upstreams)) Object.assign(u, { timeouts: { idleMs: IDLE_MS, totalMs: TOTAL_MS } });
  return { ...cfg, upstreams, models: { ...cfg.models, 'to-responses': { upstream: 'responses', model: 'gpt-5.1' } } };
}

/** A well-formed stream of each upstream dialect (several frames, text, a clean stop). */
const fixture: Record<Upstream, string> = {
  openai: 'stream-text-basic.sse',
  anthropic: 'stream-text-basic.sse',
  gemini: 'stream-gemini3-text-thought-signature.sse',
  responses: 'stream-text-after-tool-results.sse',
};
const frames = (u: Upstream) => splitSse(fixtureText(folder[u], fixture[u]));
const sse = (chunks: string[], extra: Partial<MockReply> = {}): MockReply => ({ headers: { 'content-type': 'text/event-stream' }, chunks, ...extra });

/** Is this frame one that ends the upstream's answer (its terminator)? */
function isTerminator(u: Upstream, frame: string): boolean {
  switch (u) {
    case 'openai':
      return frame.includes('[DONE]') || /"finish_reason":\s*"/.test(frame) || /"choices":\s*\[\s*\]/.test(frame);
    case 'anthropic':
      return /event: (message_delta|message_stop)/.test(frame);
    case 'gemini':
      return /"finishReason"/.test(frame);
    case 'responses':
      return /event: response\.(completed|incomplete|failed)/.test(frame);
  }
}

/** The upstream's own in-stream error, as each dialect (or an OpenAI-compatible host) sends it. */
const errorFrame: Record<Upstream, string> = {
  // Older vLLM: an error object instead of a chunk.
  openai: 'data: {"object":"error","message":"the engine broke","type":"InternalServerError","param":null,"code":500}\n\n',
  anthropic: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"the engine broke"}}\n\n',
  gemini: 'data: {"error":{"code":503,"message":"the engine broke","status":"UNAVAILABLE"}}\n\n',
  responses: 'event: error\ndata: {"type":"error","sequence_number":2,"code":"server_error","message":"the engine broke","param":null}\n\n',
};

interface Fault {
  name: string;
  reply: (u: Upstream) => MockReply;
  /** What the caller's error says. */
  message?: RegExp;
  /** Only these upstreams send it. */
  only?: Upstream[];
  /**
   * The upstream's own error frame (a well-formed one): a caller of the upstream's dialect gets
   * the upstream's stream exactly as it was sent, nothing added.
   */
  upstreamError?: true;
}

const oversized = `data: {"pad":"${'x'.repeat(MAX_FRAME * 2)}"}\n\n`;

const FAULTS: Fault[] = [
  // The upstream was reached: its stream ended early (never "unreachable"), and no address is named.
  { name: 'a frame cut in half by a broken connection', reply: (u) => sse([...frames(u).slice(0, 2), frames(u)[2]!.slice(0, 12)], { destroy: true }), message: /Upstream closed the stream early\./ },
  { name: 'a half frame, then a clean end of the body', reply: (u) => sse([...frames(u).slice(0, 2), frames(u)[2]!.slice(0, 12)]) },
  { name: 'a frame that is not JSON', reply: (u) => sse([frames(u)[0]!, 'data: {"choices": [ not json\n\n', ...frames(u).slice(1)]) },
  { name: 'an upstream that stops before its terminator', reply: (u) => sse(frames(u).filter((f) => !isTerminator(u, f))), message: /before it was complete|ended before|incomplete|no response\.completed/i },
  { name: 'a frame over limits.maxSseBufferBytes', reply: (u) => sse([frames(u)[0]!, oversized, ...frames(u).slice(1)]), message: /too large/i },
  {
    name: 'a frame over limits.maxSseBufferBytes, split across chunks',
    reply: (u) => sse([frames(u)[0]!, ...Array.from({ length: 8 }, (_, i) => oversized.slice(i * (oversized.length / 8), (i + 1) * (oversized.length / 8))), ...frames(u).slice(1)]),
    message: /too large/i,
  },
  { name: 'an upstream that goes idle', reply: (u) => sse(frames(u), { delayMs: IDLE_MS * 2 }), message: /idle/i },
  {
    name: 'a stream that outlives timeouts.totalMs',
    reply: (u) => sse([...frames(u).slice(0, 1), ...Array.from({ length: 12 }, () => ': keep-alive\n\n'), ...frames(u).slice(1)], { delayMs: 250 }),
    message: /totalMs/,
  },
  { name: 'an in-stream error object', reply: (u) => sse([frames(u)[0]!, frames(u)[1]!, errorFrame[u], ...frames(u).slice(2)]), message: /engine broke/, upstreamError: true },
  {
    name: 'a compatible host’s {"error":{…}} frame',
    reply: (u) => sse([frames(u)[0]!, 'data: {"error":{"message":"the engine broke","type":"server_error","param":null,"code":null}}\n\n', ...frames(u).slice(1)]),
    message: /engine broke/,
    only: ['openai'],
    upstreamError: true,
  },
  {
    name: 'a frame cut before its data (an event line, then the end of the body)',
    reply: (u) => sse([...frames(u).slice(0, 2), u === 'anthropic' || u === 'responses' ? frames(u)[2]!.split('\n')[0]! + '\n' : ': cut\nevent: x\n']),
  },
  {
    name: 'a frame cut before its data, then a broken connection',
    reply: (u) => sse([...frames(u).slice(0, 2), u === 'anthropic' || u === 'responses' ? frames(u)[2]!.split('\n')[0]! + '\n' : 'event: x\n'], { destroy: true }),
  },
  { name: 'an event stream with no events', reply: () => sse(['{"hello":"world"}']) },
];

const NOT_SSE: Array<[string, MockReply]> = [
  ['an HTML page', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Bad gateway</body></html>' }],
  ['a JSON body', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' }],
];

const parsed = (data: string): any => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};

/**
 * The body ends with the caller dialect's own error ending and nothing after it: Chat Completions
 * an error object then `[DONE]`; Anthropic `event: error`; Gemini a chunk with `error`; Responses
 * `error` then `response.failed`.
 */
function endsWithOwnError(caller: CallerDialect, text: string): boolean {
  const ev = sseData(text);
  const last = ev.at(-1);
  const before = ev.at(-2);
  switch (caller) {
    case 'openai-chat':
      return last?.data === '[DONE]' && typeof parsed(before?.data ?? '')?.error?.message === 'string' && ev.filter((e) => parsed(e.data)?.error).length === 1;
    case 'anthropic':
      return last?.event === 'error' && parsed(last.data)?.type === 'error' && !ev.some((e) => e.event === 'message_stop');
    case 'gemini':
      return typeof parsed(last?.data ?? '')?.error?.message === 'string' && ev.filter((e) => parsed(e.data)?.error).length === 1;
    case 'openai-responses':
      return before?.event === 'error' && last?.event === 'response.failed' && parsed(last.data)?.response?.status === 'failed';
  }
}

/** A Responses caller's stream is one response: typed frames, one id, strictly increasing numbers, one terminal event, last. */
function expectOneResponse(text: string): void {
  const ev = sseData(text).map((e) => ({ event: e.event, json: parsed(e.data) }));
  expect(ev.length).toBeGreaterThan(0);
  for (const e of ev) expect(e.json?.type, JSON.stringify(e).slice(0, 200)).toBe(e.event);
  expect(ev[0]!.event).toBe('response.created');
  const seq = ev.map((e) => e.json.sequence_number);
  for (let i = 1; i < seq.length; i++) expect(seq[i], `sequence_number after ${seq[i - 1]}: ${seq.join(',')}`).toBeGreaterThan(seq[i - 1]);
  const terminal = ev.filter((e) => /^response\.(completed|incomplete|failed)$/.test(e.event ?? ''));
  expect(terminal.map((e) => e.event)).toHaveLength(1);
  expect(ev.at(-1)).toBe(terminal[0]);
  const ids = new Set(ev.flatMap((e) => (e.json.response?.id ? [e.json.response.id] : [])));
  expect([...ids]).toHaveLength(1);
}

/** A frame with its data, or only comments (`: keep-alive`): never an `event:` line cut from its data. */
function wholeFrame(frame: string): boolean {
  const lines = frame.split(/\r?\n/).filter((l) => l !== '');
  return lines.some((l) => l.startsWith('data:')) || lines.every((l) => l.startsWith(':'));
}

/** On workerd, the pairs of the representative subset (see the header). */
function runsOn(target: TargetKind, caller: CallerDialect, up: Upstream): boolean {
  if (target === 'node') return true;
  const foreign: Record<CallerDialect, Upstream> = { 'openai-chat': 'anthropic', anthropic: 'gemini', gemini: 'responses', 'openai-responses': 'openai' };
  return dialectOf[up] === caller || foreign[caller] === up;
}

for (const target of TARGETS) {
  describe(`${target}: stream guarantees`, () => {
    const h = useHarness(target, config);

    describe.each(ALL_CALLERS)('%s caller', (caller) => {
      describe.each(UPSTREAMS.filter((u) => runsOn(target, caller, u)))('→ %s upstream', (up) => {
        const same = dialectOf[up] === caller;

        it(same ? 'a well-formed stream is forwarded byte for byte' : 'a well-formed stream ends properly', async () => {
          h.mock.reply(sse(frames(up)));
          const r = await call(caller, h.proxy.url, `to-${up}`, true);
          expect(r.status).toBe(200);
          expect(streamClosedCleanly(caller, r.text), r.text.slice(-600)).toBe(true);
          if (caller === 'openai-responses') expectOneResponse(r.text);
          if (same) {
            const upstream = fixtureText(folder[up], fixture[up]);
            // (A last frame the upstream left without its blank line is completed.)
            expect(r.text).toBe(/\r?\n\r?\n$/.test(upstream) ? upstream : `${upstream}\n\n`);
          }
        });

        it.each(NOT_SSE)('%s instead of an event stream → 502 before the stream starts', async (_n, reply) => {
          h.mock.reply(reply);
          const r = await call(caller, h.proxy.url, `to-${up}`, true);
          expect(r.status).toBe(502);
          expect(errorMessage(caller, r.json)).toMatch(/instead of an event stream/);
        });

        it.each(FAULTS.filter((f) => !f.only || f.only.includes(up)))(same ? '$name → the upstream’s whole frames, then an error event (its own as it sent it, else the dialect’s)' : '$name → the caller dialect’s error event, then a close', async (fault) => {
          const reply = fault.reply(up);
          h.mock.reply(reply);
          const r = await call(caller, h.proxy.url, `to-${up}`, true);
          expect(r.status).toBe(200);
          // Never a half frame: every frame the caller gets has its data (or is a comment).
          for (const f of splitSse(r.text)) expect(wholeFrame(f), r.text.slice(-600)).toBe(true);
          if (same && fault.upstreamError) {
            // Same dialect means untouched: the upstream's stream as it sent it, frame for frame
            // (a last frame it left without its blank line completed, as for a clean stream).
            const upstream = reply.chunks!.join('');
            expect(r.text).toBe(/\r?\n\r?\n$/.test(upstream) ? upstream : `${upstream}\n\n`);
            return;
          }
          expect(endsWithOwnError(caller, r.text), r.text.slice(-600)).toBe(true);
          expect(streamClosedCleanly(caller, r.text)).toBe(false);
          if (fault.message) expect(r.text).toMatch(fault.message);
          if (caller === 'openai-responses') expectOneResponse(r.text);
          if (same && caller === 'openai-responses' && r.text.startsWith(frames(up)[0]!)) {
            // The forwarded stream goes on: the upstream's response id, its numbering continued.
            const upstreamId = parsed(sseData(frames(up)[0]!)[0]!.data).response.id;
            const ev = sseData(r.text).map((e) => parsed(e.data));
            expect(ev.at(-1).response.id).toBe(upstreamId);
            expect(ev.map((e) => e.sequence_number)).toEqual(ev.map((_, i) => i));
            // The items the caller saw completed are the failed response's output.
            const done = ev.filter((e) => e.type === 'response.output_item.done').map((e) => e.item.id);
            expect(ev.at(-1).response.output.map((i: { id: string }) => i.id)).toEqual(done);
          }
        });
      });
    });

    describe.each([
      ['openai-chat caller, n=2', 'openai-chat'],
      ['gemini caller, candidateCount=2', 'gemini'],
    ] as const)('%s', (_label, caller) => {
      const twoChoices = async (up: Upstream) => {
        const model = `to-${up}`;
        const [url, body, headers] =
          caller === 'openai-chat'
            ? [`${h.proxy.url}/v1/chat/completions`, { model, n: 2, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, { authorization: `Bearer ${INBOUND_KEY}` }]
            : [`${h.proxy.url}/v1beta/models/${model}:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { candidateCount: 2 } }, { 'x-goog-api-key': INBOUND_KEY }];
        const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const text = await res.text();
        return { status: res.status, text, json: parsed(text) };
      };
      const choicesOf = (text: string): number[] =>
        [
          ...new Set(
            sseData(text).flatMap((e) => {
              const j = parsed(e.data);
              return (caller === 'openai-chat' ? j?.choices : j?.candidates)?.map((c: { index?: number }) => c.index ?? 0) ?? [];
            }),
          ),
        ].sort();

      describe.each(UPSTREAMS.filter((u) => target === 'node' || FANS_OUT.has(u)))('→ %s upstream', (up) => {
        it(FANS_OUT.has(up) ? 'two complete streams → both choices, one close' : 'one call for both choices, one close', async () => {
          h.mock.reply(sse(frames(up)));
          const r = await twoChoices(up);
          expect(r.status).toBe(200);
          expect(streamClosedCleanly(caller, r.text), r.text.slice(-600)).toBe(true);
          if (FANS_OUT.has(up)) {
            expect(h.mock.requests).toHaveLength(2);
            expect(choicesOf(r.text)).toEqual([0, 1]);
          } else expect(h.mock.requests).toHaveLength(1);
        });

        it.each(NOT_SSE)('%s instead of an event stream (on one call) → 502 before the stream starts', async (_n, reply) => {
          h.mock.reply((_req, n) => (n === 1 ? reply : sse(frames(up))));
          const r = await twoChoices(up);
          expect(r.status).toBe(502);
          expect(errorMessage(caller, r.json)).toMatch(/instead of an event stream/);
        });

        it.each(FAULTS.filter((f) => !f.only || f.only.includes(up)))('$name (on one call) → the caller dialect’s error event, then a close', async (fault) => {
          h.mock.reply((_req, n) => (n === 1 ? fault.reply(up) : sse(frames(up))));
          const r = await twoChoices(up);
          expect(r.status).toBe(200);
          for (const f of splitSse(r.text)) expect(wholeFrame(f), r.text.slice(-600)).toBe(true);
          // One call for both choices in the caller's own dialect: forwarded as the upstream sent it.
          if (fault.upstreamError && !FANS_OUT.has(up) && dialectOf[up] === caller) {
            expect(r.text).toMatch(fault.message!);
            return;
          }
          expect(endsWithOwnError(caller, r.text), r.text.slice(-600)).toBe(true);
          expect(streamClosedCleanly(caller, r.text)).toBe(false);
          if (fault.message) expect(r.text).toMatch(fault.message);
        });
      });
    });
  });
}
