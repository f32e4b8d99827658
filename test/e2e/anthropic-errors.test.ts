/**
 * Errors through Interlingua with `@anthropic-ai/sdk` (1.x and 0.x) as the caller: upstream
 * errors of every dialect in Anthropic's envelope with the SDK's error classes, validation
 * refused before anything is sent upstream, credentials, and streams that break midway.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { TARGETS, UPSTREAM_KEYS, e2eConfig, startProxy, useHarness } from '../support/proxy.ts';
import { SDKS, UPSTREAMS, type AnthropicClient } from './helpers-anthropic.ts';

type ApiError = Error & { status?: number; headers?: Headers; error?: any; requestID?: string | null };

const ask = (model: string, extra: Record<string, unknown> = {}) =>
  ({ model, max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hello' }], ...extra }) as never;

/** The retry-after each 429 fixture implies (header, OpenAI's message, Gemini's RetryInfo). */
const RETRY_AFTER: Record<string, string> = { 'openai-chat': '2', anthropic: '7', gemini: '35' };

describe.each(TARGETS)('%s: Anthropic SDK errors → Interlingua', (target) => {
  const h = useHarness(target);

  describe.each(SDKS)('$name', (sdk) => {
    let client: AnthropicClient;
    beforeAll(() => {
      client = sdk.make(h.proxy.url);
    });
    const fail = (p: Promise<unknown>): Promise<ApiError> =>
      p.then(
        () => new Error('expected a failure') as ApiError,
        (e: unknown) => e as ApiError,
      );

    it.each(UPSTREAMS)('upstream 429 from $model ($dialect) → RateLimitError with retry-after', async (up) => {
      const headers = up.dialect === 'anthropic' ? { 'content-type': 'application/json', 'retry-after': '7' } : undefined;
      h.mock.reply(fixtureReply(up.dialect, up.rateLimit, headers ? { headers } : {}));
      const err = await fail(client.messages.create(ask(up.model)));
      expect(err).toBeInstanceOf(sdk.errors.RateLimitError);
      expect(err.status).toBe(429);
      expect(err.headers?.get('retry-after')).toBe(RETRY_AFTER[up.dialect]);
      expect(err.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
      const upstreamMessage = JSON.stringify(fixtureJson(up.dialect, up.rateLimit)).slice(0, 10_000);
      expect(upstreamMessage).toContain(err.error.error.message.slice(0, 40));
      expect(h.mock.requests).toHaveLength(1);
    });

    it('529 overloaded (Anthropic) and a Gemini 503 "overloaded" → status 529 overloaded_error', async () => {
      h.mock.reply(fixtureReply('anthropic', 'error-529-overloaded.json'));
      const a = await fail(client.messages.create(ask('to-anthropic')));
      expect(a).toBeInstanceOf(sdk.errors.InternalServerError);
      expect(a.constructor.name).toBe(sdk.version === '2026-10-21' ? 'OverloadedError' : 'InternalServerError');
      expect(a.status).toBe(529);
      expect(a.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
      expect(a.requestID ?? a.error.request_id).toBe(fixtureJson('anthropic', 'error-529-overloaded.json').request_id);

      h.mock.reply(fixtureReply('gemini', 'error-503-unavailable-overloaded.json'));
      const g = await fail(client.messages.create(ask('to-gemini')));
      expect(g).toBeInstanceOf(sdk.errors.InternalServerError);
      expect(g.status).toBe(529);
      expect(g.error.error.type).toBe('overloaded_error');
    });

    it('upstream 401 → AuthenticationError (no upstream key in the message); 404 → NotFoundError', async () => {
      h.mock.reply(fixtureReply('anthropic', 'error-401-authentication.json'));
      const a = await fail(client.messages.create(ask('claude-sonnet-4-5')));
      expect(a).toBeInstanceOf(sdk.errors.AuthenticationError);
      h.mock.reply(fixtureReply('openai-chat', 'error-401-invalid-api-key.json'));
      const o = await fail(client.messages.create(ask('to-openai')));
      expect(o).toBeInstanceOf(sdk.errors.AuthenticationError);
      for (const k of Object.values(UPSTREAM_KEYS)) expect(JSON.stringify(o.error)).not.toContain(k);
      h.mock.reply(fixtureReply('gemini', 'error-404-not-found.json'));
      expect(await fail(client.messages.create(ask('to-gemini')))).toBeInstanceOf(sdk.errors.NotFoundError);
    });

    it.each([
      ['missing max_tokens', { max_tokens: undefined }, 'max_tokens'],
      ['an empty text block', { messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'messages.0.content'],
      ['thinking budget below 1024', { thinking: { type: 'enabled', budget_tokens: 500 } }, 'thinking.budget_tokens'],
      ['thinking budget ≥ max_tokens', { max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 2048 } }, 'max_tokens'],
      ['temperature above 1', { temperature: 1.5 }, 'temperature'],
    ])('400 for %s: BadRequestError naming the field, nothing sent upstream', async (_name, extra, field) => {
      for (const model of ['to-openai', 'to-gemini', 'claude-sonnet-4-5']) {
        const err = await fail(client.messages.create(ask(model, extra)));
        expect(err).toBeInstanceOf(sdk.errors.BadRequestError);
        expect(err.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
        expect(err.error.error.message).toContain(field);
      }
      expect(h.mock.requests).toHaveLength(0);
    });

    it('wrong key → AuthenticationError, unknown model → NotFoundError, nothing sent upstream', async () => {
      const bad = sdk.make(h.proxy.url, 'wrong-key');
      const err = await fail(bad.messages.create(ask('to-openai')));
      expect(err).toBeInstanceOf(sdk.errors.AuthenticationError);
      expect(err.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
      expect(await fail(client.messages.create(ask('mistral-large')))).toBeInstanceOf(sdk.errors.NotFoundError);
      expect(h.mock.requests).toHaveLength(0);
    });

    it('upstream 400 from OpenAI → BadRequestError; a body over the limit → 413 request_too_large', async () => {
      h.mock.reply(fixtureReply('openai-chat', 'error-400-unsupported-parameter.json'));
      const o = await fail(client.messages.create(ask('to-openai')));
      expect(o).toBeInstanceOf(sdk.errors.BadRequestError);
      expect(o.error.error.message).toBe(fixtureJson('openai-chat', 'error-400-unsupported-parameter.json').error.message);

      const small = await startProxy(e2eConfig(h.mock.url, { limits: { maxBodyBytes: 2048 } }), {}, target);
      try {
        const big = sdk.make(small.url);
        const err = await fail(big.messages.create(ask('to-openai', { messages: [{ role: 'user', content: 'x'.repeat(5000) }] })));
        expect(err.status).toBe(413);
        expect(err.error).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
      } finally {
        await small.close();
      }
      expect(h.mock.requests).toHaveLength(1);
    });

    it('a stream that breaks midway: the SDK stream throws an APIError, never hangs', async () => {
      h.mock.reply(fixtureReply('openai-chat', 'stream-error-first-chunk-server-error.sse'));
      const o = await fail(client.messages.stream(ask('to-openai')).finalMessage());
      expect(o).toBeInstanceOf(sdk.errors.APIError);
      expect(o.message).toContain('The server had an error');

      h.mock.reply(fixtureReply('anthropic', 'stream-error-overloaded-midstream.sse'));
      const a = await fail(client.messages.stream(ask('claude-sonnet-4-5')).finalMessage());
      expect(a).toBeInstanceOf(sdk.errors.APIError);
      expect(a.error?.error?.type).toBe('overloaded_error');

      // The upstream dies mid-stream (socket destroyed after a few events).
      const chunks = fixtureReply('gemini', 'stream-text-basic.sse').chunks!.slice(0, 1);
      h.mock.reply({ status: 200, headers: { 'content-type': 'text/event-stream' }, chunks, destroy: true });
      const g = await fail(client.messages.stream(ask('to-gemini')).finalMessage());
      expect(g).toBeInstanceOf(sdk.errors.APIError);
    });
  });
});
