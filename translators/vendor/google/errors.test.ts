import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../../src/canonical/errors.ts';
import { decodeGoogleError, encodeGoogleError, googleStatusOf, kindOfGoogleStatus, parseGoogleError, proxyErrorOfGoogle } from './errors.ts';

describe("Google's error envelope", () => {
  it('parses the object and the JSON-array form; null fields are absent; a wrong type is not Google’s', () => {
    expect(parseGoogleError({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED', details: [] } })).toEqual({ code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED', details: [] });
    expect(parseGoogleError([{ error: { code: 500, message: null } }])).toEqual({ code: 500 });
    expect(parseGoogleError({ error: { code: '429' } })).toBeUndefined();
    expect(parseGoogleError({ error: { details: {} } })).toBeUndefined();
    expect(parseGoogleError({ error: 'nope' })).toBeUndefined();
    expect(parseGoogleError({ hello: 'world' })).toBeUndefined();
  });

  it('decodes by status name, the retry delay from RetryInfo or retry-after, an invalid key as authentication', () => {
    const body = JSON.stringify({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }] } });
    expect(decodeGoogleError(429, body, {})).toMatchObject({ kind: 'rate-limit', status: 429, retryAfter: 7, upstreamType: 'RESOURCE_EXHAUSTED' });
    const key = JSON.stringify({ error: { code: 400, message: 'bad key', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }] } });
    expect(decodeGoogleError(400, key, {})).toMatchObject({ kind: 'authentication', code: 'API_KEY_INVALID', status: 400 });
    expect(decodeGoogleError(503, '<html>busy</html>', { 'retry-after': '3' })).toMatchObject({ kind: 'overloaded', retryAfter: 3, message: 'upstream returned HTTP 503: <html>busy</html>' });
    expect(kindOfGoogleStatus('gateway_timeout')).toBe('timeout');
    expect(kindOfGoogleStatus('ALREADY_EXISTS')).toBeUndefined();
  });

  it("encodes the upstream's own status name when Google's, else by HTTP status; 529 is 503; retry-after kept", () => {
    const own = encodeGoogleError(new ProxyError('invalid-request', 'exists', { status: 409, upstreamType: 'ALREADY_EXISTS' }));
    expect(own).toEqual({ status: 409, body: { error: { code: 409, message: 'exists', status: 'ALREADY_EXISTS' } } });
    const overloaded = encodeGoogleError(new ProxyError('overloaded', 'busy', { status: 529, retryAfter: 1.5, upstreamType: 'overloaded_error' }));
    expect(overloaded.status).toBe(503);
    expect(overloaded.body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE', details: [{ retryDelay: expect.any(String) }] });
    expect(overloaded.headers).toEqual({ 'retry-after': '2' });
    expect(encodeGoogleError(new ProxyError('not-found', 'gone', { status: 404 })).body.error.status).toBe('NOT_FOUND');
  });
});

describe('Google status names and HTTP statuses', () => {
  it('every google.rpc status name to its kind, in any case', () => {
    const table: Array<[string, string]> = [
      ['INVALID_ARGUMENT', 'invalid-request'], ['FAILED_PRECONDITION', 'invalid-request'], ['OUT_OF_RANGE', 'invalid-request'],
      ['UNAUTHENTICATED', 'authentication'], ['PERMISSION_DENIED', 'permission'], ['NOT_FOUND', 'not-found'],
      ['RESOURCE_EXHAUSTED', 'rate-limit'], ['UNAVAILABLE', 'overloaded'], ['DEADLINE_EXCEEDED', 'timeout'], ['GATEWAY_TIMEOUT', 'timeout'],
      ['PAYLOAD_TOO_LARGE', 'too-large'], ['INTERNAL', 'upstream'], ['UNKNOWN', 'upstream'], ['DATA_LOSS', 'upstream'],
    ];
    for (const [name, kind] of table) {
      expect(kindOfGoogleStatus(name), name).toBe(kind);
      expect(kindOfGoogleStatus(name.toLowerCase()), name).toBe(kind);
    }
    for (const name of ['', 'ABORTED', 'CANCELLED', null, undefined]) expect(kindOfGoogleStatus(name), String(name)).toBeUndefined();
  });

  it('every HTTP status to the name sent with it; others by class', () => {
    const table: Array<[number, string]> = [
      [400, 'INVALID_ARGUMENT'], [401, 'UNAUTHENTICATED'], [403, 'PERMISSION_DENIED'], [404, 'NOT_FOUND'], [408, 'DEADLINE_EXCEEDED'],
      [409, 'ABORTED'], [413, 'PAYLOAD_TOO_LARGE'], [429, 'RESOURCE_EXHAUSTED'], [501, 'UNIMPLEMENTED'], [503, 'UNAVAILABLE'],
      [504, 'DEADLINE_EXCEEDED'], [500, 'INTERNAL'], [502, 'INTERNAL'], [418, 'INVALID_ARGUMENT'], [499, 'INVALID_ARGUMENT'],
    ];
    for (const [http, name] of table) expect(googleStatusOf(http), String(http)).toBe(name);
  });
});

