import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../../src/canonical/errors.ts';
import { decodeGoogleError, encodeGoogleError, kindOfGoogleStatus, parseGoogleError } from './errors.ts';

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
