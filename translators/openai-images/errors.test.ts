import { describe, expect, it } from 'vitest';
import { ProxyError, type ErrorKind } from '../../src/canonical/index.ts';
import { fixtureText, testContext } from '../../test/support/fixtures.ts';
import { decodeError, encodeError } from './errors.ts';
import { decodeImageRequest } from './decode-request.ts';

const envelope = (error: Record<string, unknown>) => JSON.stringify({ error });

const bodyOf = (err: ProxyError) => (encodeError(err).body as { error: Record<string, unknown> }).error;

describe('encodeError', () => {
  it('writes a caller mistake in the OpenAI envelope naming the parameter', () => {
    const err = new ProxyError('invalid-request', "Invalid 'size': '1x1' is not one of […]", { param: 'size', code: 'invalid_value' });
    expect(encodeError(err)).toEqual({
      status: 400,
      body: { error: { message: "Invalid 'size': '1x1' is not one of […]", type: 'invalid_request_error', param: 'size', code: 'invalid_value' } },
    });
  });

  it('maps every kind to a status, type and code', () => {
    const table: Array<[ErrorKind, number, string, string | null]> = [
      ['invalid-request', 400, 'invalid_request_error', null],
      ['unsupported', 400, 'invalid_request_error', 'unsupported_parameter'],
      ['authentication', 401, 'invalid_request_error', 'invalid_api_key'],
      ['permission', 403, 'invalid_request_error', 'permission_denied'],
      ['not-found', 404, 'invalid_request_error', 'not_found'],
      ['too-large', 413, 'invalid_request_error', 'request_too_large'],
      ['rate-limit', 429, 'requests', 'rate_limit_exceeded'],
      ['overloaded', 529, 'server_error', 'overloaded'],
      ['upstream', 502, 'server_error', null],
      ['timeout', 504, 'server_error', 'timeout'],
    ];
    for (const [kind, status, type, code] of table) {
      const { status: s, body } = encodeError(new ProxyError(kind, 'boom'));
      expect([s, body], kind).toEqual([status, { error: { message: 'boom', type, param: null, code } }]);
    }
  });

  it('sends retry-after in whole seconds', () => {
    expect(encodeError(new ProxyError('rate-limit', 'slow down', { retryAfter: 1.2 })).headers).toEqual({ 'retry-after': '2' });
    expect(encodeError(new ProxyError('invalid-request', 'x')).headers).toBeUndefined();
  });

  it("does not replay another vendor's type or code", () => {
    const gemini = new ProxyError('rate-limit', 'Quota exceeded', {
      upstreamType: 'RESOURCE_EXHAUSTED', code: 'RESOURCE_EXHAUSTED', raw: '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}',
    });
    expect(encodeError(gemini).body).toEqual({
      error: { message: 'Quota exceeded', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });
});

describe('decodeError', () => {
  const decodeFixture = (dialect: string, name: string, headers: Record<string, string> = {}) =>
    decodeError(Number(/error-(\d+)/.exec(name)![1]), fixtureText(dialect, name), headers);

  it('decodes the gpt-image response_format rejection', () => {
    const err = decodeFixture('openai-images', 'error-400-unknown-parameter-response-format.json', { 'x-request-id': 'req_1' });
    expect(err).toBeInstanceOf(ProxyError);
    expect(err).toMatchObject({
      kind: 'invalid-request', status: 400, message: "Unknown parameter: 'response_format'.",
      param: 'response_format', code: 'unknown_parameter', upstreamType: 'invalid_request_error', requestId: 'req_1',
    });
    expect(err.raw).toBe(fixtureText('openai-images', 'error-400-unknown-parameter-response-format.json'));
    expect(encodeError(err).body).toEqual(JSON.parse(err.raw!));
  });

  it('keeps moderation details through decode and encode', () => {
    const err = decodeFixture('openai-images', 'error-400-moderation-blocked.json');
    expect(err).toMatchObject({ kind: 'invalid-request', status: 400, code: 'moderation_blocked', upstreamType: 'image_generation_user_error' });
    expect(encodeError(err)).toEqual({ status: 400, body: JSON.parse(err.raw!) });
  });

  it('decodes the OpenAI chat error fixtures (same envelope)', () => {
    const auth = decodeFixture('openai-chat', 'error-401-invalid-api-key.json');
    expect(auth).toMatchObject({ kind: 'authentication', status: 401, code: 'invalid_api_key' });
    expect(auth.message).not.toContain('wxyz');
    expect(auth.message).toContain('sk-***');
    const body = encodeError(auth).body as { error: { message: string } };
    expect(body.error.message).not.toContain('wxyz');

    expect(decodeFixture('openai-chat', 'error-404-model-not-found.json')).toMatchObject({ kind: 'not-found', status: 404, code: 'model_not_found' });
    const quota = decodeFixture('openai-chat', 'error-429-insufficient-quota.json');
    expect(quota).toMatchObject({ kind: 'rate-limit', status: 429, upstreamType: 'insufficient_quota' });
    expect((encodeError(quota).body as { error: { type: string } }).error.type).toBe('insufficient_quota');
    const tpm = decodeFixture('openai-chat', 'error-429-rate-limit-tpm.json', { 'retry-after': '2' });
    expect(tpm).toMatchObject({ kind: 'rate-limit', retryAfter: 2, upstreamType: 'tokens', code: 'rate_limit_exceeded' });
    expect(encodeError(tpm).headers).toEqual({ 'retry-after': '2' });
    expect(decodeFixture('openai-chat', 'error-400-unsupported-parameter.json')).toMatchObject({ param: 'max_tokens', code: 'unsupported_parameter' });
  });

  it('reads retry-after-ms and survives bodies that are not JSON', () => {
    expect(decodeError(429, '{}', { 'retry-after-ms': '1500' }).retryAfter).toBe(1.5);
    const html = decodeError(502, '<html>Bad gateway</html>', {});
    expect(html).toMatchObject({ kind: 'upstream', status: 502, raw: '<html>Bad gateway</html>' });
    expect(html.message).toContain('502');
    expect(decodeError(503, '', {})).toMatchObject({ kind: 'overloaded', status: 503 });
    expect(decodeError(500, 'null', {}).kind).toBe('upstream');
    expect(decodeError(400, '[{"error":1}]', {}).kind).toBe('invalid-request');
  });
});

describe('encodeError', () => {
  it("gives a caller mistake OpenAI's default code invalid_value", () => {
    let caught: unknown;
    try {
      decodeImageRequest({ body: { prompt: 'x', size: '1x1' }, headers: {}, params: {}, query: {} }, 'generate', testContext());
    } catch (e) {
      caught = e;
    }
    expect(bodyOf(caught as ProxyError)).toMatchObject({ type: 'invalid_request_error', param: 'size', code: 'invalid_value' });
  });

  it('types an upstream failure by its status: 5xx is a server error, 4xx a request error', () => {
    expect(bodyOf(new ProxyError('upstream', 'x', { status: 500 })).type).toBe('server_error');
    expect(bodyOf(new ProxyError('upstream', 'x', { status: 499 })).type).toBe('invalid_request_error');
  });

  it('replays only whole snake_case codes', () => {
    expect(bodyOf(new ProxyError('invalid-request', 'x', { code: 'content_policy_violation' })).code).toBe('content_policy_violation');
    for (const code of ['INVALID_argument', 'quota-exceeded', 'Bad_request', '9lives']) {
      expect(bodyOf(new ProxyError('invalid-request', 'x', { code })).code, code).toBeNull();
    }
  });

  it("keeps OpenAI's extra error fields even when the body starts with whitespace", () => {
    const raw = `\n  ${envelope({ message: 'blocked', type: 'image_generation_user_error', param: null, code: 'moderation_blocked', moderation_details: { categories: ['x'] } })}`;
    const err = decodeError(400, raw, {});
    expect(bodyOf(err)).toEqual({
      message: 'blocked', type: 'image_generation_user_error', param: null, code: 'moderation_blocked', moderation_details: { categories: ['x'] },
    });
  });

  it("replays nothing extra from bodies that are not exactly OpenAI's envelope", () => {
    const extra = { message: 'm', type: 'invalid_request_error', param: null, code: 'c', detail: 'd' };
    // A second top-level field: another vendor's body.
    expect(bodyOf(decodeError(400, JSON.stringify({ error: extra, status: 'FAILED' }), {}))).not.toHaveProperty('detail');
    // No param / code: not OpenAI's.
    expect(bodyOf(decodeError(400, envelope({ message: 'm', detail: 'd' }), {}))).not.toHaveProperty('detail');
    expect(bodyOf(decodeError(400, envelope({ message: 'm', code: 'c', detail: 'd' }), {}))).not.toHaveProperty('detail');
    expect(bodyOf(decodeError(400, envelope(extra), {}))).toHaveProperty('detail', 'd');
  });

  it('survives an error field that is not an object', () => {
    for (const raw of ['{"error":"boom"}', '{"error":null}', '{"error":42}', '{not json']) {
      expect(bodyOf(decodeError(502, raw, {})), raw).toMatchObject({ type: 'server_error', param: null, code: null });
    }
  });
});

describe('decodeError', () => {
  it("classifies by OpenAI's code and type even when a gateway changed the status", () => {
    expect(decodeError(400, envelope({ message: 'bad key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' }), {}).kind).toBe(
      'authentication',
    );
    expect(decodeError(400, envelope({ message: 'slow', type: 'requests', param: null, code: 'rate_limit_exceeded' }), {}).kind).toBe('rate-limit');
    expect(decodeError(403, envelope({ message: 'quota', type: 'insufficient_quota', param: null, code: null }), {}).kind).toBe('rate-limit');
    expect(decodeError(400, envelope({ message: 'no model', type: 'invalid_request_error', param: 'model', code: 'model_not_found' }), {}).kind).toBe(
      'not-found',
    );
    expect(decodeError(400, envelope({ message: 'no', type: 'invalid_request_error', param: null, code: 'invalid_value' }), {}).kind).toBe(
      'invalid-request',
    );
  });

  it('says what the upstream returned when it gave no message, at most 200 characters of it', () => {
    expect(decodeError(502, '<html>Bad gateway</html>', {}).message).toBe('Upstream returned HTTP 502: <html>Bad gateway</html>');
    expect(decodeError(503, '', {}).message).toBe('Upstream returned HTTP 503');
    const long = 'x'.repeat(500);
    expect(decodeError(500, long, {}).message).toBe(`Upstream returned HTTP 500: ${'x'.repeat(200)}`);
  });
});
