/**
 * The Gemini stream decoder on paths the fixtures never take: several chunks in one event,
 * fallbacks for a chunk without id or model, usage sent once per change, a second candidate's
 * events, logprobs, calls without a name, streamed calls cut by other parts, and errors.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

function run(chunks: unknown[]): StreamEvent[] {
  const d = gemini.createStreamDecoder(req, testContext());
  const out: StreamEvent[] = [];
  for (const c of chunks) out.push(...d.push({ data: typeof c === 'string' ? c : JSON.stringify(c) } as SseEvent));
  out.push(...d.finish());
  return out;
}
const cand = (parts: unknown[], more: Record<string, unknown> = {}) => ({ content: { role: 'model', parts }, ...more });
const chunk = (...candidates: unknown[]) => ({ candidates, responseId: 'r', modelVersion: 'm' });
const start = { type: 'message-start', id: 'r', model: 'm', created: 1_700_000_000 };

describe('gemini stream decoder: chunks and their envelope', () => {
  it('an event holding a JSON array of chunks decodes each in turn', () => {
    expect(run([JSON.stringify([chunk(cand([{ text: 'a' }])), chunk(cand([{ text: 'b' }], { finishReason: 'STOP' }))])])).toEqual([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it('a bad chunk in an array stops the decoding there', () => {
    const events = run([JSON.stringify([chunk(cand([{ text: 'a' }])), 7, chunk(cand([{ text: 'b' }], { finishReason: 'STOP' }))])]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'error']);
  });

  it('without responseId or modelVersion: a fresh id and the requested model; later chunks start nothing', () => {
    expect(run([{ candidates: [cand([{ text: 'a' }])] }, { candidates: [cand([], { finishReason: 'STOP' })], responseId: 'late', modelVersion: 'late' }]).slice(0, 1)).toEqual([
      { type: 'message-start', id: 'gemini-test0001', model: 'caller-model', created: 1_700_000_000 },
    ]);
  });

  it('usage: sent before the finish, and again at the end only when it changed', () => {
    const u = (n: number) => ({ promptTokenCount: 2, candidatesTokenCount: n, totalTokenCount: 2 + n });
    const same = run([{ ...chunk(cand([{ text: 'a' }])), usageMetadata: u(1) }, { ...chunk(cand([], { finishReason: 'STOP' })), usageMetadata: u(1) }]);
    expect(same.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', usage: { inputTokens: 2, outputTokens: 1, totalTokens: 3 } }]);
    const later = run([{ ...chunk(cand([{ text: 'a' }], { finishReason: 'STOP' })), usageMetadata: u(1) }, { usageMetadata: u(4) }]);
    expect(later.slice(-3)).toEqual([
      { type: 'usage', usage: { inputTokens: 2, outputTokens: 1, totalTokens: 3 } },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
      { type: 'usage', usage: { inputTokens: 2, outputTokens: 4, totalTokens: 6 } },
    ]);
    // a usageMetadata with no counts is no usage
    expect(run([{ ...chunk(cand([{ text: 'a' }], { finishReason: 'STOP' })), usageMetadata: {} }]).some((e) => e.type === 'usage')).toBe(false);
  });

  it('a prompt blocked twice is reported once; candidates beside a block reason are decoded', () => {
    const blocked = { promptFeedback: { blockReason: 'SAFETY' } };
    expect(run([blocked, blocked]).map((e) => e.type)).toEqual(['message-start', 'prompt-blocked']);
    expect(run([{ ...chunk(cand([{ text: 'a' }], { finishReason: 'STOP' })), ...blocked }]).map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'finish']);
  });

  it('an error chunk Gemini did not shape as its error is a plain upstream error (500)', () => {
    const events = run([{ error: 'boom' }]);
    // (The upstream said so in its own chunk: a Gemini caller gets that chunk as it was.)
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'Gemini stream error', raw: '{"error":"boom"}' }), upstreamFrame: true }]);
  });

  it('an error without a code is a 500', () => {
    const [e] = run([{ error: { message: 'no code', status: 'INTERNAL' } }]);
    expect(e).toMatchObject({ type: 'error', error: { status: 500, message: 'no code' } });
  });

  it('a model failure names the finish message Gemini gave', () => {
    expect(run([chunk(cand([], { finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'bad call f(' }))]).at(-1)).toMatchObject({
      type: 'error',
      error: { kind: 'upstream', code: 'MALFORMED_FUNCTION_CALL', message: 'Upstream stopped with MALFORMED_FUNCTION_CALL: bad call f(' },
    });
  });
});

describe('gemini stream decoder: candidates and parts', () => {
  it('a second candidate: every event names its choice; logprobs per candidate; a repeated finish is ignored', () => {
    const lp = { chosenCandidates: [{ token: 'x', logProbability: -1 }], topCandidates: [] };
    const events = run([
      chunk(cand([{ text: 'x' }], { index: 0, logprobsResult: lp }), cand([{ text: 'y', thought: true }, { text: '', thoughtSignature: 'S' }, { text: 'z' }], { index: 1, logprobsResult: lp })),
      chunk(cand([], { index: 0, finishReason: 'STOP' }), cand([], { index: 1, finishReason: 'MAX_TOKENS' })),
      chunk(cand([], { index: 1, finishReason: 'STOP' })),
    ]);
    const logprobs = { content: [{ token: 'x', logprob: -1, top: [] }] };
    expect(events.slice(1)).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'x' },
      { type: 'logprobs', logprobs },
      { type: 'reasoning-start', choice: 1 },
      { type: 'reasoning-delta', choice: 1, text: 'y' },
      { type: 'reasoning-end', choice: 1, signature: { origin: 'gemini', value: 'S' } },
      { type: 'text-start', choice: 1 },
      { type: 'text-delta', choice: 1, text: 'z' },
      { type: 'logprobs', choice: 1, logprobs },
      { type: 'text-end' },
      { type: 'text-end', choice: 1 },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
      { type: 'finish', choice: 1, reason: { unified: 'length', raw: 'MAX_TOKENS' } },
    ]);
  });

  it('empty logprobs send no event; parts that are not objects and candidates without content are skipped', () => {
    const events = run([{ candidates: [{ finishReason: 'STOP', logprobsResult: { chosenCandidates: [] } }, cand([5, 'x', null, { text: 'ok' }], { finishReason: 'STOP' })] }]);
    expect(events.slice(1)).toEqual([
      { type: 'text-start', choice: 1 },
      { type: 'text-delta', choice: 1, text: 'ok' },
      { type: 'text-end', choice: 1 },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
      { type: 'finish', choice: 1, reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it("a signature on a text part closes that block; the next text opens a new one; a call keeps Gemini's id", () => {
    const events = run([chunk(cand([{ text: 'a', thoughtSignature: 'S1' }, { text: 'b' }, { functionCall: { id: 'g1', name: 'f', args: 'not an object' } }], { finishReason: 'STOP' }))]);
    expect(events.slice(1)).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-end', signature: { origin: 'gemini', value: 'S1' } },
      { type: 'text-start' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 0, id: 'g1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'STOP' } },
    ]);
  });

  it('a call part without a name and no call being streamed says nothing; an empty thought part says nothing', () => {
    const events = run([chunk(cand([{ functionCall: { args: { a: 1 } } }, { text: '', thought: true }, { functionCall: { name: '', partialArgs: [] } }], { finishReason: 'STOP' }))]);
    expect(events.slice(1)).toEqual([{ type: 'finish', reason: { unified: 'stop', raw: 'STOP' } }]);
  });

  it('a streamed call is ended by the next part, by a new call, or by the finish; its start args are kept', () => {
    const events = run([
      chunk(cand([{ functionCall: { name: 'a', willContinue: true, args: { k: 1 }, partialArgs: [{ jsonPath: '$.s', stringValue: 'x', willContinue: true }] } }, { text: 'then' }])),
      chunk(cand([{ functionCall: { name: 'b', willContinue: true } }, { functionCall: { name: 'c', willContinue: true, args: 'x' } }])),
      chunk(cand([{ functionCall: { partialArgs: [{ jsonPath: '$.n', numberValue: 2 }], willContinue: true } }], { finishReason: 'STOP' })),
    ]);
    const calls = events.filter((e) => e.type.startsWith('tool-call') || e.type.startsWith('text-'));
    expect(calls).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_1_0', name: 'a' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"k":1,"s":"x"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'text-start' },
      { type: 'text-delta', text: 'then' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 1, id: 'call_1_1', name: 'b' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'call_1_2', name: 'c' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"n":2}' },
      { type: 'tool-call-end', index: 2 },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: { unified: 'tool-calls', raw: 'STOP' } });
  });

  it('a stream cut during a streamed call still ends the call before reporting the early end', () => {
    const events = run([chunk(cand([{ functionCall: { name: 'a', willContinue: true, partialArgs: [{ jsonPath: '$.b', boolValue: true }] } }]))]);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_1_0', name: 'a' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"b":true}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'error', error: expect.objectContaining({ kind: 'upstream' }) },
    ]);
  });

  it('broken JSON: the error says so and keeps what was sent; whitespace-only events say nothing', () => {
    expect(run(['  ', ' [DONE] ', '{"candidates": ['])).toEqual([
      { type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'Gemini sent a stream chunk that is not JSON', raw: '{"candidates": [' }) },
    ]);
  });

  it('a stream with usage and no candidate at all is incomplete', () => {
    const events = run([{ usageMetadata: { promptTokenCount: 1, totalTokenCount: 1 } }]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'usage', 'error']);
    expect(events.at(-1)).toMatchObject({ error: { kind: 'upstream', message: expect.stringContaining('no finishReason') } });
  });

  it('a chunk of the wrong shape keeps what was sent', () => {
    expect(run(['{"hello":1}'])).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'Gemini sent a stream chunk that is not a GenerateContentResponse', raw: '{"hello":1}' }) }]);
  });

  it('a null chunk, alone or in an array, is an error event, never a throw', () => {
    for (const bad of ['null', '[null]']) expect(run([bad]).map((e) => e.type)).toEqual(['error']);
  });

  it('prompt feedback without a block reason blocks nothing', () => {
    const events = run([{ promptFeedback: { safetyRatings: [] } }, chunk(cand([{ text: 'a' }], { finishReason: 'STOP' }))]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'finish']);
  });

  it("a candidate's own index wins over its position in the list", () => {
    const events = run([chunk(cand([{ text: 'b' }], { index: 1 })), chunk(cand([{ text: 'a' }], { index: 0, finishReason: 'STOP' }), cand([], { index: 1, finishReason: 'STOP' }))]);
    expect(events.slice(1, 3)).toEqual([
      { type: 'text-start', choice: 1 },
      { type: 'text-delta', choice: 1, text: 'b' },
    ]);
    expect(events.filter((e) => e.type === 'finish')).toEqual([
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
      { type: 'finish', choice: 1, reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it('a call with an empty id gets a synthetic one; partialArgs that are no list are ignored; a name that is no string starts no call (it ends the streamed one)', () => {
    const events = run([
      chunk(
        cand(
          [
            { functionCall: { id: '', name: 'f', willContinue: true, partialArgs: { jsonPath: '$.a', stringValue: 'x' } } },
            { functionCall: { name: 5, args: { z: 1 } } },
            { functionCall: { partialArgs: [{ jsonPath: '$.b', numberValue: 1 }] } },
          ],
          { finishReason: 'STOP' },
        ),
      ),
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_1_0', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'STOP' } },
    ]);
  });

  it('candidates that are no list, or hold a non-object, and an event of no chunks are not GenerateContentResponses', () => {
    for (const bad of ['{"candidates":"x"}', '{"candidates":[{},5]}', '{"candidates":{"content":{}}}', '[]']) {
      expect(run([bad])).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'Gemini sent a stream chunk that is not a GenerateContentResponse', raw: bad }) }]);
    }
  });

  it('parts that are no list say nothing, and the candidate still finishes', () => {
    expect(run([chunk(cand([], { content: { role: 'model', parts: { text: 'a' } }, finishReason: 'STOP' }))]).slice(1)).toEqual([{ type: 'finish', reason: { unified: 'stop', raw: 'STOP' } }]);
  });

  it('an empty thoughtSignature is no signature: the block stays open', () => {
    expect(run([chunk(cand([{ text: 'a', thoughtSignature: '' }, { text: 'b' }], { finishReason: 'STOP' }))]).slice(1)).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it('a finish message that is no string gives the fixed detail', () => {
    expect(run([chunk(cand([], { finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 5 }))]).at(-1)).toMatchObject({
      type: 'error',
      error: { message: 'Upstream stopped with MALFORMED_FUNCTION_CALL: the model produced an invalid response.' },
      upstreamFrame: true,
    });
  });
});

describe('gemini stream decoder: fields of the wrong type, other choices, a second finish', () => {
  it('an incomplete stream reports its early end once, however often it is finished', () => {
    const d = gemini.createStreamDecoder(req, testContext());
    d.push({ data: JSON.stringify(chunk(cand([{ text: 'a' }]))) } as SseEvent);
    expect(d.finish().map((e) => e.type)).toEqual(['text-end', 'error']);
    expect(d.finish()).toEqual([]);
  });

  it('a thoughtSignature, text or call id that is no string is none', () => {
    const events = run([chunk(cand([{ text: 'a', thoughtSignature: 5 }, { text: 7 }, { text: 'b' }, { functionCall: { id: 9, name: 'f', args: {} } }], { finishReason: 'STOP' }))]);
    expect(events.slice(1)).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 0, id: 'call_1_0', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'STOP' } },
    ]);
  });

  it('a part with no stream event and no signature says nothing', () => {
    expect(run([chunk(cand([{ inlineData: { mimeType: 'image/png', data: 'AA==' } }, { fileData: { fileUri: 'gs://b/f' } }], { finishReason: 'STOP' }))]).slice(1)).toEqual([
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it("a second candidate's streamed call and lone signature name its choice", () => {
    const events = run([
      chunk(cand([], { index: 0 }), cand([{ thoughtSignature: 'S' }, { functionCall: { name: 'f', willContinue: true, partialArgs: [{ jsonPath: '$.a', numberValue: 1 }] } }], { index: 1 })),
      chunk(cand([], { index: 0, finishReason: 'STOP' }), cand([{ functionCall: {} }], { index: 1, finishReason: 'STOP' })),
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'reasoning-start', choice: 1 },
      { type: 'reasoning-end', choice: 1, signature: { origin: 'gemini', value: 'S' } },
      { type: 'tool-call-start', choice: 1, index: 0, id: 'call_1_c1_0', name: 'f' },
      { type: 'tool-call-delta', choice: 1, index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', choice: 1, index: 0 },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
      { type: 'finish', choice: 1, reason: { unified: 'tool-calls', raw: 'STOP' } },
    ]);
  });
});

