/** Non-streamed answers both ways: the fields a caller reads off a Message. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeBlocks, encodeResponse, inputOf } from './encode-response.ts';

const req: ChatRequest = { model: 'asked-model', system: [], messages: [], stream: false };
const message = (over: Record<string, unknown>) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 4 },
  ...over,
});
const res = (over: Partial<ChatResponse> = {}): ChatResponse => ({
  id: 'msg_r',
  model: 'claude-x',
  created: 1,
  choices: [{ index: 0, content: [{ type: 'text', text: 'hi' }], finishReason: { unified: 'stop' } }],
  ...over,
});

describe('anthropic upstream answer → canonical', () => {
  it('blocks in order; a server block is kept aside at its index, not a part', () => {
    const server = { type: 'web_search_tool_result', tool_use_id: 's', content: [] };
    const r = decodeResponse(
      message({ content: [{ type: 'text', text: 'a' }, server, { type: 'tool_use', id: 'toolu_1', name: 'f', input: { x: 1 } }], stop_reason: 'tool_use' }),
      req,
      testContext(),
    );
    expect(r.choices[0]).toEqual({
      index: 0,
      content: [{ type: 'text', text: 'a' }, { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"x":1}' }],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      extras: { dialect: 'anthropic', fields: { serverBlocks: [{ index: 1, block: server }] } },
    });
    expect(r).toMatchObject({ id: 'msg_1', model: 'claude-x', created: 1_700_000_000, usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } });
  });

  it('a plain answer has no extras and no made-up usage', () => {
    const r = decodeResponse(message({ content: [{ type: 'text', text: 'a' }], usage: undefined }), req, testContext());
    expect(r.choices[0]!.extras).toBeUndefined();
    expect(r).not.toHaveProperty('usage');
  });

  it('structured output through json_response: the answer is the text and the stop is plain; beside a real tool call it stays tool-calls', () => {
    const sreq: ChatRequest = { ...req, responseFormat: { type: 'json-schema', name: 'x', schema: { type: 'object' } } };
    const only = decodeResponse(message({ content: [{ type: 'tool_use', id: 't', name: 'json_response', input: { a: 1 } }], stop_reason: 'tool_use' }), sreq, testContext());
    expect(only.choices[0]).toMatchObject({ content: [{ type: 'text', text: '{"a":1}' }], finishReason: { unified: 'stop', raw: 'tool_use' } });
    const both = decodeResponse(
      message({ content: [{ type: 'tool_use', id: 't', name: 'json_response', input: {} }, { type: 'tool_use', id: 'u', name: 'f', input: {} }], stop_reason: 'tool_use' }),
      sreq,
      testContext(),
    );
    expect(both.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    const plain = decodeResponse(message({ content: [{ type: 'tool_use', id: 't', name: 'json_response', input: {} }], stop_reason: 'tool_use' }), req, testContext());
    expect(plain.choices[0]!.content).toEqual([{ type: 'tool-call', id: 't', name: 'json_response', arguments: '{}' }]);
  });

  it('a body that is not a message is an upstream error with the body as raw', () => {
    expect(() => decodeResponse({ type: 'nope' }, req, testContext())).toThrow(
      expect.objectContaining({ kind: 'upstream', message: 'Anthropic upstream returned a body that is not a message.', raw: '{"type":"nope"}' }),
    );
  });
});

describe('canonical answer → anthropic Message', () => {
  it('the caller’s model when the upstream names none; an id that is not msg_ is replaced', () => {
    const m = encodeResponse(res({ model: '', id: 'chatcmpl-1' }), req, testContext());
    expect(m.model).toBe('asked-model');
    expect(m.id).toMatch(/^msg_/);
    expect(m.id).not.toBe('chatcmpl-1');
    expect(encodeResponse(res(), req, testContext()).id).toBe('msg_r');
  });

  it('server blocks go back at their index (or at the end when the content is shorter)', () => {
    const block = (n: number) => ({ type: 'web_search_tool_result', tool_use_id: `s${n}`, content: [] });
    const m = encodeResponse(
      res({
        choices: [
          {
            index: 0,
            content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }],
            finishReason: { unified: 'stop' },
            extras: { dialect: 'anthropic', fields: { serverBlocks: [{ index: 1, block: block(1) }, { index: 9, block: block(9) }], stop_details: { type: 'refusal' } } },
          },
        ],
      }),
      req,
      testContext(),
    );
    expect(m.content.map((b: any) => b.text ?? b.tool_use_id)).toEqual(['a', 's1', 'b', 's9']);
    expect(m.stop_details).toEqual({ type: 'refusal' });
    expect(encodeResponse(res(), req, testContext()).stop_details).toBeNull();
  });

  it('stop_reason: tool_use when the answer holds a call (Gemini says STOP); refusal when the prompt was blocked', () => {
    const call = res({ choices: [{ index: 0, content: [{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }], finishReason: { unified: 'stop' } }] });
    expect(encodeResponse(call, req, testContext()).stop_reason).toBe('tool_use');
    expect(encodeResponse(res(), req, testContext()).stop_reason).toBe('end_turn');
    const blocked = encodeResponse(res({ choices: [], promptBlocked: { reason: 'SAFETY' } } as Partial<ChatResponse>), req, testContext());
    expect(blocked).toMatchObject({ stop_reason: 'refusal', content: [] });
  });

  it('blocks: empty text is skipped; unsigned thinking has an empty signature; parts with no response block are left out', () => {
    expect(
      encodeBlocks([
        { type: 'text', text: '' },
        { type: 'refusal', text: '' },
        { type: 'reasoning', text: 'hm' },
        { type: 'image', source: { type: 'url', url: 'https://x' } },
      ]),
    ).toEqual([{ type: 'thinking', thinking: 'hm', signature: '' }]);
  });

  it('tool input: an object as is; empty, invalid, an array or a scalar → {}', () => {
    expect(inputOf('{"a":[1]}')).toEqual({ a: [1] });
    for (const s of ['', '  ', '{', '[1]', '3', 'null']) expect(inputOf(s)).toEqual({});
  });
});
