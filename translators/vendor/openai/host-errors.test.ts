import { describe, expect, it } from 'vitest';
import { hostErrorDetail } from './host-errors.ts';

const extra = (field: string, input: unknown = {}) => ({ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted', input });

describe('hostErrorDetail: Mistral and FastAPI error bodies', () => {
  it("Mistral's 422: a message object with pydantic's detail list; the envelope's type, its null code and param left out", () => {
    const body = { object: 'error', message: { detail: [extra('stream_options')] }, type: 'invalid_request_error', param: null, code: null };
    expect(hostErrorDetail(body)).toStrictEqual({ message: 'stream_options: Extra inputs are not permitted', param: 'stream_options', type: 'invalid_request_error' });
  });

  it('a message holding that object as a JSON string (leading blanks too), or a list as one', () => {
    const asString = { message: `  ${JSON.stringify({ detail: [extra('max_completion_tokens')] })}`, type: 'invalid_request_error' };
    expect(hostErrorDetail(asString)).toStrictEqual({ message: 'max_completion_tokens: Extra inputs are not permitted', param: 'max_completion_tokens', type: 'invalid_request_error' });
    const list = { message: JSON.stringify([extra('n')]) };
    expect(hostErrorDetail(list)).toStrictEqual({ message: 'n: Extra inputs are not permitted', param: 'n' });
  });

  it('a plain string message is not ours (the OpenAI reader takes it), nor a string that only looks like JSON, nor text before a brace', () => {
    expect(hostErrorDetail({ message: 'Invalid model' })).toBeUndefined();
    expect(hostErrorDetail({ message: '{not json' })).toBeUndefined();
    expect(hostErrorDetail({ message: 'x {"detail":"y"}' })).toBeUndefined();
    expect(hostErrorDetail({ message: 42 })).toBeUndefined();
    expect(hostErrorDetail('{"detail":"x"}')).toBeUndefined();
    expect(hostErrorDetail([{ detail: 'x' }])).toBeUndefined();
    expect(hostErrorDetail({})).toBeUndefined();
  });

  it('a bare FastAPI body: every line "field: msg" joined, the first field the param; loc without its leading body, nested paths dotted', () => {
    const body = {
      detail: [
        { type: 'missing', loc: ['body', 'messages', 0, 'content'], msg: 'Field required' },
        extra('seed'),
        { type: 'x', loc: ['query', 'body'], msg: 'odd' },
      ],
    };
    expect(hostErrorDetail(body)).toStrictEqual({ message: 'messages.0.content: Field required; seed: Extra inputs are not permitted; query.body: odd', param: 'messages.0.content' });
  });

  it('a detail line with no loc, or only body, is its msg alone and names no param; a later line gives the param', () => {
    expect(hostErrorDetail({ detail: [{ msg: 'bad' }] })).toStrictEqual({ message: 'bad' });
    expect(hostErrorDetail({ detail: [{ loc: ['body'], msg: 'whole body bad' }] })).toStrictEqual({ message: 'whole body bad' });
    expect(hostErrorDetail({ detail: [{ loc: 'body.x', msg: 'a' }, { loc: ['body', 'top_k'], msg: 'b' }] })).toStrictEqual({ message: 'a; top_k: b', param: 'top_k' });
  });

  it('a detail line that is not an object, or has no string msg, is written as its JSON', () => {
    expect(hostErrorDetail({ detail: ['oops', 3] })).toStrictEqual({ message: '"oops"; 3' });
    const line = { loc: ['body', 'tools'], msg: { text: 'no' } };
    expect(hostErrorDetail({ detail: [line] })).toStrictEqual({ message: `tools: ${JSON.stringify(line)}`, param: 'tools' });
  });

  it('a string detail is the message; an empty one, an empty list or another value is no detail', () => {
    expect(hostErrorDetail({ detail: 'Not authenticated' })).toStrictEqual({ message: 'Not authenticated' });
    expect(hostErrorDetail({ detail: '' })).toBeUndefined();
    expect(hostErrorDetail({ detail: [] })).toBeUndefined();
    expect(hostErrorDetail({ detail: { msg: 'x' } })).toBeUndefined();
  });

  it('a message object without detail: its own message string, else the object as JSON', () => {
    expect(hostErrorDetail({ message: { message: 'Upstream down' } })).toStrictEqual({ message: 'Upstream down' });
    expect(hostErrorDetail({ message: { message: '', reason: 'r' } })).toStrictEqual({ message: '{"message":"","reason":"r"}' });
    expect(hostErrorDetail({ message: { reason: 'r' } })).toStrictEqual({ message: '{"reason":"r"}' });
    expect(hostErrorDetail({ message: { detail: [] } })).toStrictEqual({ message: '{"detail":[]}' });
  });

  it('inside an error object: its message or detail read, and its type, code (numbers as text) and param taken', () => {
    expect(hostErrorDetail({ error: { message: { detail: [extra('logprobs')] }, type: 'validation', code: 422, param: 'logprobs_x' } })).toStrictEqual({
      message: 'logprobs: Extra inputs are not permitted',
      param: 'logprobs_x',
      type: 'validation',
      code: '422',
    });
    expect(hostErrorDetail({ error: { detail: 'Too many tokens', code: 'too_long' } })).toStrictEqual({ message: 'Too many tokens', code: 'too_long' });
    expect(hostErrorDetail({ error: { message: 'plain' } })).toBeUndefined();
    expect(hostErrorDetail({ error: 'text' })).toBeUndefined();
  });

  it('a top-level message or detail wins over the error object, and the fields are the top level\'s then', () => {
    const body = { message: { detail: [extra('a')] }, type: 'top', code: 'top_code', error: { message: { detail: [extra('b')] }, type: 'inner', code: 'inner_code' } };
    expect(hostErrorDetail(body)).toStrictEqual({ message: 'a: Extra inputs are not permitted', param: 'a', type: 'top', code: 'top_code' });
    // A top-level plain message is no detail, but the top level still names the fields.
    const plain = { message: 'plain', type: 'top', error: { detail: 'inner detail', type: 'inner' } };
    expect(hostErrorDetail(plain)).toStrictEqual({ message: 'inner detail', type: 'top' });
    const withDetail = { detail: 'top detail', error: { type: 'inner' } };
    expect(hostErrorDetail(withDetail)).toStrictEqual({ message: 'top detail' });
  });

  it('an empty code, a null one, or a type or param that is not a string is left out', () => {
    expect(hostErrorDetail({ detail: 'x', code: '', type: 5, param: 7 })).toStrictEqual({ message: 'x' });
    expect(hostErrorDetail({ detail: 'x', code: 0 })).toStrictEqual({ message: 'x', code: '0' });
    expect(hostErrorDetail({ detail: [extra('f')], param: '' })).toStrictEqual({ message: 'f: Extra inputs are not permitted', param: 'f' });
  });
});
