import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../../src/canonical/errors.ts';
import { decodeOpenAIError, encodeOpenAIError, openAIErrorFromBody, openAIErrorKind, retryAfterOfMessage } from './errors.ts';

describe('OpenAI error envelope', () => {
  it('reads the waits OpenAI and Azure write in messages', () => {
    expect(retryAfterOfMessage('Please try again in 11.054s. Visit …')).toBe(11.054);
    expect(retryAfterOfMessage('Please try again in 28ms.')).toBe(0.028);
    expect(retryAfterOfMessage('Rate limit exceeded. Try again in 35 seconds.')).toBe(35);
    expect(retryAfterOfMessage('no hint')).toBeUndefined();
  });

  it('classifies in-stream errors by code, then type', () => {
    expect(openAIErrorKind(200, undefined, 'rate_limit_exceeded')).toBe('rate-limit');
    expect(openAIErrorKind(200, 'insufficient_quota', 'insufficient_quota')).toBe('rate-limit');
    expect(openAIErrorKind(200, undefined, 'context_length_exceeded')).toBe('invalid-request');
    expect(openAIErrorKind(200, 'server_error', 'server_error')).toBe('upstream');
    expect(openAIErrorKind(429, 'server_error', undefined)).toBe('rate-limit');
  });

  it('is not fooled by bodies of another shape', () => {
    expect(openAIErrorFromBody(400, { error: 'plain' }, '')).toBeUndefined();
    expect(openAIErrorFromBody(400, { error: { message: 5 } }, '')).toBeUndefined();
    expect(decodeOpenAIError(400, '{"error":"plain words"}', {}).message).toBe('plain words');
  });

  it('round-trips an envelope', () => {
    const raw = JSON.stringify({ error: { message: 'Slow down. Please try again in 2s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
    const err = decodeOpenAIError(429, raw, { 'x-request-id': 'req_9' });
    expect(err).toMatchObject({ kind: 'rate-limit', code: 'rate_limit_exceeded', retryAfter: 2, requestId: 'req_9', upstreamType: 'requests' });
    expect(encodeOpenAIError(err)).toEqual({ status: 429, body: JSON.parse(raw), headers: { 'retry-after': '2' } });
    expect(encodeOpenAIError(new ProxyError('overloaded', 'busy')).status).toBe(503);
  });
});

describe('OpenAI error kinds, in a stream (status 0 or 200) and over HTTP', () => {
  it('a bad key or an unknown model, whatever the status', () => {
    for (const status of [0, 200, 400]) {
      expect(openAIErrorKind(status, undefined, 'invalid_api_key'), String(status)).toBe('authentication');
      expect(openAIErrorKind(status, 'authentication_error', undefined), String(status)).toBe('authentication');
      expect(openAIErrorKind(status, undefined, 'model_not_found'), String(status)).toBe('not-found');
    }
  });

  it('in a stream, by code first, then by type; an unknown one is the upstream\'s', () => {
    expect(openAIErrorKind(0, undefined, 'rate_limit_exceeded')).toBe('rate-limit');
    expect(openAIErrorKind(200, 'server_error', 'invalid_prompt')).toBe('invalid-request');
    expect(openAIErrorKind(200, 'invalid_request_error', undefined)).toBe('invalid-request');
    for (const type of ['rate_limit_error', 'tokens', 'requests', 'insufficient_quota']) expect(openAIErrorKind(200, type, undefined), type).toBe('rate-limit');
    expect(openAIErrorKind(0, 'overloaded_error', undefined)).toBe('overloaded');
    expect(openAIErrorKind(200, 'server_error', undefined)).toBe('upstream');
    expect(openAIErrorKind(200, undefined, 'something_else')).toBe('upstream');
  });

  it('over HTTP, by status: a stream\'s codes and types do not decide', () => {
    expect(openAIErrorKind(400, 'requests', 'rate_limit_exceeded')).toBe('invalid-request');
    expect(openAIErrorKind(503, 'invalid_request_error', 'context_length_exceeded')).toBe('overloaded');
    expect(openAIErrorKind(500, 'overloaded_error', undefined)).toBe('upstream');
  });
});

describe('reading an OpenAI error body', () => {
  it('the wait in a message needs its unit; "second" and spaces are read', () => {
    expect(retryAfterOfMessage('Please try again in1s.')).toBe(1);
    expect(retryAfterOfMessage('try again in 1 second')).toBe(1);
    expect(retryAfterOfMessage('try again in 5')).toBeUndefined();
    expect(retryAfterOfMessage(undefined)).toBeUndefined();
  });

  it('headers are found whatever their case; the exact name first', () => {
    const raw = JSON.stringify({ error: { message: 'm', type: 'x', param: null, code: null } });
    expect(decodeOpenAIError(400, raw, { 'X-Request-Id': 'req_upper' }).requestId).toBe('req_upper');
    expect(decodeOpenAIError(400, raw, { 'X-REQUEST-ID': 'a', 'x-request-id': 'exact' }).requestId).toBe('exact');
    expect(decodeOpenAIError(400, raw, { 'x-other': 'y' }).requestId).toBeUndefined();
    expect(decodeOpenAIError(500, 'oops', { 'X-Request-Id': 'req_plain' }).requestId).toBe('req_plain');
    const mistral = JSON.stringify({ detail: [{ loc: ['body', 'n'], msg: 'bad' }] });
    expect(decodeOpenAIError(422, mistral, { 'X-Request-Id': 'req_m' })).toMatchObject({ requestId: 'req_m', message: 'n: bad', param: 'n' });
  });

  it('the envelope\'s fields: a number code as text; an empty or null code, a null type or param left out; another code kind is no envelope', () => {
    expect(openAIErrorFromBody(400, { error: { message: 'm', code: 400 } }, '')).toMatchObject({ code: '400' });
    const bare = openAIErrorFromBody(400, { error: { message: 'm', type: null, param: null, code: '' } }, '')!;
    expect([bare.code, bare.upstreamType, bare.param]).toEqual([undefined, undefined, undefined]);
    expect(openAIErrorFromBody(400, { error: { message: 'm', code: { x: 1 } } }, '')).toBeUndefined();
    expect(openAIErrorFromBody(400, { error: { message: 'm', code: true } }, '')).toBeUndefined();
    expect(openAIErrorFromBody(400, { error: { message: 'm', param: 3 } }, '')).toBeUndefined();
    expect(openAIErrorFromBody(400, { error: { message: 'm', type: 3 } }, '')).toBeUndefined();
    for (const json of [null, 'text', 5, [{ error: { message: 'm' } }], { error: ['m'] }]) expect(openAIErrorFromBody(400, json, ''), JSON.stringify(json)).toBeUndefined();
  });

  it('a status only from an HTTP error; in a stream none, and a message from the status text or a default', () => {
    expect(openAIErrorFromBody(400, { error: {} }, '')).toMatchObject({ status: 400, message: 'Bad Request' });
    expect(openAIErrorFromBody(418, { error: {} }, '')!.message).toBe('The upstream returned an error.');
    const inStream = openAIErrorFromBody(200, { error: { message: 'm', type: 'server_error' } }, '')!;
    expect(inStream.status).toBe(502); // ProxyError's own default for an upstream error with no status
    expect(openAIErrorFromBody(399, { error: { message: 'm' } }, '')!.status).not.toBe(399);
    expect(openAIErrorFromBody(400, { error: { message: 'm', code: 'invalid_api_key' } }, '')!.status).toBe(400); // not the 401 of its kind
  });

  it('a body that is no envelope: its loose message, else the status text', () => {
    expect(decodeOpenAIError(404, '{"detail":"Not Found"}', {}).message).toBe('Not Found');
    expect(decodeOpenAIError(400, '{"message":"bad thing"}', {}).message).toBe('bad thing');
    expect(decodeOpenAIError(400, '{"error":"","message":"second"}', {}).message).toBe('second');
    expect(decodeOpenAIError(502, 'null', {}).message).toBe('The upstream returned HTTP 502 Bad Gateway.');
    expect(decodeOpenAIError(520, '<html/>', {}).message).toBe('The upstream returned HTTP 520.');
    expect(decodeOpenAIError(500, '"just text"', {}).message).toBe('The upstream returned HTTP 500 Internal Server Error.');
  });
});

describe('writing an OpenAI error', () => {
  it('an upstream 5xx keeps its status, but not Anthropic\'s 529; anything else is a 502', () => {
    const status = (s: number) => encodeOpenAIError(new ProxyError('upstream', 'x', { status: s })).status;
    expect([500, 503, 599].map(status)).toEqual([500, 503, 599]);
    expect([529, 600, 499, 404].map(status)).toEqual([502, 502, 502, 502]);
  });

  it('replays the upstream\'s type and code only from an OpenAI envelope', () => {
    const openai = JSON.stringify({ error: { message: 'm', type: 'tokens', param: null, code: 'rate_limit_exceeded' } });
    expect(encodeOpenAIError(new ProxyError('rate-limit', 'm', { upstreamType: 'tokens', code: 'rate_limit_exceeded', raw: openai })).body.error).toMatchObject({ type: 'tokens' });
    const cases: Array<[string, string | undefined]> = [
      ['no raw', undefined],
      ['not JSON', '{oops'],
      ['Anthropic\'s', JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'm' } })],
      ['Google\'s', JSON.stringify({ error: { code: 429, message: 'm', status: 'RESOURCE_EXHAUSTED' } })],
      ['no message', JSON.stringify({ error: { type: 'tokens' } })],
      ['no error', JSON.stringify({ message: 'm' })],
      ['an error that is text', JSON.stringify({ error: 'm' })],
    ];
    for (const [name, raw] of cases) {
      const err = new ProxyError('rate-limit', 'm', { upstreamType: 'rate_limit_error', ...(raw !== undefined ? { raw } : {}) });
      expect(encodeOpenAIError(err).body.error.type, name).toBe('requests');
    }
    // An OpenAI envelope whose code is null: the null replayed, not the default.
    const noCode = JSON.stringify({ error: { message: 'm', type: 'requests', param: null, code: null } });
    expect(encodeOpenAIError(new ProxyError('rate-limit', 'm', { upstreamType: 'requests', raw: noCode })).body.error.code).toBeNull();
  });
});
