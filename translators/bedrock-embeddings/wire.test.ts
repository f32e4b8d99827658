import { describe, expect, it } from 'vitest';
import { decodeError, invokeRequest } from './wire.ts';

describe('Bedrock embeddings wire', () => {
  it('errors in the envelope the bedrock provider made, or AWS own message', () => {
    const e = decodeError(429, JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Too many requests' } }), { 'retry-after': '3', 'x-amzn-requestid': 'r1' });
    expect(e).toMatchObject({ kind: 'rate-limit', status: 429, message: 'Too many requests', retryAfter: 3, requestId: 'r1' });
    expect(decodeError(400, JSON.stringify({ message: 'Malformed input request' }), {})).toMatchObject({ kind: 'invalid-request', message: 'Malformed input request' });
    expect(decodeError(503, 'not json', {}).kind).toBe('overloaded');
  });

  it('a model name that would change the path is refused', () => {
    expect(() => invokeRequest({ name: 'b', model: '..', options: {} }, {})).toThrow();
    expect(invokeRequest({ name: 'b', model: 'arn:aws:bedrock:us-east-1:1:x/y', options: {} }, {}).path).toBe('/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ax%2Fy/invoke');
  });
});
