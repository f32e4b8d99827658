/**
 * What the one stream pipeline guarantees, on every caller × upstream pair (same-dialect
 * passthrough included) and on merged `n > 1` fan-out, on both runtimes: a stream either ends the
 * way its dialect ends a complete answer, because the upstream completed, or ends with the caller
 * dialect's error event and then closes. A non-SSE answer is a 502 before the stream starts.
 */
import { describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures.ts';
import { splitSse, type MockReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, useHarness } from '../support/proxy.ts';
import { CALLERS, call, errorMessage, sseData, streamClosedCleanly, streamEndedWithError, type CallerDialect } from './callers.ts';

type Upstream = 'openai' | 'anthropic' | 'gemini';
const UPSTREAMS: Upstream[] = ['openai', 'anthropic', 'gemini'];
const folder: Record<Upstream, string> = { openai: 'openai-chat', anthropic: 'anthropic', gemini: 'gemini' };
const dialectOf: Record<Upstream, CallerDialect> = { openai: 'openai-chat', anthropic: 'anthropic', gemini: 'gemini' };

const MAX_FRAME = 4096;
const IDLE_MS = 400;
const TOTAL_MS = 1500;

function config(mockUrl: string) {
  const cfg = e2eConfig(mockUrl, { limits: { maxSseBufferBytes: MAX_FRAME } });
  for (const u of Object.values(cfg.upstreams)) Object.assign(u, { timeouts: { idleMs: IDLE_MS, totalMs: TOTAL_MS } });
  return cfg;
}

/** A well-formed stream of each upstream dialect (several frames, text, a clean stop). */
const fixture: Record<Upstream, string> = { openai: 'stream-text-basic.sse', anthropic: 'stream-text-basic.sse', gemini: 'stream-gemini3-text-thought-signature.sse' };
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
  }
}

/** The upstream's own in-stream error, as each dialect (or an OpenAI-compatible host) sends it. */
const errorFrame: Record<Upstream, string> = {
  openai: 'data: {"object":"error","message":"the engine broke","type":"InternalServerError","param":null,"code":500}\n\n',
  anthropic: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"the engine broke"}}\n\n',
  gemini: 'data: {"error":{"code":503,"message":"the engine broke","status":"UNAVAILABLE"}}\n\n',
};

interface Fault {
  name: string;
  reply: (u: Upstream) => MockReply;
  /** What the caller's error says. */
  message?: RegExp;
}

const FAULTS: Fault[] = [
  { name: 'a frame cut in half by a broken connection', reply: (u) => sse([...frames(u).slice(0, 2), frames(u)[2]!.slice(0, 12)], { destroy: true }) },
  { name: 'a frame that is not JSON', reply: (u) => sse([frames(u)[0]!, 'data: {"choices": [ not json\n\n', ...frames(u).slice(1)]) },
  { name: 'an upstream that stops before its terminator', reply: (u) => sse(frames(u).filter((f) => !isTerminator(u, f))), message: /before it was complete|ended before|incomplete/i },
  { name: 'a frame over limits.maxSseBufferBytes', reply: (u) => sse([frames(u)[0]!, `data: {"pad":"${'x'.repeat(MAX_FRAME * 2)}"}\n\n`, ...frames(u).slice(1)]), message: /too large/i },
  { name: 'an upstream that goes idle', reply: (u) => sse(frames(u), { delayMs: IDLE_MS * 2 }), message: /idle/i },
  {
    name: 'a stream that outlives timeouts.totalMs',
    reply: (u) => sse([...frames(u).slice(0, 1), ...Array.from({ length: 12 }, () => ': keep-alive\n\n'), ...frames(u).slice(1)], { delayMs: 250 }),
    message: /totalMs/,
  },
  { name: 'an in-stream error object', reply: (u) => sse([frames(u)[0]!, errorFrame[u], ...frames(u).slice(1)]), message: /engine broke/ },
  { name: 'an event stream with no events', reply: () => sse(['{"hello":"world"}']) },
];

for (const target of TARGETS) {
  describe(`${target}: stream guarantees`, () => {
    const h = useHarness(target, config);

    describe.each(CALLERS)('%s caller', (caller) => {
      describe.each(UPSTREAMS)('→ %s upstream', (up) => {
        const same = dialectOf[up] === caller;

        it(same ? 'a well-formed stream is forwarded byte for byte' : 'a well-formed stream ends properly', async () => {
          h.mock.reply(sse(frames(up)));
          const r = await call(caller, h.proxy.url, `to-${up}`, true);
          expect(r.status).toBe(200);
          expect(streamClosedCleanly(caller, r.text)).toBe(true);
          if (same) {
            const upstream = fixtureText(folder[up], fixture[up]);
            // (A last frame the upstream left without its blank line is completed.)
            expect(r.text).toBe(/\r?\n\r?\n$/.test(upstream) ? upstream : `${upstream}\n\n`);
          }
        });

        it.each([
          ['an HTML page', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Bad gateway</body></html>' }],
          ['a JSON body', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' }],
        ] as Array<[string, MockReply]>)('%s instead of an event stream → 502 before the stream starts', async (_n, reply) => {
          h.mock.reply(reply);
          const r = await call(caller, h.proxy.url, `to-${up}`, true);
          expect(r.status).toBe(502);
          expect(errorMessage(caller, r.json)).toMatch(/instead of an event stream/);
        });

        it.each(FAULTS)('$name → the caller dialect’s error event, then a close', async (fault) => {
          h.mock.reply(fault.reply(up));
          const r = await call(caller, h.proxy.url, `to-${up}`, true);
          expect(r.status).toBe(200);
          expect(streamEndedWithError(caller, r.text), r.text.slice(-600)).toBe(true);
          expect(streamClosedCleanly(caller, r.text)).toBe(false);
          if (fault.message) expect(r.text).toMatch(fault.message);
        });
      });
    });

    describe('n > 1 fan-out (openai caller → anthropic upstream, two streams merged)', () => {
      const fanOut = async () => {
        const res = await fetch(`${h.proxy.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'to-anthropic', n: 2, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
        });
        return { status: res.status, text: await res.text() };
      };

      it('two complete streams → both choices, one close', async () => {
        h.mock.reply(sse(frames('anthropic')));
        const r = await fanOut();
        expect(streamClosedCleanly('openai-chat', r.text)).toBe(true);
        const choices = new Set(sseData(r.text).flatMap((e) => (e.data === '[DONE]' ? [] : JSON.parse(e.data).choices.map((c: { index: number }) => c.index))));
        expect([...choices].sort()).toEqual([0, 1]);
      });

      it.each(FAULTS)('$name in one of the two → an error event, then a close', async (fault) => {
        h.mock.reply((_req, n) => (n % 2 === 0 ? fault.reply('anthropic') : sse(frames('anthropic'))));
        const r = await fanOut();
        expect(r.status).toBe(200);
        expect(streamEndedWithError('openai-chat', r.text), r.text.slice(-600)).toBe(true);
        if (fault.message) expect(r.text).toMatch(fault.message);
      });
    });
  });
}
