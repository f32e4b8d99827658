/**
 * Streamed tool calls, both directions: each call keeps its own index (the second call is 1,
 * never 0), its arguments reach the right call, and a structured-output tool is text, not a call.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent, StreamFrame } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { createStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'claude', system: [], messages: [], stream: true };

describe('anthropic stream encoder: several tool calls', () => {
  const payloads = (frames: StreamFrame[]) => frames.map((f) => JSON.parse(f.data) as Record<string, any>);
  function encode(events: StreamEvent[]) {
    const enc = createStreamEncoder(req, testContext());
    return payloads([...events.flatMap((e) => enc.push(e)), ...enc.finish()]);
  }

  it('text, then two calls: content blocks 0, 1, 2, each delta and stop on its own block', () => {
    const data = encode([
      { type: 'message-start', id: 'x', model: 'm', created: 1 },
      { type: 'text-delta', text: 'Hi' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '2}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
    const blocks = data.filter((d) => d.type.startsWith('content_block'));
    expect(blocks).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_a', name: 'f', input: {}, caller: { type: 'direct' } } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_b', name: 'g', input: {}, caller: { type: 'direct' } } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"b":' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '2}' } },
      { type: 'content_block_stop', index: 2 },
    ]);
    expect(data.at(-2)!.delta.stop_reason).toBe('tool_use');
  });

  it('a call still streaming at finish is closed; a queued call ended early keeps its buffered arguments', () => {
    const data = encode([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":2}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
    const blocks = data.filter((d) => d.type.startsWith('content_block'));
    expect(blocks.map((b) => [b.type, b.index, b.content_block?.id ?? b.delta?.partial_json ?? null])).toEqual([
      ['content_block_start', 0, 'call_a'],
      ['content_block_delta', 0, '{"a":1}'],
      ['content_block_stop', 0],
      ['content_block_start', 1, 'call_b'],
      ['content_block_delta', 1, '{"b":2}'],
      ['content_block_stop', 1],
    ].map(([t, i, v]) => [t, i, v ?? null]));
  });
});
