import { describe, expect, test } from 'vitest';
import { ProxyError, type ErrorKind } from '../../src/canonical/index.ts';
import { fixtureText, testContext } from '../../test/support/fixtures.ts';
import { decodeError, encodeError, retryAfterOf, streamErrorOf } from './errors.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';

describe('decodeError', () => {
  test.each([
    ['error-400-unsupported-parameter.json', 400, 'invalid-request', 'invalid_request_error', 'unsupported_parameter', 'max_tokens'],
    ['error-401-invalid-api-key.json', 401, 'authentication', 'invalid_request_error', 'invalid_api_key', undefined],
    ['error-404-model-not-found.json', 404, 'not-found', 'invalid_request_error', 'model_not_found', undefined],
    ['error-429-insufficient-quota.json', 429, 'rate-limit', 'insufficient_quota', 'insufficient_quota', undefined],
    ['error-429-rate-limit-tpm.json', 429, 'rate-limit', 'tokens', 'rate_limit_exceeded', undefined],
  ] as const)('%s', (name, status, kind, type, code, param) => {
    const body = fixtureText('openai-chat', name);
    const err = decodeError(status, body, { 'x-request-id': 'req_1' });
    expect(err).toBeInstanceOf(ProxyError);
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(err.upstreamType).toBe(type);
    expect(err.code).toBe(code);
    expect(err.param).toBe(param);
    expect(err.raw).toBe(body);
    expect(err.requestId).toBe('req_1');
    expect(err.message).toBe(JSON.parse(body).error.message);
  });

  test('retry-after: header seconds, ms, HTTP date against date header, message text', () => {
    expect(decodeError(429, fixtureText('openai-chat', 'error-429-rate-limit-tpm.json'), {}).retryAfter).toBe(1.146);
    expect(decodeError(429, fixtureText('openai-chat', 'error-429-rate-limit-tpm.json'), { 'retry-after': '7' }).retryAfter).toBe(7);
    expect(retryAfterOf({ 'retry-after-ms': '1500' })).toBe(1.5);
    expect(retryAfterOf({ 'Retry-After': 'Wed, 21 Oct 2015 07:28:30 GMT', date: 'Wed, 21 Oct 2015 07:28:00 GMT' })).toBe(30);
    expect(retryAfterOf({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' })).toBeUndefined();
    expect(retryAfterOf({}, 'Please try again in 20ms.')).toBe(0.02);
  });

  test('a sub-second wait goes back to the caller as a valid retry-after (whole seconds, rounded up)', () => {
    const err = decodeError(429, fixtureText('openai-chat', 'error-429-rate-limit-tpm.json'), { 'retry-after-ms': '500' });
    expect(err.retryAfter).toBe(0.5);
    expect(encodeError(err).headers).toEqual({ 'retry-after': '1' });
  });

  test('non-JSON body → message from the status', () => {
    const err = decodeError(502, '<html>Bad gateway</html>', {});
    expect(err).toMatchObject({ kind: 'upstream', status: 502, raw: '<html>Bad gateway</html>', message: 'The upstream returned HTTP 502 Bad Gateway.' });
    expect(decodeError(503, '', {}).kind).toBe('overloaded');
    expect(decodeError(418, '{"nope":1}', {}).message).toBe('The upstream returned HTTP 418.');
  });
});

describe('encodeError', () => {
  test.each([
    ['invalid-request', 400, 'invalid_request_error', null],
    ['unsupported', 400, 'invalid_request_error', null],
    ['authentication', 401, 'invalid_request_error', 'invalid_api_key'],
    ['permission', 403, 'permission_error', null],
    ['not-found', 404, 'invalid_request_error', 'model_not_found'],
    ['too-large', 413, 'invalid_request_error', null],
    ['rate-limit', 429, 'requests', 'rate_limit_exceeded'],
    ['overloaded', 503, 'server_error', null],
    ['upstream', 502, 'server_error', null],
    ['timeout', 504, 'server_error', 'timeout'],
  ] as const)('%s → %i %s', (kind, status, type, code) => {
    const out = encodeError(new ProxyError(kind as ErrorKind, 'boom', { param: kind === 'invalid-request' ? 'temperature' : undefined }));
    expect(out.status).toBe(status);
    expect(out.body).toEqual({ error: { message: 'boom', type, param: kind === 'invalid-request' ? 'temperature' : null, code } });
  });

  test('an OpenAI upstream error keeps its type, code and status; retry-after header', () => {
    const body = fixtureText('openai-chat', 'error-429-insufficient-quota.json');
    const out = encodeError(decodeError(429, body, { 'retry-after': '3' }));
    expect(out.status).toBe(429);
    expect(out.headers).toEqual({ 'retry-after': '3' });
    expect(out.body).toEqual(JSON.parse(body));
  });

  test('an upstream 500 keeps its status; an Anthropic body does not leak its type', () => {
    expect(encodeError(new ProxyError('upstream', 'x', { status: 500 })).status).toBe(500);
    const anthropic = new ProxyError('overloaded', 'Overloaded', {
      status: 529,
      upstreamType: 'overloaded_error',
      raw: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    expect(encodeError(anthropic)).toEqual({ status: 503, body: { error: { message: 'Overloaded', type: 'server_error', param: null, code: null } } });
  });
});

describe('streamErrorOf: an error inside a 200 stream', () => {
  const read = (body: unknown) => {
    const raw = JSON.stringify(body);
    const err = streamErrorOf(body, raw);
    expect(err?.raw).toBe(raw);
    return err && { kind: err.kind, status: err.status, message: err.message, code: err.code, param: err.param, type: err.upstreamType };
  };

  test('older vLLM top-level {"object":"error"}: a numeric code is the HTTP status', () => {
    expect(read({ object: 'error', message: 'ctx too long', type: 'BadRequestError', param: null, code: 400 })).toEqual({ kind: 'invalid-request', status: 400, message: 'ctx too long', code: '400', param: undefined, type: 'BadRequestError' });
    expect(read({ object: 'error', message: 'x', type: 'X', code: 599 })).toMatchObject({ kind: 'upstream', status: 599, code: '599' });
    // Outside 400..599 it is only a code; the kind comes from type and code as for any in-stream error.
    expect(read({ object: 'error', message: 'x', type: 'X', code: 600 })).toMatchObject({ kind: 'upstream', status: 502, code: '600' });
    expect(read({ object: 'error', message: 'x', type: 'X', code: 399 })).toMatchObject({ kind: 'upstream', status: 502, code: '399' });
    expect(read({ object: 'error', message: 'x', type: 'invalid_request_error', code: 200 })).toMatchObject({ kind: 'invalid-request', status: 400, code: '200' });
    expect(read({ object: 'error', message: 'x', type: 'invalid_request_error', code: '500' })).toMatchObject({ kind: 'invalid-request', status: 400, code: '500' });
    expect(read({ object: 'error', message: 'x', type: 'tokens', code: 'rate_limit_exceeded', param: 'messages' })).toEqual({ kind: 'rate-limit', status: 429, message: 'x', code: 'rate_limit_exceeded', param: 'messages', type: 'tokens' });
    // A null or empty code is no code, and a type that is not a string is no type.
    expect(read({ object: 'error', message: 'x', type: 'X', code: null })).toMatchObject({ code: undefined, type: 'X' });
    expect(read({ object: 'error', message: 'x', type: 7, code: '' })).toMatchObject({ code: undefined, type: undefined });
  });

  test('a structured message reads as a host error detail; nothing usable gives a fixed message', () => {
    expect(read({ object: 'error', message: [{ loc: ['body', 'temperature'], msg: 'Input should be less than 2' }], type: 'BadRequestError', code: 400 })).toEqual({
      kind: 'invalid-request', status: 400, message: 'temperature: Input should be less than 2', code: '400', param: 'temperature', type: 'BadRequestError',
    });
    expect(read({ object: 'error', message: '', code: '' })).toEqual({ kind: 'upstream', status: 502, message: 'The upstream stream failed.', code: undefined, param: undefined, type: undefined });
  });

  test('an {"error":…} frame: the OpenAI envelope, a bare string, or anything else', () => {
    expect(read({ error: { message: 'm', type: 'invalid_request_error', code: 'context_length_exceeded' } })).toMatchObject({ kind: 'invalid-request', status: 400, message: 'm', code: 'context_length_exceeded' });
    expect(read({ error: 'boom' })).toMatchObject({ kind: 'upstream', status: 502, message: 'boom' });
    expect(read({ error: 42 })).toMatchObject({ kind: 'upstream', message: 'The upstream stream failed.' });
  });

  test('anything else is not an error', () => {
    for (const body of [null, 'error', [{ object: 'error' }], { object: 'chat.completion.chunk', choices: [] }, { error: null }]) expect(streamErrorOf(body, '')).toBeUndefined();
  });
});

describe('error bodies of compatible hosts and Azure', () => {
  test("Mistral's 422: message is an object; its detail is the caller's message, the field its param", () => {
    const body = fixtureText('openai-chat', 'hosts/mistral-error-422-extra-forbidden.json');
    const err = decodeError(422, body, {});
    expect(err.kind).toBe('invalid-request');
    expect(err.status).toBe(422);
    expect(err.message).toBe('max_completion_tokens: Extra inputs are not permitted; stream_options: Extra inputs are not permitted');
    expect(err.param).toBe('max_completion_tokens');
    expect(err.raw).toBe(body);
    const wire = encodeError(err).body as any;
    expect(wire.error.message).toContain('max_completion_tokens: Extra inputs are not permitted');
    expect(wire.error.param).toBe('max_completion_tokens');
  });

  test('Mistral 422 variants: a bare FastAPI detail, a JSON-string message, in a stream', () => {
    const bare = '{"detail":[{"type":"extra_forbidden","loc":["body","store"],"msg":"Extra inputs are not permitted","input":false}]}';
    expect(decodeError(422, bare, {}).message).toBe('store: Extra inputs are not permitted');
    const stringified = JSON.stringify({ object: 'error', message: JSON.stringify({ detail: [{ loc: ['body', 'frequency_penalty'], msg: 'Extra inputs are not permitted' }] }), type: 'internal_error_proxy', code: '1000' });
    const e = decodeError(422, stringified, {});
    expect(e.message).toBe('frequency_penalty: Extra inputs are not permitted');
    expect(e.code).toBe('1000');
    const d = new OpenAIChatStreamDecoder({ model: 'm', system: [], messages: [], stream: true }, testContext());
    const [ev] = d.push({ data: fixtureText('openai-chat', 'hosts/mistral-error-422-extra-forbidden.json') });
    expect(ev).toMatchObject({ type: 'error' });
    expect((ev as any).error.message).toContain('stream_options: Extra inputs are not permitted');
  });

  test('Mistral and DeepSeek plain-string errors keep their message', () => {
    expect(decodeError(400, fixtureText('openai-chat', 'hosts/mistral-error-400-tool-call-id.json'), {}).message).toMatch(/^Tool call id was call_/);
    const ds = decodeError(400, fixtureText('openai-chat', 'hosts/deepseek-error-400-reasoning-content.json'), {});
    expect(ds.message).toBe('The `reasoning_content` in the thinking mode must be passed back to the API.');
    expect(ds.kind).toBe('invalid-request');
  });

  test.each([
    ['azure-error-400-content-filter.json', 400, 'invalid-request', 'content_filter', 'prompt'],
    ['azure-error-401-invalid-key.json', 401, 'authentication', '401', undefined],
    ['azure-error-404-deployment-not-found.json', 404, 'not-found', 'DeploymentNotFound', undefined],
    ['azure-error-429-rate-limit.json', 429, 'rate-limit', '429', undefined],
  ] as const)('Azure %s decodes like OpenAI’s', (name, status, kind, code, param) => {
    const body = fixtureText('openai-chat', `hosts/${name}`);
    const err = decodeError(status, body, status === 429 ? { 'retry-after': '6' } : {});
    expect(err.kind).toBe(kind);
    expect(err.code).toBe(code);
    expect(err.param).toBe(param);
    expect(err.message).toBe(JSON.parse(body).error.message);
    if (status === 429) expect(err.retryAfter).toBe(6);
  });
});
