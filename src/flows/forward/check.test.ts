/**
 * Each dialect's forwarding as it declares it (`ChatCaller.forward`): where the model and the
 * stream flag come from, and the check, which decodes every field but the conversation (the
 * upstream checks that itself). Forwarding must never read the caller's parsed body.
 */
import { describe, expect, it } from 'vitest';
import { peekJson } from '../../kit/index.ts';
import { testContext } from '../../../test/support/fixtures.ts';
import type { CallerInput, ChatCaller } from '../../../translators/types.ts';
import { anthropic } from '../../../translators/anthropic/index.ts';
import { gemini } from '../../../translators/gemini/index.ts';
import { geminiInteractions } from '../../../translators/gemini-interactions/index.ts';
import { openaiChat } from '../../../translators/openai-chat/index.ts';
import { openaiResponses } from '../../../translators/openai-responses/index.ts';
import { checkKey, checkedExcept, holdsConversation, passesCheck } from './check.ts';
import { forwardedModel } from './index.ts';

const input = (params: Record<string, string> = {}, headers: Record<string, string> = {}): CallerInput => ({
  get body(): never {
    throw new Error('body read');
  },
  headers,
  params,
  query: {},
});
const bytes = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));
const raw = (text: string) => new TextEncoder().encode(text);
const modelOf = (caller: ChatCaller, i: CallerInput, body?: unknown) => forwardedModel(caller.forward!, i, body === undefined ? undefined : peekJson(bytes(body)));
const checker = (caller: ChatCaller, i: CallerInput) => (body: unknown) => {
  const b = bytes(body);
  return passesCheck(caller, i, { bytes: b, top: peekJson(b)! }, testContext());
};

describe('gemini forwarding', () => {
  it('the model and the stream flag come from the path; no model, no forwarding', () => {
    expect(modelOf(gemini, input({ model: 'gemini-2.5-flash', method: 'streamGenerateContent' }))).toEqual({ model: 'gemini-2.5-flash', stream: true });
    expect(modelOf(gemini, input({ model: 'gemini-2.5-flash', method: 'generateContent' }))).toEqual({ model: 'gemini-2.5-flash', stream: false });
    expect(modelOf(gemini, input({ method: 'generateContent' }))).toBeUndefined();
  });

  it('the check passes any conversation and refuses a bad parameter', () => {
    const check = checker(gemini, input({ model: 'gemini-2.5-flash', method: 'generateContent' }));
    expect(check({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 1 } })).toBe(true);
    expect(check({ contents: [{ role: 'robot', parts: 5 }] })).toBe(true);
    expect(check({ contents: [], generationConfig: { temperature: 9 } })).toBe(false);
    expect(check({ contents: [], generationConfig: { responseModalities: ['SMELL'] } })).toBe(false);
  });

  it('the check reads the model and the method from the path', () => {
    expect(checkKey(gemini.forward!, input({ model: 'a', method: 'generateContent' }))).not.toBe(checkKey(gemini.forward!, input({ model: 'b', method: 'generateContent' })));
    expect(checkKey(gemini.forward!, input({ model: 'a', method: 'generateContent' }))).not.toBe(checkKey(gemini.forward!, input({ model: 'a', method: 'streamGenerateContent' })));
  });
});

describe('openai-chat forwarding', () => {
  it('the model and stream flag come from the top level only when plainly there', () => {
    expect(modelOf(openaiChat, input())).toBeUndefined();
    expect(modelOf(openaiChat, input(), { model: 'gpt-4o', stream: true, messages: [] })).toEqual({ model: 'gpt-4o', stream: true });
    expect(modelOf(openaiChat, input(), { model: 'gpt-4o', messages: [] })).toEqual({ model: 'gpt-4o', stream: false });
  });

  it('the check decodes every parameter but the conversation (the upstream checks that)', () => {
    const check = checker(openaiChat, input());
    expect(check({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], temperature: 1 })).toBe(true);
    expect(check({ model: 'gpt-4o', messages: [{ role: 'robot', content: 5 }] })).toBe(true);
    expect(check({ model: 'gpt-4o', messages: [], temperature: 9 })).toBe(false);
    expect(check({ model: 'gpt-4o', messages: [], tool_choice: 'required' })).toBe(false);
  });
});

