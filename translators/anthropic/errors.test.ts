import { describe, expect, it } from 'vitest';
import { ProxyError, type ErrorKind } from '../../src/canonical/index.ts';
import { fixtureText } from '../../test/support/fixtures.ts';
import { decodeError, encodeError } from './errors.ts';

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
