import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { fixtureText } from '../../test/support/fixtures.ts';
import { decodeError, encodeError, errorEventOf, errorOfFailedInteraction, proxyErrorOfEvent } from './errors.ts';

const fixture = (name: string) => fixtureText('gemini-interactions', name);

describe('Interactions errors', () => {
  it('decodes Google envelopes by status string, keeping status, raw body and the RetryInfo wait', () => {
    const e = decodeError(429, fixture('error-429.json'), {});
    expect(e).toMatchObject({ kind: 'rate-limit', status: 429, retryAfter: 17, code: 'RESOURCE_EXHAUSTED', upstreamType: 'RESOURCE_EXHAUSTED' });
    expect(e.raw).toBe(fixture('error-429.json'));
    expect(decodeError(400, fixture('error-400-invalid-argument.json'), {})).toMatchObject({ kind: 'invalid-request', message: expect.stringContaining('thinking_level') });
    expect(decodeError(404, fixture('error-404-not-found.json'), {})).toMatchObject({ kind: 'not-found', status: 404 });
  });

  it('reads retry-after from the headers when the body has no RetryInfo, and survives a non-JSON body', () => {
    const body = JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
    expect(decodeError(503, body, { 'retry-after': '4' })).toMatchObject({ kind: 'overloaded', retryAfter: 4 });
    const html = decodeError(502, '<html>Bad Gateway</html>', { 'retry-after': '2', 'x-request-id': 'r1' });
    expect(html).toMatchObject({ kind: 'upstream', status: 502, retryAfter: 2, requestId: 'r1', raw: '<html>Bad Gateway</html>' });
    expect(decodeError(401, JSON.stringify({ error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }] } }), {})).toMatchObject({ kind: 'authentication', code: 'API_KEY_INVALID' });
  });

  it('encodes the Google envelope with the right status, and keeps retry-after as header and RetryInfo', () => {
    const rate = encodeError(new ProxyError('rate-limit', 'Slow down.', { retryAfter: 2.2 }));
    expect(rate).toEqual({
      status: 429,
      body: { error: { code: 429, message: 'Slow down.', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }] } },
      headers: { 'retry-after': '3' },
    });
    expect(encodeError(new ProxyError('overloaded', 'Busy.'))).toMatchObject({ status: 503, body: { error: { status: 'UNAVAILABLE' } } });
    expect(encodeError(new ProxyError('invalid-request', 'Bad input.', { param: 'input' }))).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    expect(encodeError(new ProxyError('timeout', 'Too slow.'))).toMatchObject({ status: 504, body: { error: { status: 'DEADLINE_EXCEEDED' } } });
    expect(encodeError(new ProxyError('authentication', 'No key.')).headers).toBeUndefined();
    // An upstream's own status string survives the trip.
    const back = decodeError(400, JSON.stringify({ error: { code: 400, message: 'x', status: 'FAILED_PRECONDITION' } }), {});
    expect(encodeError(back).body).toMatchObject({ error: { status: 'FAILED_PRECONDITION' } });
  });

  it('stream error events: lowercase codes both ways, gateway_timeout for a timeout', () => {
    expect(errorEventOf(new ProxyError('timeout', 'Idle.'))).toEqual({ code: 'gateway_timeout', message: 'Idle.' });
    expect(errorEventOf(new ProxyError('rate-limit', 'Quota.'))).toEqual({ code: 'resource_exhausted', message: 'Quota.' });
    expect(proxyErrorOfEvent({ code: 'gateway_timeout', message: 'Timed out.' }, '{}')).toMatchObject({ kind: 'timeout', message: 'Timed out.' });
    expect(proxyErrorOfEvent({ code: 'resource_exhausted', message: 'q' }, '{}')).toMatchObject({ kind: 'rate-limit' });
    expect(proxyErrorOfEvent({ code: 'something_new' }, '{}')).toMatchObject({ kind: 'upstream', message: 'The upstream interaction failed.' });
    expect(errorOfFailedInteraction([{ code: 'internal', message: 'Boom.' }], '{}')).toMatchObject({ kind: 'upstream', message: 'Boom.' });
  });

  it('stream error events: an upstream 504 or 408 is gateway_timeout too; a failed interaction without a readable error gets the default words, its code and raw kept', () => {
    expect(errorEventOf(new ProxyError('upstream', 'Gateway.', { status: 504 })).code).toBe('gateway_timeout');
    expect(errorEventOf(new ProxyError('upstream', 'Request timeout.', { status: 408 })).code).toBe('gateway_timeout');
    expect(errorEventOf(new ProxyError('upstream', 'Bad gateway.', { status: 502 })).code).not.toBe('gateway_timeout');
    for (const errors of [null, [], [{ code: 5 }], ['x']]) {
      expect(errorOfFailedInteraction(errors, 'RAW')).toMatchObject({ kind: 'upstream', message: 'The upstream interaction failed.', raw: 'RAW' });
    }
    expect(proxyErrorOfEvent({ code: 'invalid_argument', message: '' }, 'R')).toMatchObject({ kind: 'invalid-request', code: 'invalid_argument', message: 'The upstream interaction failed.', raw: 'R' });
    expect(proxyErrorOfEvent(null, 'R').code).toBeUndefined();
  });
});
