/**
 * The Gemini stream encoder on events the main tests leave out: logprobs, refusals, redacted
 * thinking, a start without id or model, usage known mid-stream, and calls of a second choice.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'asked-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

function encode(events: StreamEvent[]) {
  const enc = gemini.createStreamEncoder(req, testContext());
  const frames = events.flatMap((e) => enc.push(e));
  frames.push(...enc.finish());
  return frames.map((f) => JSON.parse(f.data) as Record<string, unknown>);
}
const start: StreamEvent = { type: 'message-start', id: 'm1', model: 'up-model', created: 1 };
const ids = { modelVersion: 'up-model', responseId: 'm1' };
const last = (index = 0, finishReason = 'STOP') => ({ content: { parts: [{ text: '' }], role: 'model' }, finishReason, index });

describe('gemini stream encoder: events the main tests leave out', () => {
  it('logprobs ride a chunk of their own beside an empty text part; empty logprobs send nothing', () => {
    const logprobs = { content: [{ token: 'a', logprob: -0.5, top: [{ token: 'a', logprob: -0.5 }] }] };
    expect(
      encode([start, { type: 'logprobs', choice: 1, logprobs }, { type: 'logprobs', logprobs: { content: [] } }, { type: 'finish', choice: 1, reason: { unified: 'stop' } }]),
    ).toEqual([
      {
        candidates: [
          {
            content: { parts: [{ text: '' }], role: 'model' },
            logprobsResult: { topCandidates: [{ candidates: [{ token: 'a', logProbability: -0.5 }] }], chosenCandidates: [{ token: 'a', logProbability: -0.5 }] },
            index: 1,
          },
        ],
        ...ids,
      },
      { candidates: [last(1)], ...ids },
    ]);
  });

  it('a refusal streams as text; redacted thinking as an empty thought carrying it; an unsigned thought end sends nothing', () => {
    const chunks = encode([
      start,
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'No.' },
      { type: 'refusal-end' },
      { type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'opaque' } },
      { type: 'reasoning-end' },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: '' },
      { type: 'reasoning-end' },
      { type: 'finish', reason: { unified: 'refusal' } },
    ]);
    expect(chunks.map((c) => (c.candidates as Array<{ content: { parts: unknown[] } }>)[0]!.content.parts[0])).toEqual([
      { text: 'No.' },
      { text: '', thought: true, thoughtSignature: expect.any(String) },
      { text: '' },
    ]);
    const carried = (chunks[1]!.candidates as Array<{ content: { parts: Array<{ thoughtSignature: string }> } }>)[0]!.content.parts[0]!.thoughtSignature;
    expect(gemini.decodeRequest({ body: { contents: [{ role: 'user', parts: [{ text: 'q' }] }, { role: 'model', parts: [{ text: '', thoughtSignature: carried }] }, { role: 'user', parts: [{ text: 'r' }] }] }, headers: {}, params: { model: 'm', method: 'generateContent' }, query: {} }, testContext()).value.messages[1]!.content).toEqual([
      { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque' } },
    ]);
    expect((chunks[2]!.candidates as Array<{ finishReason: string }>)[0]!.finishReason).toBe('SAFETY');
  });

  it('a start without id or model: a fresh id, the requested model', () => {
    expect(encode([{ type: 'message-start', id: '', model: '', created: 1 }, { type: 'text-delta', text: 'a' }])).toEqual([
      { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' }, index: 0 }], modelVersion: 'asked-model', responseId: 'gemini-test0001' },
      { candidates: [last(0, 'OTHER')], modelVersion: 'asked-model', responseId: 'gemini-test0001' },
    ]);
  });

  it('usage known mid-stream goes on every later chunk, and on a blocked prompt', () => {
    const usage = { inputTokens: 2, outputTokens: 1, totalTokens: 3 };
    const usageMetadata = { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 };
    expect(encode([start, { type: 'text-delta', text: 'a' }, { type: 'usage', usage }, { type: 'text-delta', text: 'b' }])).toEqual([
      { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' }, index: 0 }], ...ids },
      { candidates: [{ content: { parts: [{ text: 'b' }], role: 'model' }, index: 0 }], usageMetadata, ...ids },
      { candidates: [last(0, 'OTHER')], usageMetadata, ...ids },
    ]);
    expect(encode([start, { type: 'prompt-blocked', reason: 'OTHER' }, { type: 'text-delta', text: 'late' }])).toEqual([{ promptFeedback: { blockReason: 'OTHER' }, ...ids }]);
  });

  it("a second choice's calls are held under that choice, apart from the first's of the same index", () => {
    const chunks = encode([
      start,
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', choice: 1, index: 0, id: 'b', name: 'g', signature: { origin: 'gemini', value: 'SIG' } },
      { type: 'tool-call-delta', choice: 1, index: 0, argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"y":2}' },
      { type: 'tool-call-delta', choice: 1, index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', choice: 1, index: 0 },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'after the end' },
      { type: 'tool-call-end', index: 0 },
    ]);
    expect(chunks.map((c) => (c.candidates as Array<{ index: number; content: { parts: unknown[] } }>).map((k) => [k.index, k.content.parts[0]]))).toEqual([
      [[1, { functionCall: { id: 'b', name: 'g', args: { x: 1 } }, thoughtSignature: 'SIG' }]],
      [[0, { functionCall: { id: 'a', name: 'f', args: { y: 2 } } }]],
      [
        [0, { text: '' }],
        [1, { text: '' }],
      ],
    ]);
  });

  it('a choice that only finishes still gets its candidate in the last chunk, in index order', () => {
    const chunks = encode([start, { type: 'text-delta', choice: 2, text: 'c' }, { type: 'finish', choice: 1, reason: { unified: 'length' } }, { type: 'finish', choice: 2, reason: { unified: 'stop' } }]);
    expect(chunks.at(-1)).toEqual({ candidates: [last(1, 'MAX_TOKENS'), last(2)], ...ids });
  });
});
