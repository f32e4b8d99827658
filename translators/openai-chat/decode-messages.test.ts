/**
 * Chat Completions messages → canonical messages, for what the request tests leave out: optional
 * part fields only when sent, errors that name the exact part, and legacy function results with
 * no call to answer.
 */
import { expect, test } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';

function decode(messages: unknown[]) {
  return decodeRequest({ body: { model: 'm', messages }, headers: {}, params: {}, query: {} }, testContext()).value;
}

function rejection(messages: unknown[]): [string | undefined, string] {
  try {
    decode(messages);
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    return [(e as ProxyError).param, (e as ProxyError).message];
  }
  throw new Error('expected a rejection');
}

const q = { role: 'user', content: 'q' };

test('user parts: an image without detail and files without a name carry no such keys', () => {
  const [user] = decode([
    {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'https://x/y.png' } },
        { type: 'file', file: { file_id: 'file_1' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,QUJD' } },
        { type: 'file', file: { file_data: 'QUJD', filename: 'a.pdf' } },
      ],
    },
  ]).messages;
  expect(user!.content).toStrictEqual([
    { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
    { type: 'file', source: { type: 'file-id', id: 'file_1' } },
    { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'QUJD' } },
    { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'QUJD' }, filename: 'a.pdf' },
  ]);
});

test('an assistant turn without a name carries none; with one it is kept', () => {
  const [, plain, named] = decode([q, { role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b', name: 'bot' }]).messages;
  expect(plain).toStrictEqual({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
  expect(named).toStrictEqual({ role: 'assistant', content: [{ type: 'text', text: 'b' }], name: 'bot' });
});

test('a bad part is named by its place in the conversation', () => {
  expect(rejection([q, { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'image_url', image_url: { url: 'x' } }] }])).toEqual([
    'messages[1].content[1].type',
    "Invalid value: 'image_url'. Supported values are: 'text', and 'refusal'.",
  ]);
  expect(rejection([q, { role: 'tool', tool_call_id: 'a', content: [{ type: 'text', text: 'a' }, { type: 'image_url' }] }])).toEqual([
    'messages[1].content[1].type',
    "Invalid value: 'image_url'. Supported values are: 'text'.",
  ]);
});

test('a function result with no call before it gets an id of its own; without content it is empty', () => {
  expect(decode([q, { role: 'function', name: 'f', content: null }]).messages[1]).toStrictEqual({
    role: 'user',
    content: [{ type: 'tool-result', callId: 'call_test0001', name: 'f', content: [] }],
  });
});

test('a legacy function result after a tool result joins the same turn of results', () => {
  const calls = { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] };
  const { messages } = decode([q, calls, { role: 'tool', tool_call_id: 'a', content: 'ra' }, { role: 'function', name: 'g', content: 'rg' }]);
  expect(messages.slice(2)).toStrictEqual([
    {
      role: 'user',
      content: [
        { type: 'tool-result', callId: 'a', content: [{ type: 'text', text: 'ra' }] },
        { type: 'tool-result', callId: 'call_test0001', name: 'g', content: [{ type: 'text', text: 'rg' }] },
      ],
    },
  ]);
});
