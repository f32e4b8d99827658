/**
 * Which canonical events open and close which Anthropic blocks: refusals, a thinking end amid
 * text, tool calls still waiting at the end, choices other than the first, and nothing after the
 * stream's end.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent, StreamFrame, WebSearchPart } from '../../src/canonical/index.ts';
import { encodeAnthropicStream, shortFrames } from '../../test/support/anthropic-stream.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { createStreamEncoder } from './stream-encoder.ts';

const plain: ChatRequest = { model: 'claude-x', system: [], messages: [], stream: true };

const parse = (frames: StreamFrame[]) => frames.map((f) => JSON.parse(f.data) as Record<string, any>);
const run = (events: StreamEvent[], req: ChatRequest = plain) => encodeAnthropicStream(req, events);
const short = shortFrames;

const search: WebSearchPart = { type: 'web-search', id: 'ws_1', kind: 'search', queries: ['q'], results: [{ url: 'https://a' }], raw: { dialect: 'openai-responses', value: {} } };

describe('anthropic stream encoder: refusals', () => {
  it('a refusal is a text block of its deltas, closed by its end; its end with nothing open is nothing', () => {
    const data = run([
      { type: 'refusal-end' },
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'I ' },
      { type: 'refusal-delta', text: '' },
      { type: 'refusal-delta', text: 'cannot.' },
      { type: 'refusal-end' },
      { type: 'finish', reason: { unified: 'refusal', raw: 'refusal' } },
    ]);
    expect(short(data)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:I ', 'delta0:text_delta:cannot.', 'stop0', 'message_delta', 'message_stop']);
  });

  it('a refusal streams as it comes even when text is held for citations', () => {
    const withWeb: ChatRequest = { ...plain, nativeTools: [{ dialect: 'openai-responses', definition: { type: 'web_search' }, web: { kind: 'search' } }] };
    const enc = createStreamEncoder(withWeb, testContext());
    expect(short(parse(enc.push({ type: 'refusal-delta', text: 'No' })))).toEqual(['message_start', 'start0:text', 'delta0:text_delta:No']);
    expect(short(parse(enc.push({ type: 'refusal-delta', text: '.' })))).toEqual(['delta0:text_delta:.']);
  });
});

describe('anthropic stream encoder: held text', () => {
  it('text is held when any one of the request’s tools is a hosted web tool', () => {
    const mixed: ChatRequest = {
      ...plain,
      nativeTools: [
        { dialect: 'openai-responses', definition: { type: 'code_interpreter' } },
        { dialect: 'openai-responses', definition: { type: 'web_search' }, web: { kind: 'search' } },
      ],
    };
    const enc = createStreamEncoder(mixed, testContext());
    expect(enc.push({ type: 'text-delta', text: 'held' })).toEqual([]);
    expect(short(parse(enc.finish())).slice(0, 4)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:held', 'stop0']);
  });
});

describe('anthropic stream encoder: thinking', () => {
  it('a thinking end with no signature closes no text block', () => {
    const data = run([{ type: 'text-delta', text: 'a' }, { type: 'reasoning-end' }, { type: 'text-delta', text: 'b' }]);
    expect(short(data)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:a', 'delta0:text_delta:b', 'stop0', 'message_delta', 'message_stop']);
  });
});

describe('anthropic stream encoder: tool calls at the end', () => {
  const starts: StreamEvent[] = [
    { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
    { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
    { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":1}' },
    { type: 'tool-call-start', index: 2, id: 'call_c', name: 'h' },
  ];

  it('calls still open or waiting when the stream ends are each written and closed', () => {
    const data = run(starts);
    expect(short(data)).toEqual(['message_start', 'start0:tool_use', 'stop0', 'start1:tool_use', 'delta1:input_json_delta:{"b":1}', 'stop1', 'start2:tool_use', 'stop2', 'message_delta', 'message_stop']);
    expect(data.at(-2)!.delta.stop_reason).toBe('tool_use');
  });

  it('the finish event closes every call, the waiting ones too', () => {
    const enc = createStreamEncoder(plain, testContext());
    for (const e of starts) enc.push(e);
    expect(short(parse(enc.push({ type: 'finish', reason: { unified: 'stop' } })))).toEqual(['stop0', 'start1:tool_use', 'delta1:input_json_delta:{"b":1}', 'stop1', 'start2:tool_use', 'stop2']);
    expect(parse(enc.finish())[0]!.delta.stop_reason).toBe('tool_use');
  });

  it('a search waits while a queued call opens after the first, and goes out after that one', () => {
    const data = run([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
      { type: 'web-search', part: search },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":1}' },
      { type: 'tool-call-end', index: 1 },
    ]);
    expect(short(data)).toEqual([
      'message_start',
      'start0:tool_use',
      'stop0',
      'start1:tool_use',
      'delta1:input_json_delta:{"b":1}',
      'stop1',
      'start2:server_tool_use',
      'delta2:input_json_delta:{"query":"q"}',
      'stop2',
      'start3:web_search_tool_result',
      'stop3',
      'message_delta',
      'message_stop',
    ]);
  });
});

describe('anthropic stream encoder: what it leaves out', () => {
  it('the first choice is written, said or not; other choices are not', () => {
    const data = run([
      { type: 'text-delta', text: 'a', choice: 0 },
      { type: 'text-delta', text: 'b', choice: undefined },
      { type: 'text-delta', text: 'c', choice: 1 },
    ]);
    expect(short(data)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:a', 'delta0:text_delta:b', 'stop0', 'message_delta', 'message_stop']);
  });

  it('a finish event writes no message_start: the usage after it still goes in', () => {
    const enc = createStreamEncoder(plain, testContext());
    expect(enc.push({ type: 'finish', reason: { unified: 'stop' } })).toEqual([]);
    enc.push({ type: 'usage', usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9 } });
    const data = parse(enc.finish());
    expect(data[0]!.type).toBe('message_start');
    expect(data[0]!.message.usage.input_tokens).toBe(7);
  });

  it('nothing after the end', () => {
    const enc = createStreamEncoder(plain, testContext());
    enc.push({ type: 'text-delta', text: 'a' });
    expect(enc.finish().length).toBeGreaterThan(0);
    expect(enc.push({ type: 'text-delta', text: 'b' })).toEqual([]);
    expect(enc.finish()).toEqual([]);
  });
});
