/**
 * Canonical response → chat.completion, for what the fixtures do not show: a missing id, a
 * Gemini-signed answer text, several refusals, images in an answer, a blocked prompt that still
 * has choices, and no choices at all.
 */
import { expect, test } from 'vitest';
import { encodeSignature, type ChatRequest, type ChatResponse, type Choice } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { encodeResponse } from './encode-response.ts';
import { decodeAnnotation } from './citations.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [], stream: false };
const encode = (res: ChatResponse) => encodeResponse(res, req, testContext()) as any;
const res = (choices: Choice[], extra: Partial<ChatResponse> = {}): ChatResponse => ({ id: 'chatcmpl-1', model: 'm', created: 1, choices, ...extra });
const choice = (content: Choice['content']): Choice => ({ index: 0, content, finishReason: { unified: 'stop' } });

test('a response without an id gets a fresh chatcmpl- id; a foreign id gets the prefix', () => {
  expect(encode(res([], { id: '' })).id).toBe('chatcmpl-test0001');
  expect(encode(res([], { id: 'msg_1' })).id).toBe('chatcmpl-msg_1');
});

test("a Gemini signature on the answer text rides as an empty signed reasoning detail", () => {
  const gem = { origin: 'gemini' as const, value: 'G' };
  expect(encode(res([choice([{ type: 'text', text: 'Hi', signature: gem }])])).choices[0].message).toEqual({
    role: 'assistant',
    content: 'Hi',
    refusal: null,
    reasoning_details: [{ type: 'reasoning.text', text: '', signature: encodeSignature(gem) }],
    annotations: [],
  });
});

test('several refusals are one string; images and files in an answer are left out', () => {
  const message = encode(
    res([
      choice([
        { type: 'refusal', text: 'No, ' },
        { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
        { type: 'refusal', text: 'sorry.' },
        { type: 'file', source: { type: 'file-id', id: 'file_1' } },
      ]),
    ]),
  ).choices[0].message;
  expect(message).toEqual({ role: 'assistant', content: null, refusal: 'No, sorry.', annotations: [] });
});

test('a blocked prompt that still has choices keeps them; no choices and no block is an empty list', () => {
  const blocked = encode(res([choice([{ type: 'text', text: 'partial' }])], { promptBlocked: { reason: 'SAFETY' } }));
  expect(blocked.choices).toHaveLength(1);
  expect(blocked.choices[0].message.content).toBe('partial');
  expect(encode(res([])).choices).toEqual([]);
});

test('a caller whose request carried other Chat extras, but not legacy functions, gets tool_calls', () => {
  const withExtras: ChatRequest = { ...req, extras: { dialect: 'openai-chat', fields: { store: true } } };
  const out = encodeResponse(res([{ index: 0, content: [{ type: 'tool-call', id: 'call_a', name: 'f', arguments: '{}' }], finishReason: { unified: 'tool-calls' } }]), withExtras, testContext()) as any;
  expect(out.choices[0].message.tool_calls).toEqual([{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } }]);
  expect(out.choices[0].message.function_call).toBeUndefined();
  expect(out.choices[0].finish_reason).toBe('tool_calls');
});

test('another dialect\'s citation is no annotation even shaped as one; audio extras must be an object', () => {
  const chat = { type: 'url_citation', url_citation: { start_index: 0, end_index: 2, url: 'https://a', title: 'A' } };
  const other = { raw: { dialect: 'anthropic' as const, value: { type: 'url_citation', url_citation: { url: 'https://b' } } } };
  const out = encode(res([{ ...choice([{ type: 'text', text: 'Hi', citations: [other, decodeAnnotation(chat)] }]), extras: { dialect: 'openai-chat', fields: { audio: 'x' } } }]));
  expect(out.choices[0].message.annotations).toEqual([chat]);
  expect(Object.keys(out.choices[0].message)).not.toContain('audio');
});
