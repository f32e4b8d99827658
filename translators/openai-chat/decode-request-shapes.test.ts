/**
 * The exact canonical shape a Chat Completions body decodes to: only what the caller gave is
 * present (no key set to undefined), optional tool and schema fields appear only when sent, and the
 * legacy `functions` / `function_call` forms and a non-object body are answered like OpenAI does.
 */
import { describe, expect, test } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';

function decode(body: unknown) {
  return decodeRequest({ body, headers: {}, params: {}, query: {} }, testContext());
}

const hi = { role: 'user', content: 'hi' };
const userHi = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

function rejection(body: unknown): ProxyError {
  try {
    decode(body);
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    return e as ProxyError;
  }
  throw new Error('expected a rejection');
}

describe('only what the caller sent', () => {
  test('a minimal body decodes to model, system, messages and stream and nothing else', () => {
    const { value, warnings } = decode({ model: 'm', messages: [hi] });
    expect(value).toStrictEqual({ model: 'm', system: [], messages: [userHi], stream: false });
    expect(warnings).toEqual([]);
  });

  test('null parameters are the same as absent ones, and an unknown null field is not carried', () => {
    const nulls = Object.fromEntries(
      ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'n', 'logprobs', 'top_logprobs', 'stop', 'max_tokens', 'max_completion_tokens', 'seed', 'user', 'stream', 'stream_options', 'parallel_tool_calls', 'reasoning_effort', 'modalities', 'metadata', 'logit_bias', 'tools', 'functions', 'tool_choice', 'function_call', 'response_format', 'future_field'].map((k) => [k, null]),
    );
    expect(decode({ model: 'm', messages: [hi], ...nulls }).value).toStrictEqual({ model: 'm', system: [], messages: [userHi], stream: false });
  });
});

describe('tools', () => {
  test('a tool with only a name stays bare; description, parameters and strict only when sent', () => {
    const { value } = decode({
      model: 'm',
      messages: [hi],
      tools: [
        { type: 'function', function: { name: 'bare' } },
        { type: 'function', function: { name: 'full', description: 'd', parameters: { type: 'object' }, strict: true } },
        { type: 'function', function: { name: 'nullStrict', strict: null } },
      ],
    });
    expect(value.tools).toStrictEqual([{ name: 'bare' }, { name: 'full', description: 'd', parameters: { type: 'object' }, strict: true }, { name: 'nullStrict' }]);
  });

  test('legacy functions: the same, and marked as legacy only when tools are not also given', () => {
    const legacy = decode({ model: 'm', messages: [hi], functions: [{ name: 'bare' }, { name: 'full', description: 'd', parameters: { type: 'object' } }] });
    expect(legacy.value.tools).toStrictEqual([{ name: 'bare' }, { name: 'full', description: 'd', parameters: { type: 'object' } }]);
    expect(legacy.value.extras).toStrictEqual({ dialect: 'openai-chat', fields: {}, legacyFunctions: true });

    const both = decode({ model: 'm', messages: [hi], tools: [{ type: 'function', function: { name: 't' } }], functions: [{ name: 'f' }] });
    expect(both.value.tools).toStrictEqual([{ name: 't' }]);
    expect(both.value.extras).toBeUndefined();
  });

  test('function_call: "none"/"auto" as choice types, a name as a forced tool; without functions it is refused', () => {
    const functions = [{ name: 'f' }];
    expect(decode({ model: 'm', messages: [hi], functions, function_call: 'none' }).value.toolChoice).toStrictEqual({ type: 'none' });
    expect(decode({ model: 'm', messages: [hi], functions, function_call: 'auto' }).value.toolChoice).toStrictEqual({ type: 'auto' });
    expect(decode({ model: 'm', messages: [hi], functions, function_call: { name: 'f' } }).value.toolChoice).toStrictEqual({ type: 'tool', name: 'f' });

    const e = rejection({ model: 'm', messages: [hi], function_call: 'auto' });
    expect([e.kind, e.param, e.message]).toEqual(['invalid-request', 'function_call', "Invalid value for 'function_call': 'function_call' is only allowed when 'functions' are specified."]);
    const bad = rejection({ model: 'm', messages: [hi], functions, function_call: 'required' });
    expect([bad.param, bad.message]).toEqual(['function_call', "Invalid value for 'function_call': expected 'none', 'auto' or an object with a name."]);
  });

  test('allowed_tools keeps the names of function entries only', () => {
    const { value } = decode({
      model: 'm',
      messages: [hi],
      tools: [{ type: 'function', function: { name: 'f' } }],
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'custom' }, { type: 'function', function: { name: 'f' } }] } },
    });
    expect(value.toolChoice).toStrictEqual({ type: 'allowed', mode: 'auto', names: ['f'] });
  });
});

describe('response_format and reasoning_effort', () => {
  test('text, and a json_schema with or without its description and strict flag', () => {
    expect(decode({ model: 'm', messages: [hi], response_format: { type: 'text' } }).value.responseFormat).toStrictEqual({ type: 'text' });
    const full = { type: 'json_schema', json_schema: { name: 'n', description: 'd', schema: { type: 'object' }, strict: true } };
    expect(decode({ model: 'm', messages: [hi], response_format: full }).value.responseFormat).toStrictEqual({ type: 'json-schema', name: 'n', description: 'd', schema: { type: 'object' }, strict: true });
    const bare = { type: 'json_schema', json_schema: { name: 'n', schema: { type: 'object' }, strict: null } };
    expect(decode({ model: 'm', messages: [hi], response_format: bare }).value.responseFormat).toStrictEqual({ type: 'json-schema', name: 'n', schema: { type: 'object' } });
  });

  test('xhigh is sent as high, and the warning says so', () => {
    expect(decode({ model: 'm', messages: [hi], reasoning_effort: 'xhigh' }).warnings).toStrictEqual([{ code: 'approximated', path: 'reasoning_effort', detail: 'xhigh→high' }]);
  });
});

test.each([null, 42, 'text', [], [{ model: 'm' }], true])('a non-object body (%j) is refused with OpenAI\'s message', (body) => {
  const e = rejection(body);
  expect([e.kind, e.message]).toEqual(['invalid-request', 'We could not parse the JSON body of your request. The body must be a JSON object.']);
});
