/**
 * Stream chunks from OpenAI-compatible servers that bend the usual shape: keep-alive frames, a
 * chunk without id, tool-call fragments whose name comes late or never, late fragments of a call
 * already ended, a legacy `function_call` continuation with nothing to continue, and how the finish
 * reason tells a refusal from an answer.
 */
import { describe, expect, test } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: true };

function run(frames: unknown[]): StreamEvent[] {
  const d = new OpenAIChatStreamDecoder(req, testContext());
  const out = frames.flatMap((f) => d.push({ data: typeof f === 'string' ? f : JSON.stringify(f) }));
  return [...out, ...d.finish()];
}

const ch = (delta: unknown, finish: string | null = null, index = 0) => ({ id: 'c1', model: 'm', created: 5, choices: [{ index, delta, finish_reason: finish }] });
const start = { type: 'message-start', id: 'c1', model: 'm', created: 5 };
const frag = (index: number, fn: Record<string, unknown> | undefined, id?: string) => ({ index, ...(id ? { id, type: 'function' } : {}), ...(fn ? { function: fn } : {}) });

describe('frames', () => {
  test('an empty data frame (keep-alive) yields nothing and breaks nothing', () => {
    expect(run([ch({ content: 'a' }), '', '   ', ch({}, 'stop'), '[DONE]'])).toEqual([
      start,
      { type: 'text-start', choice: 0 },
      { type: 'text-delta', choice: 0, text: 'a' },
      { type: 'text-end', choice: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'stop', raw: 'stop' } },
    ]);
  });

  test('a chunk without id starts the message with its own model and a made-up id', () => {
    expect(run([{ model: 'served', created: 9, choices: [{ index: 0, delta: { content: 'a' }, finish_reason: 'stop' }] }, '[DONE]'])[0]).toEqual({
      type: 'message-start',
      id: 'chatcmpl-test0001',
      model: 'served',
      created: 9,
    });
  });

  test('after the incomplete-stream error nothing more comes out', () => {
    const d = new OpenAIChatStreamDecoder(req, testContext());
    d.push({ data: JSON.stringify(ch({ content: 'a' })) });
    expect(d.finish().at(-1)).toMatchObject({ type: 'error' });
    expect(d.push({ data: JSON.stringify(ch({ content: 'b' })) })).toEqual([]);
    expect(d.finish()).toEqual([]);
  });
});

