/** Anthropic caller to Anthropic upstream: the caller's body as it is, its version and betas, credentials replaced. */
import { describe, expect, it } from 'vitest';
import type { Warning } from '../../src/canonical/index.ts';
import type { CallerInput, UpstreamTarget } from '../types.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';

const target = (options: UpstreamTarget['options'] = {}, model = 'claude-sonnet-4-5'): UpstreamTarget => ({ name: 'claude', model, apiKey: 'sk-up', options });
const BEDROCK = { modelInBody: false, streamInBody: false, anthropicVersionInBody: 'bedrock-2023-05-31', betasInBody: true } as const;

const input = (over: Partial<CallerInput> = {}): CallerInput => ({
  body: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [] },
  headers: {},
  params: {},
  query: {},
  ...over,
});

describe('encodePassthrough', () => {
  it('the same model: the caller’s bytes, to /v1/messages, not streamed unless the body says true', () => {
    expect(encodePassthrough(input(), 'RAW', target())).toEqual({
      method: 'POST',
      path: '/v1/messages',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-up' },
      body: 'RAW',
      stream: false,
    });
    expect(encodePassthrough(input({ body: { model: 'claude-sonnet-4-5', stream: true } }), 'RAW', target()).stream).toBe(true);
    expect(encodePassthrough(input({ body: { model: 'claude-sonnet-4-5', stream: 'true' } }), 'RAW', target()).stream).toBe(false);
  });

  it('a renamed model: the body re-written with the upstream’s model', () => {
    const out = encodePassthrough(input({ body: { model: 'alias', max_tokens: 10 } }), 'RAW', target());
    expect(JSON.parse(out.body as string)).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 10 });
  });

  it('a body that is no object: only the model is written', () => {
    for (const body of [null, 'text']) expect(JSON.parse(encodePassthrough(input({ body }), 'RAW', target()).body as string)).toEqual({ model: 'claude-sonnet-4-5' });
  });

  it('count_tokens (either spelling) goes to its own route; ?beta=true follows the caller', () => {
    expect(encodePassthrough(input({ params: { method: 'count_tokens' } }), 'RAW', target()).path).toBe('/v1/messages/count_tokens');
    expect(encodePassthrough(input({ params: { method: 'countTokens' } }), 'RAW', target()).path).toBe('/v1/messages/count_tokens');
    expect(encodePassthrough(input({ params: { method: 'count_tokens' }, query: { beta: 'true' } }), 'RAW', target()).path).toBe('/v1/messages/count_tokens?beta=true');
    expect(encodePassthrough(input({ query: { beta: 'true' } }), 'RAW', target()).path).toBe('/v1/messages?beta=true');
    expect(encodePassthrough(input({ query: { beta: 'false' } }), 'RAW', target()).path).toBe('/v1/messages');
  });

  it('the caller’s version (or compat-version) and betas are forwarded, the allow-list applied', () => {
    const warnings: Warning[] = [];
    const out = encodePassthrough(
      input({ headers: { 'anthropic-version': '2025-01-01', 'anthropic-beta': 'ok-1,no-2', 'x-api-key': 'caller' } }),
      'RAW',
      target({ anthropicBetaAllow: ['ok-*'] }),
      warnings,
    );
    expect(out.headers).toEqual({ 'content-type': 'application/json', 'anthropic-version': '2025-01-01', 'anthropic-beta': 'ok-1', 'x-api-key': 'sk-up' });
    expect(warnings).toEqual([{ code: 'dropped', path: 'anthropic-beta', detail: 'no-2', lossy: true }]);
    expect(encodePassthrough(input({ headers: { 'compat-version': '2024-02-02' } }), 'RAW', target()).headers['anthropic-version']).toBe('2024-02-02');
  });

  it('Bedrock: the body re-written as the host wants it, even with the same model', () => {
    const out = encodePassthrough(input({ body: { model: 'claude-sonnet-4-5', stream: true, messages: [] }, headers: { 'anthropic-beta': 'b-1' } }), 'RAW', target(BEDROCK));
    expect(JSON.parse(out.body as string)).toEqual({ messages: [], anthropic_version: 'bedrock-2023-05-31', anthropic_beta: ['b-1'] });
    expect(out.headers).toEqual({ 'content-type': 'application/json', 'x-api-key': 'sk-up' });
    expect(out.stream).toBe(true);
  });

  it('Vertex AI count_tokens keeps the model in the body', () => {
    const out = encodePassthrough(input({ params: { method: 'count_tokens' } }), 'RAW', target({ modelInBody: false, countTokensModelInBody: true }));
    expect(JSON.parse(out.body as string)).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [] });
    const create = encodePassthrough(input(), 'RAW', target({ modelInBody: false, countTokensModelInBody: true }));
    expect(JSON.parse(create.body as string)).toEqual({ max_tokens: 10, messages: [] });
  });
});

describe('forwardRequest', () => {
  it('a plain host: the request without a body, and the model to rename only when it differs', () => {
    const caller = input({ headers: { 'anthropic-beta': 'b-1' }, query: { beta: 'true' }, params: { method: 'count_tokens' } });
    expect(forwardRequest(caller, { model: 'claude-sonnet-4-5', stream: true }, target())).toEqual({
      request: {
        method: 'POST',
        path: '/v1/messages/count_tokens?beta=true',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-up', 'anthropic-beta': 'b-1' },
        stream: true,
      },
      model: undefined,
    });
    expect(forwardRequest(caller, { model: 'alias', stream: false }, target())).toMatchObject({ request: { stream: false }, model: 'claude-sonnet-4-5' });
  });

  it('a host that wants the body otherwise cannot take the bytes', () => {
    expect(forwardRequest(input(), { model: 'claude-sonnet-4-5', stream: false }, target(BEDROCK))).toBeUndefined();
  });

  it('betas the upstream refuses are reported', () => {
    const warnings: Warning[] = [];
    forwardRequest(input({ headers: { 'anthropic-beta': 'x-1' } }), { model: 'claude-sonnet-4-5', stream: false }, target({ anthropicBetaAllow: [] }), warnings);
    expect(warnings).toEqual([{ code: 'dropped', path: 'anthropic-beta', detail: 'x-1', lossy: true }]);
  });
});
