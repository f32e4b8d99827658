import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { fixtureText } from '../../test/support/fixtures.ts';
import { decodeError, encodeError, errorEventOf, errorOfEvent, errorOfFailedResponse, responseErrorOf } from './errors.ts';

describe('HTTP errors (the OpenAI envelope)', () => {
  it.each([
    ['error-429-insufficient-quota.json', 429, 'rate-limit', 'insufficient_quota', undefined],
    ['error-400-unsupported-parameter-temperature.json', 400, 'invalid-request', undefined, 'temperature'],
    ['error-400-context-length-exceeded.json', 400, 'invalid-request', 'context_length_exceeded', 'input'],
    ['error-401-invalid-api-key.json', 401, 'authentication', 'invalid_api_key', undefined],
  ] as const)('%s', (name, status, kind, code, param) => {
    const body = fixtureText('openai-responses', name);
    const err = decodeError(status, body, { 'x-request-id': 'req_7' });
    expect(err).toMatchObject({ kind, status, code, param, raw: body, requestId: 'req_7', message: JSON.parse(body).error.message });
    expect(encodeError(err)).toEqual({ status, body: JSON.parse(body) });
  });

  it('retry-after from headers survives the round trip', () => {
    const err = decodeError(429, fixtureText('openai-responses', 'error-429-insufficient-quota.json'), { 'retry-after': '4' });
    expect(encodeError(err).headers).toEqual({ 'retry-after': '4' });
  });
});

describe('in-stream errors', () => {
  it('the error event in both forms (documented flat, and nested as the service sends it)', () => {
    expect(errorOfEvent({ type: 'error', code: 'server_error', message: 'boom', param: null }, '')).toMatchObject({ kind: 'upstream', code: 'server_error', message: 'boom' });
    const nested = errorOfEvent({ type: 'error', error: { type: 'invalid_request_error', code: 'context_length_exceeded', message: 'Too long', param: 'input' } }, 'raw');
    expect(nested).toMatchObject({ kind: 'invalid-request', code: 'context_length_exceeded', param: 'input', upstreamType: 'invalid_request_error', raw: 'raw' });
  });

  it('a failed response: kind by code, wait read from the message (seconds, ms, Azure words)', () => {
    expect(errorOfFailedResponse({ code: 'rate_limit_exceeded', message: 'Please try again in 1.898s.' }, '')).toMatchObject({ kind: 'rate-limit', retryAfter: 1.898 });
    expect(errorOfFailedResponse({ code: 'rate_limit_exceeded', message: 'Please try again in 28ms.' }, '').retryAfter).toBe(0.028);
    expect(errorOfFailedResponse({ code: 'rate_limit_exceeded', message: 'Rate limit exceeded. Try again in 35 seconds.' }, '').retryAfter).toBe(35);
    expect(errorOfFailedResponse({ code: 'insufficient_quota', message: 'No quota.' }, '').kind).toBe('rate-limit');
    expect(errorOfFailedResponse(null, '')).toMatchObject({ kind: 'upstream', message: 'The upstream response failed.' });
  });

  it('the failed response a caller gets, by kind; the wait written where Codex reads it', () => {
    expect(responseErrorOf(new ProxyError('rate-limit', 'Slow down', { retryAfter: 1.5 }))).toEqual({ code: 'rate_limit_exceeded', message: 'Slow down. Please try again in 1.5s.' });
    expect(responseErrorOf(new ProxyError('rate-limit', 'Please try again in 3s.', { retryAfter: 3 })).message).toBe('Please try again in 3s.');
    expect(responseErrorOf(new ProxyError('rate-limit', 'quota', { code: 'insufficient_quota' })).code).toBe('insufficient_quota');
    expect(responseErrorOf(new ProxyError('invalid-request', 'input exceeds the maximum number of tokens')).code).toBe('context_length_exceeded');
    expect(responseErrorOf(new ProxyError('invalid-request', 'bad')).code).toBe('invalid_prompt');
    expect(responseErrorOf(new ProxyError('overloaded', 'busy')).code).toBe('server_error');
    expect(responseErrorOf(new ProxyError('authentication', 'who?')).code).toBe('invalid_api_key');
    expect(errorEventOf(new ProxyError('timeout', 'late', { param: 'x' }))).toEqual({ code: 'server_error', message: 'late', param: 'x', error: { type: 'server_error', code: 'server_error', message: 'late', param: 'x' } });
  });

  it.each([
    ['rate-limit', 'Slow down', {}, 'rate_limit_exceeded', 'Slow down'],
    ['rate-limit', 'Slow down!  ', { retryAfter: 2 }, 'rate_limit_exceeded', 'Slow down! Please try again in 2s.'],
    ['rate-limit', 'Wait.', { retryAfter: 1.23456 }, 'rate_limit_exceeded', 'Wait. Please try again in 1.235s.'],
    ['rate-limit', 'Out', { upstreamType: 'insufficient_quota', retryAfter: 5 }, 'insufficient_quota', 'Out'],
    ['invalid-request', 'too big', { code: 'context_length_exceeded' }, 'context_length_exceeded', 'too big'],
    ['too-large', 'The context window is full', {}, 'context_length_exceeded', 'The context window is full'],
    ['unsupported', 'prompt is too long: 9 tokens', {}, 'context_length_exceeded', 'prompt is too long: 9 tokens'],
    ['unsupported', 'no audio', {}, 'invalid_prompt', 'no audio'],
    ['permission', 'no', {}, 'permission_denied', 'no'],
    ['not-found', 'gone', {}, 'model_not_found', 'gone'],
    ['upstream', 'bad', { retryAfter: 3 }, 'server_error', 'bad'],
    ['timeout', 'late', {}, 'server_error', 'late'],
  ] as const)('%s %j → %s', (kind, message, opts, code, said) => {
    expect(responseErrorOf(new ProxyError(kind, message, opts))).toEqual({ code, message: said });
  });

  it('an error event without a message or with numeric codes; one that is no OpenAI error is an upstream error with the default message', () => {
    expect(errorOfEvent({ type: 'error', code: 500, message: '' }, 'raw')).toMatchObject({ kind: 'upstream', message: 'The upstream stream failed.', code: '500', raw: 'raw' });
    expect(errorOfEvent({ type: 'error', error: { message: 'Nested', type: 7, param: 3 } }, '')).toMatchObject({ message: 'Nested', param: '3' });
    expect(errorOfEvent({ type: 'error', error: 'boom', message: 'Top level.' }, '')).toMatchObject({ message: 'Top level.' });
    expect(errorOfEvent({ type: 'error', error: null, message: 'Top level.' }, '')).toMatchObject({ message: 'Top level.' });
    expect(responseErrorOf(new ProxyError('rate-limit', 'Slow down. Now', { retryAfter: 2 })).message).toBe('Slow down. Now. Please try again in 2s.');
    expect(errorOfFailedResponse({ code: 429, message: 42 }, 'r')).toMatchObject({ code: '429', message: '42', raw: 'r' });
    expect(errorOfFailedResponse({ code: '', message: '' }, '')).toMatchObject({ code: undefined, message: 'The upstream response failed.', retryAfter: undefined });
  });
});