describe('tool-call fragments', () => {
  test('a first fragment with empty arguments starts the call and sends no empty delta', () => {
    expect(run([ch({ tool_calls: [frag(0, { name: 'f', arguments: '' }, 'call_a')] }), ch({ tool_calls: [frag(0, { arguments: '{}' })] }), ch({}, 'tool_calls'), '[DONE]']).slice(1)).toEqual([
      { type: 'tool-call-start', choice: 0, index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
  });

  test('fragments before the name wait for it: the call starts with its id, name and all arguments so far', () => {
    const events = run([
      ch({ tool_calls: [frag(0, { arguments: '{"a"' }, 'call_a')] }),
      ch({ tool_calls: [frag(0, undefined)] }),
      ch({ tool_calls: [frag(0, { arguments: ':1' })] }),
      ch({ tool_calls: [frag(0, { name: 'f', arguments: '}' })] }),
      ch({}, 'tool_calls'),
      '[DONE]',
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', choice: 0, index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
  });

  test('a late name with no id anywhere gets a made-up id; a call that never gets its name ends nameless', () => {
    const late = run([ch({ tool_calls: [frag(0, { arguments: '{}' })] }), ch({ tool_calls: [frag(0, { name: 'f' })] }), ch({}, 'tool_calls'), '[DONE]']);
    expect(late[1]).toEqual({ type: 'tool-call-start', choice: 0, index: 0, id: 'call_test0001', name: 'f' });
    const never = run([ch({ tool_calls: [frag(0, { arguments: '{"x":' }, 'call_n')] }), ch({ tool_calls: [frag(0, { arguments: '2}' })] }), ch({}, 'tool_calls'), '[DONE]']);
    expect(never.slice(1)).toEqual([
      { type: 'tool-call-start', choice: 0, index: 0, id: 'call_n', name: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"x":2}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
  });

  test('a nameless fragment of another call does not join the one waiting: the waiting one ends first', () => {
    const events = run([ch({ tool_calls: [frag(0, { arguments: 'A' }, 'call_a')] }), ch({ tool_calls: [frag(1, { arguments: 'B' }, 'call_b')] }), ch({ tool_calls: [frag(1, { name: 'g' })] }), ch({}, 'tool_calls'), '[DONE]']);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', choice: 0, index: 0, id: 'call_a', name: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'A' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'tool-call-start', choice: 0, index: 1, id: 'call_b', name: 'g' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: 'B' },
      { type: 'tool-call-end', choice: 0, index: 1 },
      { type: 'finish', choice: 0, reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
  });

  test('a late fragment of a call already ended is dropped; an empty one sends nothing', () => {
    const events = run([
      ch({ tool_calls: [frag(0, { name: 'f', arguments: '{}' }, 'call_a')] }),
      ch({ tool_calls: [frag(0, { arguments: '' })] }),
      ch({ tool_calls: [frag(1, { name: 'g', arguments: '{}' }, 'call_b')] }),
      ch({ tool_calls: [frag(0, { arguments: 'late' })] }),
      ch({}, 'tool_calls'),
      '[DONE]',
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', choice: 0, index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'tool-call-start', choice: 0, index: 1, id: 'call_b', name: 'g' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 0, index: 1 },
      { type: 'finish', choice: 0, reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
  });

  test('a legacy function_call fragment with no name and no call before it is ignored', () => {
    expect(run([ch({ content: 'a', function_call: { arguments: '{}' } }), ch({}, 'stop'), '[DONE]']).map((e) => e.type)).toEqual([
      'message-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
  });
});

describe('refusal or answer', () => {
  const reasonOf = (deltas: unknown[], finish = 'stop') => (run([...deltas.map((d) => ch(d)), ch({}, finish), '[DONE]']).find((e) => e.type === 'finish') as { reason: unknown }).reason;

  test.each([
    ['a refusal alone', [{ refusal: 'No.' }], { unified: 'refusal', raw: 'stop' }],
    ['a refusal and an answer', [{ refusal: 'No.' }, { content: 'but here' }], { unified: 'stop', raw: 'stop' }],
    ['an answer alone', [{ content: 'yes' }], { unified: 'stop', raw: 'stop' }],
    ['nothing at all', [{}], { unified: 'stop', raw: 'stop' }],
  ])('%s', (_name, deltas, reason) => {
    expect(reasonOf(deltas)).toEqual(reason);
  });
});

describe('reasoning_details in chunks of their own', () => {
  test('an unsigned detail after streamed reasoning is more of it; an empty unsigned one opens nothing', () => {
    const events = run([ch({ reasoning_content: 'a' }), ch({ reasoning_details: [{ type: 'reasoning.text', text: 'b' }] }), ch({ reasoning_details: [{ type: 'reasoning.text', text: '' }] }), ch({ content: 'A' }, 'stop'), '[DONE]']);
    expect(events.slice(1)).toEqual([
      { type: 'reasoning-start', choice: 0 },
      { type: 'reasoning-delta', choice: 0, text: 'a' },
      { type: 'reasoning-delta', choice: 0, text: 'b' },
      { type: 'reasoning-end', choice: 0 },
      { type: 'text-start', choice: 0 },
      { type: 'text-delta', choice: 0, text: 'A' },
      { type: 'text-end', choice: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'stop', raw: 'stop' } },
    ]);
    const empty = run([ch({ reasoning_details: [{ type: 'reasoning.text', text: '' }] }), ch({ content: 'A' }, 'stop'), '[DONE]']);
    expect(empty.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'finish']);
  });
});
