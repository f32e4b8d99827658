/**
 * Streamed tool calls, both directions: each call keeps its own index (the second call is 1,
 * never 0), its arguments reach the right call, and a structured-output tool is text, not a call.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { createStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'claude', system: [], messages: [], stream: true };

const sse = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });

const start = { type: 'message_start', message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 5, output_tokens: 1 } } };

const stop = [sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }), sse({ type: 'message_stop' })];

const toolStart = (index: number, id: string, name: string, input: unknown = {}) =>
  sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input } });

const json = (index: number, partial_json: string) => sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });

const blockStop = (index: number) => sse({ type: 'content_block_stop', index });

function decode(events: SseEvent[], r: ChatRequest = req): StreamEvent[] {
  const d = createStreamDecoder(r, testContext());
  return [...events.flatMap((e) => d.push(e)), ...d.finish()];
}

type ToolEvent = Extract<StreamEvent, { type: 'tool-call-start' | 'tool-call-delta' | 'tool-call-end' }>;

const toolEvents = (events: StreamEvent[]) => events.filter((e): e is ToolEvent => e.type.startsWith('tool-call'));

const textOf = (events: StreamEvent[]) => events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');

describe('anthropic stream decoder: several tool calls', () => {
  it('text then two tool calls: the calls are 0 and 1, arguments on their own index', () => {
    const events = decode([
      sse(start),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Checking.' } }),
      blockStop(0),
      toolStart(1, 'toolu_a', 'weather'),
      json(1, '{"city":'),
      json(1, '"Paris"}'),
      blockStop(1),
      toolStart(2, 'toolu_b', 'time'),
      json(2, '{"tz":"CET"}'),
      blockStop(2),
      ...stop,
    ]);
    expect(toolEvents(events)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_a', name: 'weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'toolu_b', name: 'time' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"CET"}' },
      { type: 'tool-call-end', index: 1 },
    ]);
    expect(textOf(events)).toBe('Checking.');
    expect(events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_use' } });
  });

  it('input given whole at content_block_start is the arguments; a second argument-less call gets "{}" on index 1', () => {
    const events = decode([sse(start), toolStart(0, 'toolu_a', 'f', { a: 1 }), blockStop(0), toolStart(1, 'toolu_b', 'g'), json(1, ''), blockStop(1), ...stop]);
    expect(toolEvents(events)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'toolu_b', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('a tool block opened without content_block_stop is closed when the next one starts', () => {
    const events = decode([sse(start), toolStart(0, 'toolu_a', 'f'), json(0, '{"x":1}'), toolStart(1, 'toolu_b', 'g'), json(1, '{"y":2}'), ...stop]);
    expect(toolEvents(events).map((e) => `${e.type}:${e.index}`)).toEqual([
      'tool-call-start:0',
      'tool-call-delta:0',
      'tool-call-end:0',
      'tool-call-start:1',
      'tool-call-delta:1',
      'tool-call-end:1',
    ]);
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('tool-call-end')).toBeLessThan(types.indexOf('finish'));
  });

  it('deltas of another block type do not leak into a tool call or text', () => {
    const events = decode([
      sse(start),
      toolStart(0, 'toolu_a', 'f'),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'stray' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'stray' } }),
      json(0, '{}'),
      blockStop(0),
      sse({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'Hi' } }),
      json(1, '{"no":1}'),
      sse({ type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'stray' } }),
      blockStop(1),
      ...stop,
    ]);
    expect(events.filter((e) => e.type === 'text-delta' || e.type === 'reasoning-delta')).toEqual([{ type: 'text-delta', text: 'Hi' }]);
    expect(toolEvents(events).filter((e) => e.type === 'tool-call-delta')).toEqual([{ type: 'tool-call-delta', index: 0, argumentsDelta: '{}' }]);
  });

  it('a delta with no block open is ignored', () => {
    const events = decode([sse(start), json(0, '{"x":1}'), sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }), ...stop]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'usage', 'finish', 'usage']);
  });
});

describe('anthropic stream decoder: structured output through the json_response tool', () => {
  const schema = { type: 'object', properties: { a: { type: 'integer' } } };
  const structured: ChatRequest = { ...req, responseFormat: { type: 'json-schema', name: 'x', schema } };

  it('streams as text, is not a tool call, and the tool_use stop is a plain stop; a real tool after it is index 0', () => {
    const events = decode([sse(start), toolStart(0, 'toolu_j', 'json_response'), json(0, '{"a":'), json(0, '1}'), blockStop(0), ...stop], structured);
    expect(toolEvents(events)).toEqual([]);
    expect(events.filter((e) => e.type.startsWith('text'))).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: '{"a":' },
      { type: 'text-delta', text: '1}' },
      { type: 'text-end' },
    ]);
    expect(events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', reason: { unified: 'stop', raw: 'tool_use' } });

    const mixed = decode([sse(start), toolStart(0, 'toolu_j', 'json_response'), json(0, '{}'), blockStop(0), toolStart(1, 'toolu_f', 'f'), blockStop(1), ...stop], structured);
    expect(toolEvents(mixed)[0]).toEqual({ type: 'tool-call-start', index: 0, id: 'toolu_f', name: 'f' });
    expect(mixed.find((e) => e.type === 'finish')).toEqual({ type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_use' } });
  });

  it('an empty answer is "{}"; a wrapped (non-object) schema is unwrapped whole at the end', () => {
    const empty = decode([sse(start), toolStart(0, 'toolu_j', 'json_response'), blockStop(0), ...stop], structured);
    expect(textOf(empty)).toBe('{}');
    const wrappedReq: ChatRequest = { ...req, responseFormat: { type: 'json-schema', name: 'x', schema: { type: 'array', items: { type: 'string' } } } };
    const wrapped = decode([sse(start), toolStart(0, 'toolu_j', 'json_response'), json(0, '{"value":'), json(0, '["a"]}'), blockStop(0), ...stop], wrappedReq);
    expect(wrapped.filter((e) => e.type === 'text-delta')).toEqual([{ type: 'text-delta', text: '["a"]' }]);
    const cut = decode([sse(start), toolStart(0, 'toolu_j', 'json_response'), json(0, '{"value":["a'), ...stop], wrappedReq);
    expect(textOf(cut)).toBe('{"value":["a');
  });

  it('without a structured-output request, json_response is an ordinary tool call', () => {
    const events = decode([sse(start), toolStart(0, 'toolu_j', 'json_response'), json(0, '{}'), blockStop(0), ...stop]);
    expect(toolEvents(events)[0]).toEqual({ type: 'tool-call-start', index: 0, id: 'toolu_j', name: 'json_response' });
  });
});