describe('reading a Google error', () => {
  it('a field of the wrong type is no Google error: code a number, message and status strings, details a list; others anything', () => {
    expect(parseGoogleError({ error: { message: 5 } })).toBeUndefined();
    expect(parseGoogleError({ error: { status: 429 } })).toBeUndefined();
    expect(parseGoogleError({ error: { details: 'x' } })).toBeUndefined();
    expect(parseGoogleError({ error: { code: 400, message: 'm', status: 'INVALID_ARGUMENT', extra: 7 } })).toEqual({ code: 400, message: 'm', status: 'INVALID_ARGUMENT', extra: 7 });
    expect(parseGoogleError({ error: [] })).toBeUndefined();
    expect(parseGoogleError(null)).toBeUndefined();
  });

  it('the kind by status name first, else by HTTP status; the details it reads are objects of their type', () => {
    expect(proxyErrorOfGoogle({ status: 'NOT_FOUND' }, 400, '').kind).toBe('not-found');
    expect(proxyErrorOfGoogle({ status: 'ALREADY_EXISTS' }, 429, '').kind).toBe('rate-limit');
    expect(proxyErrorOfGoogle({}, 503, '')).toMatchObject({ kind: 'overloaded', message: 'upstream returned HTTP 503' });
    const details = [null, 'text', { '@type': 'type.googleapis.com/google.rpc.Help', reason: 'API_KEY_INVALID' }, { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'QUOTA' }];
    expect(proxyErrorOfGoogle({ status: 'RESOURCE_EXHAUSTED', details }, 429, '')).toMatchObject({ kind: 'rate-limit', code: 'QUOTA' });
    expect(proxyErrorOfGoogle({ status: 'INTERNAL' }, 500, '', { 'x-request-id': 'req_g' })).toMatchObject({ code: 'INTERNAL', requestId: 'req_g' });
  });

  it('a body that is not Google\'s: its text trimmed and cut at 200 characters, or none', () => {
    expect(decodeGoogleError(502, '  bad gateway \n', {}).message).toBe('upstream returned HTTP 502: bad gateway');
    expect(decodeGoogleError(500, 'x'.repeat(300), {}).message).toBe(`upstream returned HTTP 500: ${'x'.repeat(200)}`);
    expect(decodeGoogleError(500, '   ', { 'x-request-id': 'req_e' })).toMatchObject({ message: 'upstream returned HTTP 500', requestId: 'req_e' });
  });
});

describe('writing a Google error', () => {
  it('an invalid key carries its ErrorInfo; a retry delay only on 429 and 503', () => {
    const key = encodeGoogleError(new ProxyError('authentication', 'bad key', { status: 400, code: 'API_KEY_INVALID' })).body.error;
    expect(key.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }]);
    const limited = encodeGoogleError(new ProxyError('rate-limit', 'slow', { status: 429, retryAfter: 3 })).body.error;
    expect(limited.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }]);
    expect(encodeGoogleError(new ProxyError('upstream', 'x', { status: 500, retryAfter: 3 })).body.error).not.toHaveProperty('details');
  });
});
