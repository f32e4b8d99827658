/**
 * One suite, run unchanged against every chat dialect: request round trips through canonical,
 * stream decoding independent of byte boundaries, every encoder closing its stream properly after
 * any prefix of events, and error envelopes that decode back to the same kind.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type ErrorKind, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { createSseChunkParser } from '../../src/sse/parse.ts';
import { chatDialects } from '../../translators/index.ts';
import type { CallerInput, ChatDialect, ConformanceExceptions, UpstreamHttpRequest, UpstreamTarget } from '../../translators/types.ts';
import { fixtureText, testContext } from '../support/fixtures.ts';
import { canonicalRequests, essence } from './requests.ts';

function target(d: ChatDialect, model: string): UpstreamTarget {
  return { name: 'up', model, apiKey: 'sk-test', options: {} };
}

/** What a caller of dialect `d` would have sent, rebuilt from the upstream request we encoded. */
function asCallerInput(req: UpstreamHttpRequest): CallerInput {
  const url = new URL(req.path, 'https://up.example');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
  const query: Record<string, string> = {};
  url.searchParams.forEach((v, k) => (query[k] = v));
  const m = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
  return { body: JSON.parse(req.body as string), headers, query, params: m ? { model: m[1]!, method: m[2]! } : {} };
}

/** Does this frame sequence end the stream properly in the dialect? */
const closed: Record<string, (frames: StreamFrame[]) => boolean> = {
  'openai-chat': (f) => f.at(-1)?.data === '[DONE]',
  anthropic: (f) => f.at(-1)?.event === 'message_stop' || f.at(-1)?.event === 'error',
  gemini: (f) => {
    const last = JSON.parse(f.at(-1)?.data ?? 'null');
    return !!last && (last.error !== undefined || !!last.candidates?.some((c: { finishReason?: string }) => c.finishReason) || !!last.promptFeedback?.blockReason);
  },
  'openai-responses': (f) => ['response.completed', 'response.incomplete', 'response.failed'].includes(f.at(-1)?.event ?? ''),
  // `done` follows `interaction.completed`, or an `error` event.
  'gemini-interactions': (f) => f.at(-1)?.event === 'done' && ['interaction.completed', 'error'].includes(f.at(-2)?.event ?? ''),
};

function sseFixtures(d: ChatDialect): string[] {
  const dir = fileURLToPath(new URL(`../../translators/${d.id}/__fixtures__/`, import.meta.url));
  return readdirSync(dir).filter((f) => f.endsWith('.sse'));
}

function decodeBytes(d: ChatDialect, bytes: Uint8Array, cuts: number[], req: ChatRequest): StreamEvent[] {
  const parser = createSseChunkParser(1 << 22);
  const decoder = d.createStreamDecoder(req, testContext());
  const out: StreamEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    for (const e of parser.push(bytes.subarray(at, cut))) out.push(...decoder.push(e));
    at = cut;
  }
  for (const e of parser.finish()) out.push(...decoder.push(e));
  out.push(...decoder.finish());
  return out;
}

const streamReq: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, streamUsage: true };

/**
 * Each dialect's exceptions to this suite, with their reasons, beside it
 * (translators/<dialect>/conformance-exceptions.ts; every chat dialect has one).
 */
const exceptionsOf = new Map<string, ConformanceExceptions>(
  await Promise.all(chatDialects.map(async (d) => [d.id, ((await import(`../../translators/${d.id}/conformance-exceptions.ts`)) as { conformanceExceptions: ConformanceExceptions }).conformanceExceptions] as const)),
);

