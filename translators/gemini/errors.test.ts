import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { fixtureText } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const decodeFixture = (name: string, status: number, headers: Record<string, string> = {}) =>
  gemini.decodeError(status, fixtureText('gemini', name), headers);

describe('decodeError: fixtures', () => {
  it('400 API_KEY_INVALID: status 400 kept, kind authentication', () => {
    const e = decodeFixture('error-400-api-key-invalid.json', 400);
    expect(e).toMatchObject({ kind: 'authentication', status: 400, code: 'API_KEY_INVALID', upstreamType: 'INVALID_ARGUMENT' });
    expect(e.message).toBe('API key not valid. Please pass a valid API key.');
    expect(e.raw).toBe(fixtureText('gemini', 'error-400-api-key-invalid.json'));
  });

  it('the streamed JSON-array form', () => {
    const e = decodeFixture('error-400-streamed-json-array-form.json', 400);
    expect(e).toMatchObject({ kind: 'invalid-request', status: 400, code: 'INVALID_ARGUMENT' });
    expect(e.message).toBe('API key not valid. Please pass a valid API key.');
  });

  it('404 NOT_FOUND', () => {
    expect(decodeFixture('error-404-not-found.json', 404)).toMatchObject({ kind: 'not-found', status: 404, upstreamType: 'NOT_FOUND' });
  });

  it('429 RESOURCE_EXHAUSTED with RetryInfo 34.4s → retryAfter 34.4, sent back as 35', () => {
    const e = decodeFixture('error-429-resource-exhausted.json', 429);
    expect(e).toMatchObject({ kind: 'rate-limit', status: 429, retryAfter: 34.4, upstreamType: 'RESOURCE_EXHAUSTED' });
    expect(gemini.encodeError(e).headers).toEqual({ 'retry-after': '35' });
    expect(JSON.stringify(gemini.encodeError(e).body)).toContain('"retryDelay":"35s"');
  });

  it('retry-after-ms and an HTTP date measured against the Date header', () => {
    const body = '{"error":{"code":429,"message":"m","status":"RESOURCE_EXHAUSTED"}}';
    expect(gemini.decodeError(429, body, { 'retry-after-ms': '500' }).retryAfter).toBe(0.5);
    const dated = { 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT', date: 'Wed, 21 Oct 2015 07:28:00 GMT' };
    expect(gemini.decodeError(429, body, dated).retryAfter).toBe(30);
  });

  it('500 INTERNAL and 503 UNAVAILABLE', () => {
    expect(decodeFixture('error-500-internal.json', 500)).toMatchObject({ kind: 'upstream', status: 500 });
    expect(decodeFixture('error-503-unavailable-overloaded.json', 503)).toMatchObject({
      kind: 'overloaded',
      status: 503,
      message: 'The model is overloaded. Please try again later.',
    });
  });

  it('retry-after header when the body has no RetryInfo; non-JSON bodies', () => {
    const e = gemini.decodeError(429, '{"error":{"code":429,"message":"m","status":"RESOURCE_EXHAUSTED"}}', { 'retry-after': '12' });
    expect(e.retryAfter).toBe(12);
    const html = gemini.decodeError(502, '<html>bad gateway</html>', {});
    expect(html).toMatchObject({ kind: 'upstream', status: 502 });
    expect(html.message).toContain('502');
  });
});

describe('encodeError', () => {
  it.each([
    [new ProxyError('invalid-request', 'bad', { param: 'x' }), 400, 'INVALID_ARGUMENT'],
    [new ProxyError('authentication', 'who'), 401, 'UNAUTHENTICATED'],
    [new ProxyError('permission', 'no'), 403, 'PERMISSION_DENIED'],
    [new ProxyError('not-found', 'gone'), 404, 'NOT_FOUND'],
    [new ProxyError('too-large', 'big'), 413, 'PAYLOAD_TOO_LARGE'],
    [new ProxyError('upstream', 'oops', { status: 500 }), 500, 'INTERNAL'],
    [new ProxyError('overloaded', 'busy'), 503, 'UNAVAILABLE'],
    [new ProxyError('timeout', 'slow'), 504, 'DEADLINE_EXCEEDED'],
    [new ProxyError('invalid-request', 'pre', { upstreamType: 'FAILED_PRECONDITION' }), 400, 'FAILED_PRECONDITION'],
    [new ProxyError('invalid-request', 'anthropic type', { upstreamType: 'invalid_request_error' }), 400, 'INVALID_ARGUMENT'],
  ])('%s → %i %s', (err, code, status) => {
    const enc = gemini.encodeError(err);
    expect(enc.status).toBe(code);
    expect(enc.body).toEqual({ error: { code, message: err.message, status } });
  });

  it('429 carries RetryInfo and retry-after', () => {
    const enc = gemini.encodeError(new ProxyError('rate-limit', 'quota', { retryAfter: 35 }));
    expect(enc).toEqual({
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'quota',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '35s' }],
        },
      },
      headers: { 'retry-after': '35' },
    });
  });

  it('an invalid key keeps its ErrorInfo reason', () => {
    const decoded = decodeFixture('error-400-api-key-invalid.json', 400);
    const enc = gemini.encodeError(decoded);
    expect(enc.status).toBe(400);
    expect(enc.body).toMatchObject({ error: { status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } });
  });
});
