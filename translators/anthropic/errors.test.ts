import { describe, expect, it } from 'vitest';
import { ProxyError, type ErrorKind } from '../../src/canonical/index.ts';
import { fixtureText } from '../../test/support/fixtures.ts';
import { decodeError, encodeError, errorOfEnvelope } from './errors.ts';

const envelope = (type: string, message = 'm') => ({ type: 'error', error: { type, message } });

describe('anthropic decodeError: fixtures', () => {
  const cases: Array<[string, number, ErrorKind, string]> = [
    ['error-400-invalid-request.json', 400, 'invalid-request', 'req_011CYHyk9NPsBYeGbC9LuDNK'],
    ['error-400-credit-balance.json', 400, 'invalid-request', 'req_011CTx'],
    ['error-401-authentication.json', 401, 'authentication', 'req_011Cdbgu4D2nt7kcqHgzCyR3'],
    ['error-403-permission.json', 403, 'permission', 'req_011CTz'],
    ['error-404-not-found.json', 404, 'not-found', 'req_011CTw'],
    ['error-429-rate-limit.json', 429, 'rate-limit', 'req_011CYK5n67SytMUxm8WMZUWY'],
    ['error-529-overloaded.json', 529, 'overloaded', 'req_011CZquRQNtQiXTvkLNPnid4'],
  ];
  it.each(cases)('%s', (name, status, kind, requestId) => {
    const raw = fixtureText('anthropic', name);
    const err = decodeError(status, raw, { 'retry-after': '7' });
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(err.requestId).toBe(requestId);
    expect(err.raw).toBe(raw);
    expect(err.retryAfter).toBe(7);
    expect(err.message).toBe(JSON.parse(raw).error.message);
    // An Anthropic caller gets the same envelope back.
    const enc = encodeError(err);
    expect(enc.status).toBe(status);
    expect(enc.body).toEqual(JSON.parse(raw));
    expect(enc.headers?.['retry-after']).toBe('7');
    expect(enc.headers?.['request-id']).toBe(requestId);
  });

  it('non-JSON bodies and 503 overloaded', () => {
    const a = decodeError(502, '<html>Bad Gateway</html>', { 'request-id': 'req_h' });
    expect(a.kind).toBe('upstream');
    expect(a.status).toBe(502);
    expect(a.requestId).toBe('req_h');
    expect(a.message).toContain('502');
    const b = decodeError(503, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', {});
    expect(b.kind).toBe('overloaded');
    expect(encodeError(b).status).toBe(529);
    expect(decodeError(500, '', {}).kind).toBe('upstream');
  });
});

describe('anthropic encodeError table', () => {
  const table: Array<[ErrorKind, number, string]> = [
    ['invalid-request', 400, 'invalid_request_error'],
    ['unsupported', 400, 'invalid_request_error'],
    ['authentication', 401, 'authentication_error'],
    ['permission', 403, 'permission_error'],
    ['not-found', 404, 'not_found_error'],
    ['too-large', 413, 'request_too_large'],
    ['rate-limit', 429, 'rate_limit_error'],
    ['upstream', 502, 'api_error'],
    ['timeout', 504, 'timeout_error'],
    ['overloaded', 529, 'overloaded_error'],
  ];
  it.each(table)('%s → %i %s', (kind, status, type) => {
    const enc = encodeError(new ProxyError(kind, 'boom'));
    expect(enc.status).toBe(status);
    expect(enc.body).toEqual({ type: 'error', error: { type, message: 'boom' }, request_id: null });
  });

  it('request_id is always there: the error\'s own id, else null (ErrorResponse requires it)', () => {
    expect(encodeError(new ProxyError('timeout', 'slow', { requestId: 'req_proxy_1' })).body).toMatchObject({ request_id: 'req_proxy_1' });
    const body = encodeError(new ProxyError('invalid-request', 'bad')).body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'request_id', 'type']);
    expect(body.request_id).toBeNull();
  });

  it('an OpenAI upstream error keeps its status class, not its type', () => {
    const err = new ProxyError('rate-limit', 'quota', { upstreamType: 'insufficient_quota', retryAfter: 2.5 });
    expect(encodeError(err)).toEqual({
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'quota' }, request_id: null },
      headers: { 'retry-after': '3', 'x-should-retry': 'true' },
    });
    expect(encodeError(new ProxyError('upstream', 'x', { status: 400 })).status).toBe(500);
  });
});

