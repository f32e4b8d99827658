/** Anthropic-only fields replayed to an Anthropic upstream, merged with what the proxy writes. */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import type { UpstreamTarget } from '../types.ts';
import { decodeCountTokens, encodeCountTokens } from './count-tokens.ts';

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
});
