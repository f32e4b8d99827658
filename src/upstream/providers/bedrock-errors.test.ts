import { describe, expect, it } from 'vitest';
import { decodeError } from '../../../translators/anthropic/errors.ts';
import { anthropicErrorType, bedrockErrorBody } from './bedrock-errors.ts';

describe('Bedrock errors → Anthropic envelope → the right kind', () => {
  const decode = (status: number, body: string, type?: string, extra: Record<string, string> = {}) => {
    const headers = { ...(type ? { 'x-amzn-errortype': type } : {}), 'x-amzn-requestid': 'req-123', ...extra };
    return decodeError(status, bedrockErrorBody(status, body, headers), headers);
  };

  it.each([
    [429, 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'rate-limit', 'rate_limit_error'],
    [400, 'ValidationException', 'invalid-request', 'invalid_request_error'],
    [403, 'AccessDeniedException', 'permission', 'permission_error'],
    [403, 'UnrecognizedClientException', 'authentication', 'authentication_error'],
    [403, 'InvalidSignatureException', 'authentication', 'authentication_error'],
    [403, 'ExpiredTokenException', 'authentication', 'authentication_error'],
    [404, 'ResourceNotFoundException', 'not-found', 'not_found_error'],
    [400, 'ServiceQuotaExceededException', 'rate-limit', 'rate_limit_error'],
    [429, 'ModelNotReadyException', 'overloaded', 'overloaded_error'],
    [503, 'ServiceUnavailableException', 'overloaded', 'overloaded_error'],
    [408, 'ModelTimeoutException', 'timeout', 'timeout_error'],
    [424, 'ModelErrorException', 'upstream', 'api_error'],
    [500, 'InternalServerException', 'upstream', 'api_error'],
  ])('%i %s → %s', (status, type, kind, anthropicType) => {
    const err = decode(status, '{"message":"Something specific happened."}', type);
    expect(err.kind).toBe(kind);
    expect(err.upstreamType).toBe(anthropicType);
    expect(err.message).toBe('Something specific happened.');
    expect(err.status).toBe(status);
    expect(err.requestId).toBe('req-123');
  });

  it('the type may come in the body (__type, code); Message in capitals; unknown types leave it to the status', () => {
    expect(decode(429, '{"__type":"com.amazon.coral#ThrottlingException","Message":"slow down"}')).toMatchObject({ kind: 'rate-limit', message: 'slow down' });
    expect(decode(400, '{"code":"ValidationException","message":"bad"}')).toMatchObject({ kind: 'invalid-request', message: 'bad' });
    expect(decode(409, '{"message":"who knows"}', 'SomeNewException')).toMatchObject({ kind: 'invalid-request', message: 'who knows' });
    expect(decode(502, '<html>Bad gateway</html>')).toMatchObject({ kind: 'upstream', message: '<html>Bad gateway</html>' });
    expect(decode(500, '')).toMatchObject({ kind: 'upstream', message: 'Bedrock returned HTTP 500' });
  });

  it('an Anthropic envelope (a model error passed through) is kept as it is', () => {
    const body = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    expect(bedrockErrorBody(529, body, {})).toBe(body);
  });

  it('exception names compare without case (HTTP PascalCase, stream lowerCamel)', () => {
    expect(anthropicErrorType('throttlingException')).toBe('rate_limit_error');
    expect(anthropicErrorType('modelStreamErrorException')).toBe('api_error');
    expect(anthropicErrorType('nothing')).toBeUndefined();
  });
});