describe.each(chatDialects.map((d) => [d.id, d] as const))('conformance: %s', (_id, d) => {
  describe('request round trip through canonical', () => {
    it.each(canonicalRequests.map((r) => [r.name, r.req] as const))('%s', (_name, req) => {
      const ctx = testContext();
      const { value: encoded, warnings } = d.encodeRequest(req, target(d, req.model), ctx);
      expect(encoded.path).not.toContain('sk-test');
      const decoded = d.decodeRequest(asCallerInput(encoded), ctx).value;
      const expected: Record<string, unknown> = essence(req);
      for (const { field } of exceptionsOf.get(d.id)!.cannotCarry ?? []) {
        if (expected[field] === undefined) continue;
        expect(warnings).toContainEqual(expect.objectContaining({ code: 'dropped', path: field, lossy: true }));
        expected[field] = undefined;
      }
      expect(essence(decoded)).toEqual(expected);
    });
  });

  describe('stream decoding is independent of byte boundaries', () => {
    it.each(sseFixtures(d))('%s', (name) => {
      const bytes = new TextEncoder().encode(fixtureText(d.id, name));
      const whole = decodeBytes(d, bytes, [], streamReq);
      expect(whole.length).toBeGreaterThan(0);
      // Every single cut, then a few many-way splits.
      for (let cut = 1; cut < bytes.length; cut += Math.max(1, Math.floor(bytes.length / 200))) {
        expect(decodeBytes(d, bytes, [cut], streamReq)).toEqual(whole);
      }
      for (let seed = 1; seed <= 5; seed++) {
        const cuts: number[] = [];
        for (let at = seed; at < bytes.length; at += 1 + ((at * 7919 + seed) % 23)) cuts.push(at);
        expect(decodeBytes(d, bytes, cuts, streamReq)).toEqual(whole);
      }
    });
  });

  describe('stream decoders frame their events', () => {
    it.each(sseFixtures(d))('%s', (name) => {
      const events = decodeBytes(d, new TextEncoder().encode(fixtureText(d.id, name)), [], streamReq);
      const open = new Set<string>();
      for (const e of events) {
        const choice = 'choice' in e ? (e.choice ?? 0) : 0;
        const key = (kind: string) => `${choice}:${kind}`;
        if (e.type.endsWith('-start') && e.type !== 'message-start') {
          const k = key(e.type === 'tool-call-start' ? `tool-${(e as { index: number }).index}` : e.type.slice(0, -6));
          expect(open.has(k), `${e.type} opened twice`).toBe(false);
          open.add(k);
        } else if (e.type.endsWith('-delta')) {
          const k = key(e.type === 'tool-call-delta' ? `tool-${(e as { index: number }).index}` : e.type.slice(0, -6));
          expect(open.has(k), `${e.type} outside its block`).toBe(true);
        } else if (e.type.endsWith('-end')) {
          const k = key(e.type === 'tool-call-end' ? `tool-${(e as { index: number }).index}` : e.type.slice(0, -4));
          expect(open.delete(k), `${e.type} without start`).toBe(true);
        } else if (e.type === 'finish') {
          for (const k of open) expect(k.startsWith(`${choice}:`), `block ${k} open at finish`).toBe(false);
        }
      }
    });
  });

  describe('stream decoders never end a stream cleanly before it finished', () => {
    const sseEventsOf = (name: string) => {
      const parser = createSseChunkParser(1 << 22);
      return [...parser.push(new TextEncoder().encode(fixtureText(d.id, name))), ...parser.finish()];
    };
    const endsBadly = (name: string) => /error|malformed/.test(name);

    it.each(sseFixtures(d).filter((f) => !endsBadly(f)))('%s: whole, no error; cut anywhere, a finish or an error', (name) => {
      const all = sseEventsOf(name);
      const decode = (n: number) => {
        const decoder = d.createStreamDecoder(streamReq, testContext());
        return [...all.slice(0, n).flatMap((e) => decoder.push(e)), ...decoder.finish()];
      };
      expect(decode(all.length).filter((e) => e.type === 'error')).toEqual([]);
      for (let n = 0; n < all.length; n++) {
        const events = decode(n);
        const ended = events.some((e) => e.type === 'error' || e.type === 'finish' || e.type === 'prompt-blocked');
        expect(ended, `cut after ${n} of ${all.length} events`).toBe(true);
      }
    });

    it('nothing at all is an incomplete stream', () => {
      const events = d.createStreamDecoder(streamReq, testContext()).finish();
      expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream' }) }]);
    });

    const garbage = ['{"hello":"world"}', '[]', '5', '"text"', 'null', '{"choices":"x","candidates":"x","type":5}'];
    it.each(garbage)('a frame of the wrong shape (%s) is one error event, first or later', (bad) => {
      const first = sseEventsOf(sseFixtures(d).filter((f) => !endsBadly(f))[0]!)[0]!;
      for (const before of [[], [first]]) {
        const decoder = d.createStreamDecoder(streamReq, testContext());
        const events = [...before.flatMap((e) => decoder.push(e)), ...decoder.push({ data: bad }), ...decoder.finish()];
        expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
        expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream' } });
      }
    });
  });

  describe('the stream encoder closes properly after any prefix of events', () => {
    const sources = chatDialects.flatMap((src) => sseFixtures(src).map((f) => [src, f] as const));
    it.each(sources.map(([src, f]) => [`${src.id}/${f}`, src, f] as const))('%s', (_label, src, file) => {
      const events = decodeBytes(src, new TextEncoder().encode(fixtureText(src.id, file)), [], streamReq);
      for (let n = 0; n <= events.length; n++) {
        const enc = d.createStreamEncoder(streamReq, testContext());
        const frames: StreamFrame[] = [];
        for (const e of events.slice(0, n)) frames.push(...enc.push(e));
        frames.push(...enc.finish());
        expect(frames.length, `after ${n} events`).toBeGreaterThan(0);
        expect(closed[d.id]!(frames), `not closed after ${n} of ${events.length} events`).toBe(true);
        for (const f of frames) if (f.data !== '[DONE]') expect(() => JSON.parse(f.data)).not.toThrow();
      }
    });
  });

  describe('errors', () => {
    const kinds: ErrorKind[] = ['invalid-request', 'authentication', 'permission', 'not-found', 'too-large', 'rate-limit', 'overloaded', 'upstream', 'timeout'];
    it.each(kinds)('%s encodes to an error status and decodes back to its kind', (kind) => {
      const err = new ProxyError(kind, `a ${kind} problem`, { retryAfter: kind === 'rate-limit' ? 7 : undefined });
      const enc = d.encodeError(err);
      expect(enc.status).toBeGreaterThanOrEqual(400);
      const back = d.decodeError(enc.status, JSON.stringify(enc.body), enc.headers ?? {});
      expect(back).toBeInstanceOf(ProxyError);
      expect(back.message).toContain(`a ${kind} problem`);
      const same = (k: ErrorKind) => (k === 'too-large' || k === 'timeout' || k === 'upstream' ? ['too-large', 'timeout', 'upstream', 'invalid-request'] : [k]);
      expect(same(kind)).toContain(back.kind);
      if (kind === 'rate-limit') expect(back.retryAfter).toBe(7);
    });

    it('decodes a non-JSON error body without throwing', () => {
      const e = d.decodeError(502, '<html>Bad Gateway</html>', {});
      expect(e).toBeInstanceOf(ProxyError);
      expect(e.status).toBe(502);
    });
  });
});
