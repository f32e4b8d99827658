/**
 * Canonical events → `chat.completion.chunk` frames in orders the fixtures do not show: a tool
 * call after an empty text block, deltas without their start event, a choice finished twice,
 * logprobs for a second choice and after deltas that never carry logprobs, and what comes after
 * the stream is closed.
 */
import { describe, expect, test } from 'vitest';
import type { ChatRequest, StreamEvent, StreamFrame } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { OpenAIChatStreamEncoder } from './stream-encoder.ts';

const baseReq: ChatRequest = { model: 'm', system: [], messages: [], stream: true };
const start: StreamEvent = { type: 'message-start', id: 'chatcmpl-x', model: 'm', created: 1 };

function encodeAll(events: StreamEvent[], req: ChatRequest = baseReq): StreamFrame[] {
  const enc = new OpenAIChatStreamEncoder(req, testContext());
  return [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
}

/** Each chunk's choices as [index, delta, logprobs tokens or null, finish_reason]. */
function rows(frames: StreamFrame[]) {
  return frames.flatMap((f) => {
    if (f.data === '[DONE]') return [];
    return (JSON.parse(f.data).choices as any[]).map((c) => [c.index, c.delta, c.logprobs?.content?.map((t: any) => t.token) ?? c.logprobs, c.finish_reason]);
  });
}

const textRole = { role: 'assistant', content: '', refusal: null };
const lp = (token: string) => ({ content: [{ token, logprob: -0.5, bytes: [1], top: [] }] });
const call = { index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } };

describe('role chunks', () => {
  test('a tool call after an empty text block comes in its own delta, after the text role chunk', () => {
    const frames = encodeAll([start, { type: 'text-start' }, { type: 'text-end' }, { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' }, { type: 'tool-call-end', index: 0 }, { type: 'finish', reason: { unified: 'tool-calls' } }]);
    expect(rows(frames)).toEqual([
      [0, textRole, null, null],
      [0, { tool_calls: [call] }, null, null],
      [0, {}, null, 'tool_calls'],
    ]);
  });

  test('a delta without its start event still gets the role chunk first', () => {
    expect(rows(encodeAll([start, { type: 'text-delta', text: 'a' }, { type: 'finish', reason: { unified: 'stop' } }]))).toEqual([
      [0, textRole, null, null],
      [0, { content: 'a' }, null, null],
      [0, {}, null, 'stop'],
    ]);
  });

  test('a choice finished twice sends one finish chunk; finish() does not finish it again', () => {
    const frames = encodeAll([start, { type: 'text-delta', text: 'a' }, { type: 'finish', reason: { unified: 'length' } }, { type: 'finish', reason: { unified: 'stop' } }]);
    expect(rows(frames).filter((r) => r[3] !== null)).toEqual([[0, {}, null, 'length']]);
    expect(frames.at(-1)).toEqual({ data: '[DONE]' });
  });

  test('nothing is sent after the stream is closed', () => {
    const enc = new OpenAIChatStreamEncoder(baseReq, testContext());
    enc.push(start);
    expect(enc.finish().at(-1)).toEqual({ data: '[DONE]' });
    expect(enc.push({ type: 'text-delta', text: 'late' })).toEqual([]);
    expect(enc.finish()).toEqual([]);
  });

  test('an event type the encoder does not know is a programming error, not silently dropped', () => {
    const enc = new OpenAIChatStreamEncoder(baseReq, testContext());
    expect(() => enc.push({ type: 'no-such-event' } as unknown as StreamEvent)).toThrow('unhandled stream event: {"type":"no-such-event"}');
  });
});

describe('logprobs', () => {
  const withLogprobs: ChatRequest = { ...baseReq, logprobs: true };

  test('a held delta of choice 1 takes the logprobs of choice 1', () => {
    const frames = encodeAll([start, { type: 'text-start', choice: 1 }, { type: 'text-delta', choice: 1, text: 'B' }, { type: 'logprobs', choice: 1, logprobs: lp('B') }, { type: 'finish', choice: 1, reason: { unified: 'stop' } }], withLogprobs);
    expect(rows(frames)).toEqual([
      [1, textRole, [], null],
      [1, { content: 'B' }, ['B'], null],
      [1, {}, null, 'stop'],
    ]);
  });

  test('a held delta followed by another delta lets both go, each in its own chunk', () => {
    const frames = encodeAll([start, { type: 'text-start' }, { type: 'text-delta', text: 'A' }, { type: 'text-delta', text: 'B' }, { type: 'finish', reason: { unified: 'stop' } }], withLogprobs);
    expect(rows(frames)).toEqual([
      [0, textRole, [], null],
      [0, { content: 'A' }, null, null],
      [0, { content: 'B' }, null, null],
      [0, {}, null, 'stop'],
    ]);
  });

  test('tool-call and reasoning deltas are not held: logprobs after them come in a chunk of their own; block ends add nothing', () => {
    const frames = encodeAll(
      [
        start,
        { type: 'reasoning-start' },
        { type: 'reasoning-delta', text: 'r' },
        { type: 'logprobs', logprobs: lp('r') },
        { type: 'reasoning-end' },
        { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
        { type: 'logprobs', logprobs: lp('x') },
        { type: 'tool-call-end', index: 0 },
        { type: 'refusal-end' },
        { type: 'finish', reason: { unified: 'tool-calls' } },
      ],
      withLogprobs,
    );
    expect(rows(frames)).toEqual([
      [0, textRole, [], null],
      [0, { reasoning_content: 'r' }, null, null],
      [0, {}, ['r'], null],
      [0, { tool_calls: [call] }, null, null],
      [0, { tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, null, null],
      [0, {}, ['x'], null],
      [0, {}, null, 'tool_calls'],
    ]);
  });
});

describe('text around a web search', () => {
  const search: StreamEvent = { type: 'web-search', part: { type: 'web-search', id: 'ws_1', kind: 'search', results: [{ url: 'https://a', title: 'A' }] } };

  test('the text after a search starts a new paragraph, once; a citation of it is past the break', () => {
    const frames = encodeAll([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'Before' },
      { type: 'text-end' },
      search,
      { type: 'text-start' },
      { type: 'text-delta', text: 'After' },
      { type: 'text-delta', text: ' more' },
      { type: 'citation', citation: { url: 'https://a', title: 'A', span: { start: 0, end: 5 } } },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
    expect(rows(frames)).toEqual([
      [0, textRole, null, null],
      [0, { content: 'Before' }, null, null],
      [0, { content: '\n\nAfter' }, null, null],
      [0, { content: ' more' }, null, null],
      [0, { annotations: [{ type: 'url_citation', url_citation: { start_index: 8, end_index: 13, url: 'https://a', title: 'A' } }] }, null, null],
      [0, {}, null, 'stop'],
    ]);
  });

  test('a search before any text adds no break', () => {
    const frames = encodeAll([start, search, { type: 'text-start' }, { type: 'text-delta', text: 'A' }, { type: 'text-end' }, { type: 'finish', reason: { unified: 'stop' } }]);
    expect(rows(frames)).toEqual([
      [0, textRole, null, null],
      [0, { content: 'A' }, null, null],
      [0, {}, null, 'stop'],
    ]);
  });
});
