/**
 * A chat.completion body → canonical response, for bodies the fixtures do not show: nothing but
 * what the upstream sent (no empty extras or logprobs), choices without a message, tool calls and
 * legacy function calls with parts missing, the wire's own choice index, refusal vs answer.
 */
import { expect, test } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';

const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: false };
const decode = (body: unknown) => decodeResponse(body, req, testContext());
const body = (choices: unknown[], extra: object = {}) => ({ id: 'r', object: 'chat.completion', created: 7, model: 'm', choices, ...extra });

test('a bare answer decodes to exactly its id, model, created and choice', () => {
  expect(decode(body([{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }]))).toStrictEqual({
    id: 'r',
    model: 'm',
    created: 7,
    choices: [{ index: 0, content: [{ type: 'text', text: 'hi' }], finishReason: { unified: 'stop', raw: 'stop' } }],
  });
});

test('null fingerprint and service tier are left out; each one given is kept', () => {
  const choice = { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' };
  expect(decode(body([choice], { system_fingerprint: null, service_tier: null })).extras).toBeUndefined();
  expect(decode(body([choice], { service_tier: 'default' })).extras).toStrictEqual({ dialect: 'openai-chat', fields: { service_tier: 'default' } });
  expect(decode(body([choice], { prompt_filter_results: [] })).extras).toStrictEqual({ dialect: 'openai-chat', fields: { prompt_filter_results: [] } });
});

test('a choice without a message has no content; its filter results are kept', () => {
  const filters = { hate: { filtered: true, severity: 'high' } };
  expect(decode(body([{ index: 0, finish_reason: 'content_filter', content_filter_results: filters }])).choices).toStrictEqual([
    { index: 0, content: [], finishReason: { unified: 'content-filter', raw: 'content_filter' }, extras: { dialect: 'openai-chat', fields: { content_filter_results: filters } } },
  ]);
});

test("the wire's choice index is kept, else the position", () => {
  const msg = { role: 'assistant', content: 'x' };
  expect(decode(body([{ index: 2, message: msg, finish_reason: 'stop' }, { message: msg, finish_reason: 'stop' }])).choices.map((c) => c.index)).toEqual([2, 1]);
});

test('tool calls and a legacy function call with missing parts decode with empty strings', () => {
  const content = decode(
    body([
      {
        index: 0,
        message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function' }], function_call: {} },
        finish_reason: 'tool_calls',
      },
    ]),
  ).choices[0]!.content;
  expect(content).toStrictEqual([
    { type: 'tool-call', id: 'call_a', name: '', arguments: '' },
    { type: 'tool-call', id: 'call_test0001', name: '', arguments: '' },
  ]);
});

test('a refusal beside an answer is an answer; a refusal alone is a refusal', () => {
  const reason = (message: object) => decode(body([{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }])).choices[0]!.finishReason;
  expect(reason({ content: 'partly', refusal: 'not that' })).toEqual({ unified: 'stop', raw: 'stop' });
  expect(reason({ content: null, refusal: 'No.' })).toEqual({ unified: 'refusal', raw: 'stop' });
  expect(reason({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] })).toEqual({ unified: 'stop', raw: 'stop' });
  expect(reason({ content: null, refusal: 'No.', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] })).toEqual({ unified: 'refusal', raw: 'stop' });
});
