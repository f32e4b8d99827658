import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type StreamEvent } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'gemini-x', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

function encode(events: StreamEvent[]) {
  const enc = gemini.createStreamEncoder(req, testContext());
  const frames = events.flatMap((e) => enc.push(e));
  frames.push(...enc.finish());
  for (const f of frames) expect(f.event).toBeUndefined();
  return frames.map((f) => JSON.parse(f.data) as Record<string, any>);
}

/** What @google/genai's chat accepts as a streamed turn (isValidResponse for every chunk). */
function validForSdkHistory(chunk: Record<string, any>): boolean {
  const parts = chunk.candidates?.[0]?.content?.parts;
  return Array.isArray(parts) && parts.length > 0 && parts.every((p: object) => p && Object.keys(p).length > 0) && chunk.candidates[0].content.role === 'model';
}

const start: StreamEvent = { type: 'message-start', id: 'msg_1', model: 'claude-x', created: 1 };

describe('stream encoder', () => {
  it('text deltas, held usage and finish on the last chunk', () => {
    const chunks = encode([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop', raw: 'end_turn' } },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12, reasoningTokens: 2 } },
    ]);
    expect(chunks).toEqual([
      { candidates: [{ content: { parts: [{ text: 'Hel' }], role: 'model' }, index: 0 }], modelVersion: 'claude-x', responseId: 'msg_1' },
      { candidates: [{ content: { parts: [{ text: 'lo' }], role: 'model' }, index: 0 }], modelVersion: 'claude-x', responseId: 'msg_1' },
      {
        candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 12, thoughtsTokenCount: 2 },
        modelVersion: 'claude-x',
        responseId: 'msg_1',
      },
    ]);
    expect(chunks.every(validForSdkHistory)).toBe(true);
  });

  it('reasoning deltas as thought parts; a block signature as an empty-text part', () => {
    const chunks = encode([
      start,
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'sig' } },
      { type: 'text-start' },
      { type: 'text-delta', text: 'ok' },
      { type: 'text-end', signature: { origin: 'gemini', value: 'G' } },
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
    expect(chunks.map((c) => c.candidates[0].content.parts[0])).toEqual([
      { text: 'hmm', thought: true },
      { text: '', thought: true, thoughtSignature: btoa('\xffil1asig') }, // format: byte (carrier.ts)
      { text: 'ok' },
      { text: '', thoughtSignature: 'G' },
      { text: '' },
    ]);
  });

  it('tool calls are held and sent whole, with id and signature', () => {
    const chunks = encode([
      start,
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f', signature: { origin: 'gemini', value: 'S' } },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
    expect(chunks.map((c) => c.candidates[0].content.parts[0])).toEqual([
      { functionCall: { id: 'call_b', name: 'f', args: {} } },
      { functionCall: { id: 'call_a', name: 'f', args: { x: 1 } }, thoughtSignature: 'S' },
      { text: '' },
    ]);
    expect(chunks.at(-1)!.candidates[0].finishReason).toBe('STOP');
  });

  it('invalid tool arguments end the stream with an error chunk', () => {
    const chunks = encode([
      start,
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x"' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.error).toMatchObject({ code: 502, status: 'INTERNAL' });
  });

  it('an error event → error chunk, then nothing', () => {
    const chunks = encode([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'error', error: new ProxyError('overloaded', 'Overloaded', { status: 529 }) },
      { type: 'text-delta', text: 'b' },
    ]);
    expect(chunks).toEqual([
      { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' }, index: 0 }], modelVersion: 'claude-x', responseId: 'msg_1' },
      { error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } },
    ]);
  });

  it('prompt blocked → promptFeedback chunk', () => {
    const chunks = encode([start, { type: 'usage', usage: { inputTokens: 3, outputTokens: 0, totalTokens: 3 } }, { type: 'prompt-blocked', reason: 'SAFETY' }]);
    expect(chunks).toEqual([
      {
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 0, totalTokenCount: 3 },
        modelVersion: 'claude-x',
        responseId: 'msg_1',
      },
    ]);
  });

  it('an upstream that stops early still gets a last chunk with a finishReason', () => {
    const chunks = encode([start, { type: 'text-start' }, { type: 'text-delta', text: 'cut' }]);
    expect(chunks.at(-1)!.candidates[0].finishReason).toBe('OTHER');
    expect(encode([])).toEqual([
      { candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'OTHER', index: 0 }], modelVersion: 'gemini-x', responseId: 'gemini-test0001' },
    ]);
  });

  it('several choices: each gets its index and its finish reason', () => {
    const chunks = encode([
      start,
      { type: 'text-delta', choice: 1, text: 'b' },
      { type: 'text-delta', text: 'a' },
      { type: 'finish', choice: 1, reason: { unified: 'length' } },
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
    expect(chunks.at(-1)!.candidates).toEqual([
      { content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 },
      { content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'MAX_TOKENS', index: 1 },
    ]);
  });

  it('Gemini fixtures decode and re-encode into SDK-valid chunks carrying the same content', () => {
    for (const name of ['stream-gemini3-tool-call.sse', 'vertex-stream-thought-parallel-streamed-args.sse', 'stream-finish-max-tokens.sse']) {
      const dec = gemini.createStreamDecoder(req, testContext());
      const events = fixtureSse('gemini', name).flatMap((e) => dec.push(e));
      events.push(...dec.finish());
      const chunks = encode(events);
      expect(chunks.every(validForSdkHistory), name).toBe(true);
      const last = chunks.at(-1)!;
      expect(last.candidates[0].finishReason).toBeDefined();
      expect(last.usageMetadata).toBeDefined();
    }
  });
});

describe('gemini stream encoder: what sends nothing, and arguments that are not an object', () => {
  it('empty deltas and an end without a signature send nothing; an unknown call end is ignored', () => {
    const chunks = encode([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: '' },
      { type: 'text-end' },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: '' },
      { type: 'reasoning-end' },
      { type: 'tool-call-end', index: 5 },
      { type: 'text-start' },
      { type: 'text-delta', text: 'ok' },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
    const parts = chunks.filter((c) => !c.candidates?.[0]?.finishReason).flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    expect(parts).toEqual([{ text: 'ok' }]);
  });

  it.each(['[1,2]', '"x"', 'null'])('arguments %s end the stream with an error naming the tool', (args) => {
    const chunks = encode([start, { type: 'tool-call-start', index: 0, id: 'c', name: 'f' }, { type: 'tool-call-delta', index: 0, argumentsDelta: args }, { type: 'tool-call-end', index: 0 }, { type: 'finish', reason: { unified: 'tool-calls' } }]);
    expect(chunks.at(-1)).toMatchObject({ error: { message: "the upstream produced non-object arguments for tool 'f'" } });
    expect(chunks.filter((c) => c.error)).toHaveLength(1);
  });
});

describe('gemini stream encoder: events the main tests leave out', () => {
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
