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
