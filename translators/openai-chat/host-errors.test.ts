/**
 * Error bodies of OpenAI-compatible hosts and Azure OpenAI, decoded so the caller's message keeps
 * their detail. Fixtures: __fixtures__/hosts/.
 */
import { describe, expect, test } from 'vitest';
import { fixtureText, testContext } from '../../test/support/fixtures.ts';
import { decodeError, encodeError } from './errors.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';

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
