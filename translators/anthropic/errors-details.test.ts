/** Error details a caller sees: status by type, messages, ids, retry hints. */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { decodeError, encodeError, errorOfEnvelope } from './errors.ts';

const envelope = (type: string, message = 'm') => ({ type: 'error', error: { type, message } });

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
