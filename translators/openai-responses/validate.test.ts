import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import { decodeRequest } from './decode-request.ts';
import { invalid, parseAt } from './validate.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const base = { model: 'gpt-5.1', input: 'hi' };

/** The 400 a body gets, as the caller reads it. */
function rejection(body: unknown): { message: string; param: string | undefined; code: string | undefined; kind: string } {
  const { message, param, code, kind } = proxyErrorOf(() => decodeRequest({ body, headers: {}, params: {}, query: {} }));
  return { message, param, code, kind };
}

describe('Responses caller validation: the message, parameter and code of each kind of mistake', () => {
  it.each([
    [{ input: 'hi' }, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter'],
    [{ ...base, reasoning: { effort: 'extreme' } }, `Invalid value for 'reasoning.effort': expected one of "none", "minimal", "low", "medium", "high", "xhigh", "max", but got "extreme" instead.`, 'reasoning.effort', 'invalid_value'],
    [{ ...base, max_output_tokens: 1.5 }, "Invalid type for 'max_output_tokens': expected an integer, but got a decimal instead.", 'max_output_tokens', 'invalid_type'],
    [{ ...base, top_logprobs: 2.5 }, "Invalid type for 'top_logprobs': expected an integer, but got a decimal instead.", 'top_logprobs', 'invalid_type'],
    [{ ...base, max_output_tokens: 0 }, "Invalid value for 'max_output_tokens': must be at least 1.", 'max_output_tokens', 'invalid_value'],
    [{ ...base, temperature: 3 }, "Invalid value for 'temperature': must be at most 2.", 'temperature', 'invalid_value'],
    [{ ...base, top_p: -0.5 }, "Invalid value for 'top_p': must be at least 0.", 'top_p', 'invalid_value'],
    [{ ...base, input: [{ role: 'user', content: [{ type: 'input_text', text: 1 }] }] }, "Invalid type for 'input[0].content[0].text': expected a string, but got an integer instead.", 'input[0].content[0].text', 'invalid_type'],
  ])('%j', (body, message, param, code) => {
    expect(rejection(body)).toEqual({ kind: 'invalid-request', message, param, code });
  });

  it('a path names array items by index and object keys by dot, from the prefix on', () => {
    const schema = v.object({ a: v.array(v.object({ b: v.string() })) });
    expect(() => parseAt(schema, { a: [{ b: 'x' }, { b: 2 }] }, 'text.format')).toThrow(
      expect.objectContaining({ param: 'text.format.a[1].b', message: "Invalid type for 'text.format.a[1].b': expected a string, but got an integer instead." }),
    );
    expect(() => parseAt(schema, { a: [{ b: 2 }] }, '')).toThrow(expect.objectContaining({ param: 'a[0].b' }));
  });

  it('a wrong literal or variant tag is an invalid value, quoted', () => {
    expect(() => parseAt(v.object({ a: v.literal('x') }), { a: 'y' }, '')).toThrow(expect.objectContaining({ message: `Invalid value for 'a': expected "x", but got "y" instead.`, param: 'a', code: 'invalid_value' }));
    expect(rejection({ ...base, tools: [{ type: 'custom', name: 'p', format: { type: 'yaml' } }] })).toEqual({
      kind: 'invalid-request',
      message: `Invalid value for 'tools[0].format.type': expected one of "text", "grammar", but got "yaml" instead.`,
      param: 'tools[0].format.type',
      code: 'invalid_value',
    });
  });

  it('a bad key of a record names the record, not the key', () => {
    const schema = v.object({ m: v.record(v.pipe(v.string(), v.maxLength(3)), v.string()) });
    expect(() => parseAt(schema, { m: { toolong: 'x' } }, '')).toThrow(expect.objectContaining({ param: 'm' }));
    expect(() => parseAt(schema, { m: { ok: 5 } }, '')).toThrow(expect.objectContaining({ param: 'm.ok' }));
  });

  it('a check without an expected value still reads as a sentence', () => {
    const schema = v.pipe(v.string(), v.check((s) => s === 'yes', 'no'));
    expect(() => parseAt(schema, 'maybe', 'flag')).toThrow(
      expect.objectContaining({ message: `Invalid value for 'flag': no.`, param: 'flag', code: 'invalid_value' }),
    );
  });

  it('the values of each JSON kind, in OpenAI words', () => {
    const got = (value: unknown) => {
      try {
        parseAt(v.string(), value, 'p');
      } catch (e) {
        return (e as ProxyError).message.replace(/^.*but got (.*) instead\.$/, '$1');
      }
      return 'accepted';
    };
    expect([null, [1], { a: 1 }, 1, 1.5, true, 'ok'].map(got)).toEqual(['null', 'an array', 'an object', 'an integer', 'a decimal', 'a boolean', 'accepted']);
    expect(invalid('Bad.', 'p')).toMatchObject({ kind: 'invalid-request', message: 'Bad.', param: 'p', code: 'invalid_value' });
  });
});
