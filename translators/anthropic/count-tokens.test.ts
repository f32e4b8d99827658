/** Anthropic-only fields replayed to an Anthropic upstream, merged with what the proxy writes. */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { base64ToUtf8 } from '../../src/kit/index.ts';
import type { UpstreamTarget } from '../types.ts';
import { decodeCountTokens, encodeCountTokens, encodeCountTokensResponse } from './count-tokens.ts';

const target: UpstreamTarget = { name: 'claude', model: 'claude-sonnet-4-5', apiKey: 'k', options: {} };

const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

const schema = { type: 'object', properties: {} };

describe('anthropic upstream: count_tokens', () => {
  it('keeps thinking, tool choice, output_config and context fields; leaves out max_tokens, stream and sampling', () => {
    const http = encodeCountTokens(
      {
        ...base,
        stream: true,
        maxOutputTokens: 5000,
        temperature: 0.2,
        reasoning: { budgetTokens: 2000 },
        tools: [{ name: 'f' }],
        toolChoice: { type: 'none' },
        responseFormat: { type: 'json-schema', name: 'x', schema },
        system: [{ type: 'text', text: 'S' }],
        extras: { dialect: 'anthropic', fields: { mcp_servers: [{ name: 's' }], context_management: { edits: [] }, container: 'c' } },
      },
      target,
    );
    expect(JSON.parse(http.body as string)).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      system: 'S',
      tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'none' },
      thinking: { type: 'enabled', budget_tokens: 2000 },
      output_config: { format: { type: 'json_schema', schema } },
      mcp_servers: [{ name: 's' }],
      context_management: { edits: [] },
    });
    expect(http).toMatchObject({ method: 'POST', stream: false });
    expect(http.headers).toMatchObject({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
  });

  it('reads input_tokens, or Bedrock’s inputTokens; anything else is an upstream error', () => {
    expect(decodeCountTokens({ inputTokens: 9 })).toBe(9);
    expect(decodeCountTokens({ input_tokens: 0 })).toBe(0);
    for (const bad of [null, 'x', { input_tokens: '9' }, { input_tokens: Number.POSITIVE_INFINITY }]) {
      expect(() => decodeCountTokens(bad)).toThrow(ProxyError);
    }
    expect(() => decodeCountTokens({})).toThrow('Anthropic count_tokens response has no input_tokens');
  });

  it('the whole path and headers: a caller’s betas and ?beta=true go along', () => {
    const http = encodeCountTokens({ ...base, extras: { dialect: 'anthropic', fields: { 'anthropic-beta': ['b-1'], '?beta': 'true' } } }, target);
    expect(http).toEqual({
      method: 'POST',
      path: '/v1/messages/count_tokens?beta=true',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k', 'anthropic-beta': 'b-1' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }),
      stream: false,
    });
    expect(encodeCountTokens(base, target).path).toBe('/v1/messages/count_tokens');
  });

  it('Vertex AI keeps the model in the count body though not in the create body', () => {
    const vertex = { ...target, options: { modelInBody: false, countTokensModelInBody: true, anthropicVersionInBody: 'vertex-2023-10-16' } };
    expect(JSON.parse(encodeCountTokens(base, vertex).body as string)).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      anthropic_version: 'vertex-2023-10-16',
    });
  });

  it('Bedrock (invoke-model): the whole create body as the host takes it, base64 in input.invokeModel.body', () => {
    const bedrock = { ...target, options: { modelInBody: false, streamInBody: false, anthropicVersionInBody: 'bedrock-2023-05-31', betasInBody: true, countTokensBody: 'invoke-model' as const } };
    const http = encodeCountTokens({ ...base, stream: true, maxOutputTokens: 100, extras: { dialect: 'anthropic', fields: { 'anthropic-beta': ['b-1'], '?beta': 'true' } } }, bedrock);
    expect(http).toMatchObject({ method: 'POST', path: '/v1/messages/count_tokens?beta=true', stream: false, headers: { 'content-type': 'application/json', 'x-api-key': 'k' } });
    expect(http.headers).not.toHaveProperty('anthropic-beta');
    const wrapped = JSON.parse(http.body as string);
    expect(Object.keys(wrapped)).toEqual(['input']);
    expect(JSON.parse(base64ToUtf8(wrapped.input.invokeModel.body)!)).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      max_tokens: 100,
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['b-1'],
    });
    expect(encodeCountTokens(base, bedrock).path).toBe('/v1/messages/count_tokens');
  });

  it('invoke-model counts the body of a request that does not stream, whatever the caller asked', () => {
    const http = encodeCountTokens({ ...base, stream: true }, { ...target, options: { countTokensBody: 'invoke-model' } });
    const body = JSON.parse(base64ToUtf8(JSON.parse(http.body as string).input.invokeModel.body)!);
    expect(body).not.toHaveProperty('stream');
    expect(body).toMatchObject({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    expect(http.stream).toBe(false);
  });

  it('answers a count as Anthropic does', () => {
    expect(encodeCountTokensResponse(12)).toEqual({ input_tokens: 12 });
  });

  it('input_tokens wins over inputTokens', () => {
    expect(decodeCountTokens({ input_tokens: 3, inputTokens: 9 })).toBe(3);
    expect(() => decodeCountTokens({ inputTokens: Number.NaN })).toThrow(ProxyError);
  });
});