describe('openai-responses forwarding', () => {
  it('the model and stream flag come from the top level only when plainly there', () => {
    expect(modelOf(openaiResponses, input())).toBeUndefined();
    expect(modelOf(openaiResponses, input(), { model: 'gpt-5.1', stream: true, input: 'hi' })).toEqual({ model: 'gpt-5.1', stream: true });
    expect(modelOf(openaiResponses, input(), { model: 'gpt-5.1', input: 'hi' })).toEqual({ model: 'gpt-5.1', stream: false });
    expect(modelOf(openaiResponses, input(), { model: 'gpt-5.1', stream: 'yes' })).toBeUndefined();
  });

  it('the check decodes every parameter but the conversation (the upstream checks that)', () => {
    const check = checker(openaiResponses, input());
    expect(check({ model: 'gpt-5.1', input: [{ type: 'message', role: 'user', content: 'hi' }], temperature: 1 })).toBe(true);
    expect(check({ model: 'gpt-5.1', input: [{ type: 'message', role: 'robot', content: 5 }] })).toBe(true);
    expect(check({ model: 'gpt-5.1', input: 'hi', temperature: 9 })).toBe(false);
    expect(check({ model: 'gpt-5.1', input: 'hi', tool_choice: { type: 'function', name: 'f' } })).toBe(false);
  });
});

describe('gemini-interactions forwarding', () => {
  it('model and stream from the body’s top level, nothing before the scan', () => {
    expect(modelOf(geminiInteractions, input(), { model: 'gemini-3-flash-preview', stream: true, input: 'x' })).toEqual({ model: 'gemini-3-flash-preview', stream: true });
    expect(modelOf(geminiInteractions, input())).toBeUndefined();
  });

  it('check: the settings are checked with the conversation left to the upstream', () => {
    const check = checker(geminiInteractions, input());
    expect(check({ model: 'm', input: [{ type: 'not-checked-here' }], generation_config: { temperature: 1 } })).toBe(true);
    expect(check({ model: 'm', input: 'x', generation_config: { temperature: 'hot' } })).toBe(false);
  });
});

describe('anthropic forwarding', () => {
  const body = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

  it('the check reads the version header and the route: without the header it fails, on count_tokens max_tokens may be missing', () => {
    expect(checker(anthropic, input({}, { 'anthropic-version': '2023-06-01' }))(body)).toBe(true);
    expect(checker(anthropic, input({}, {}))(body)).toBe(false);
    const { max_tokens: _, ...count } = body;
    expect(checker(anthropic, input({}, { 'anthropic-version': '2023-06-01' }))(count)).toBe(false);
    expect(checker(anthropic, input({ method: 'count_tokens' }, { 'anthropic-version': '2023-06-01' }))(count)).toBe(true);
  });

  it('what the check reads besides the body tells requests apart', () => {
    const key = (params: Record<string, string>, headers: Record<string, string>) => checkKey(anthropic.forward!, input(params, headers));
    expect(key({}, { 'anthropic-version': '2023-06-01' })).not.toBe(key({}, {}));
    expect(key({}, { 'compat-version': '2023-06-01' })).not.toBe(key({}, {}));
    expect(key({ method: 'count_tokens' }, { 'anthropic-version': '2023-06-01' })).not.toBe(key({}, { 'anthropic-version': '2023-06-01' }));
    expect(key({}, { 'anthropic-version': '2023-06-01', 'x-other': '1' })).toBe(key({}, { 'anthropic-version': '2023-06-01' }));
  });
});

describe('checkedExcept', () => {
  it('checkedExcept hands the check the fields with the conversation replaced, and says whether it passed', () => {
    const b = raw('{"model":"m","messages":[1,2,3],"temperature":3}');
    const seen: unknown[] = [];
    expect(checkedExcept(b, peekJson(b)!, 'messages', ['.'], (body) => seen.push(body))).toBe(true);
    expect(seen).toEqual([{ model: 'm', messages: ['.'], temperature: 3 }]);
    expect(checkedExcept(b, peekJson(b)!, 'messages', [], (body) => {
      if ((body as { temperature: number }).temperature > 2) throw new Error('temperature');
    })).toBe(false);
  });
});

describe('holdsConversation', () => {
  const holds = (body: string) => holdsConversation(raw(body), peekJson(raw(body))!, 'messages');
  it('is true for a non-empty list, object or string', () => {
    for (const v of ['[{"role":"user"}]', '[ 1 ]', '{"a":1}', '"hi"', '" "']) expect(holds(`{"model":"m","messages":${v}}`), v).toBe(true);
  });
  it('is false when the conversation is missing, empty or of another kind (the decoder answers those)', () => {
    for (const v of ['[]', '[ \n\t ]', '{}', '{ }', '""', 'null', '0', 'true']) expect(holds(`{"model":"m","messages":${v}}`), v).toBe(false);
    expect(holds('{"model":"m","input":[1]}')).toBe(false);
    // Given twice, both must hold something (the upstream's parser may read either).
    expect(holds('{"messages":[1],"model":"m","messages":[]}')).toBe(false);
    expect(holds('{"messages":[],"model":"m","messages":[1]}')).toBe(false);
  });
});
