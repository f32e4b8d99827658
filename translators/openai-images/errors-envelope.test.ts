/**
 * Errors as the caller reads them: which upstream details are replayed in OpenAI's envelope,
 * how an upstream error is classified (which decides retries and fallbacks), and what the
 * message says when the upstream gave none.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeImageRequest } from './decode-request.ts';
import { decodeError, encodeError } from './errors.ts';

const envelope = (error: Record<string, unknown>) => JSON.stringify({ error });
const bodyOf = (err: ProxyError) => (encodeError(err).body as { error: Record<string, unknown> }).error;

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