describe('retry-after, read and written one way', () => {
  const body = JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });

  it('reads retry-after-ms and an HTTP date against the Date header', () => {
    expect(decodeError(429, body, { 'retry-after-ms': '500' }).retryAfter).toBe(0.5);
    const dated = { 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT', date: 'Wed, 21 Oct 2015 07:28:00 GMT' };
    expect(decodeError(429, body, dated).retryAfter).toBe(30);
  });

  it('writes whole seconds, rounded up', () => {
    expect(encodeError(decodeError(429, body, { 'retry-after-ms': '500' })).headers?.['retry-after']).toBe('1');
  });
});

describe('anthropic upstream errors', () => {
  it.each([
    ['invalid_request_error', 'invalid-request', 400],
    ['authentication_error', 'authentication', 401],
    ['billing_error', 'permission', 402],
    ['permission_error', 'permission', 403],
    ['not_found_error', 'not-found', 404],
    ['request_too_large', 'too-large', 413],
    ['rate_limit_error', 'rate-limit', 429],
    ['api_error', 'upstream', 500],
    ['timeout_error', 'timeout', 504],
    ['overloaded_error', 'overloaded', 529],
  ])('a mid-stream %s (no HTTP status) is %s with the API’s status %i, and goes back to an Anthropic caller unchanged', (type, kind, status) => {
    const err = errorOfEnvelope(envelope(type, 'boom'), undefined, 'raw');
    expect(err).toMatchObject({ kind, status, message: 'boom', upstreamType: type, raw: 'raw' });
    expect(encodeError(err)).toMatchObject({ status, body: { type: 'error', error: { type, message: 'boom' } } });
  });

  it('an unknown type is judged by the HTTP status; without status or type it is an upstream error', () => {
    expect(errorOfEnvelope(envelope('novel_error'), 429, '')).toMatchObject({ kind: 'rate-limit', status: 429, upstreamType: 'novel_error' });
    const bare = errorOfEnvelope({ nope: 1 }, undefined, 'x');
    expect(bare).toMatchObject({ kind: 'upstream', message: 'Anthropic upstream error' });
    expect(bare.upstreamType).toBeUndefined();
    expect(bare.requestId).toBeUndefined();
    expect(errorOfEnvelope({}, 418, '').message).toBe('Anthropic upstream returned HTTP 418');
  });

  it('the request id comes from the body, else from a request-id header in any case', () => {
    expect(decodeError(400, JSON.stringify({ ...envelope('invalid_request_error'), request_id: 'req_body' }), { 'request-id': 'req_h' }).requestId).toBe('req_body');
    expect(decodeError(400, JSON.stringify(envelope('invalid_request_error')), { 'Request-Id': 'req_mixed' }).requestId).toBe('req_mixed');
  });

  it('a non-JSON body: the status and the first 200 characters in the message', () => {
    const body = 'x'.repeat(300);
    const err = decodeError(502, body, { 'retry-after': '4' });
    expect(err.message).toBe(`Anthropic upstream returned HTTP 502: ${'x'.repeat(200)}`);
    expect(err).toMatchObject({ kind: 'upstream', status: 502, raw: body, retryAfter: 4 });
    expect(decodeError(503, '   ', {}).message).toBe('Anthropic upstream returned HTTP 503');
  });

  it('an api_error keeps its own 5xx status for the caller; a billing_error keeps 402', () => {
    const api = decodeError(503, JSON.stringify(envelope('api_error', 'down')), {});
    expect(encodeError(api)).toMatchObject({ status: 503, body: { error: { type: 'api_error', message: 'down' } } });
    expect(encodeError(decodeError(400, JSON.stringify(envelope('api_error')), {})).status).toBe(500);
    const billing = decodeError(402, JSON.stringify(envelope('billing_error', 'pay')), {});
    expect(encodeError(billing)).toMatchObject({ status: 402, body: { error: { type: 'billing_error' } } });
  });

  it('an upstream error from another dialect keeps its 5xx status; outside 5xx it is 500', () => {
    expect(encodeError(new ProxyError('upstream', 'x', { status: 503 })).status).toBe(503);
    expect(encodeError(new ProxyError('upstream', 'x', { status: 599 })).status).toBe(599);
    expect(encodeError(new ProxyError('upstream', 'x', { status: 600 })).status).toBe(500);
  });

  it('x-should-retry only for overloaded and rate limits; no headers at all otherwise', () => {
    expect(encodeError(new ProxyError('overloaded', 'x')).headers).toEqual({ 'x-should-retry': 'true' });
    expect(encodeError(new ProxyError('rate-limit', 'x')).headers).toEqual({ 'x-should-retry': 'true' });
    expect(encodeError(new ProxyError('timeout', 'x'))).not.toHaveProperty('headers');
    expect(encodeError(new ProxyError('timeout', 'x', { requestId: 'req_1' })).headers).toEqual({ 'request-id': 'req_1' });
  });
});
