/** Anthropic-only fields replayed to an Anthropic upstream, merged with what the proxy writes. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { encodeRequest } from './encode-request.ts';

const target: UpstreamTarget = { name: 'claude', model: 'claude-sonnet-4-5', apiKey: 'k', options: {} };

const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

const encode = (req: Partial<ChatRequest>) => {
  const { value, warnings } = encodeRequest({ ...base, ...req }, target, testContext());
  return { http: value, body: JSON.parse(value.body as string) as Record<string, any>, warnings };
};

const schema = { type: 'object', properties: {} };

describe('anthropic upstream: replayed fields', () => {
  it('output_config extras join the format the proxy writes (the format wins)', () => {
    const { body } = encode({
      responseFormat: { type: 'json-schema', name: 'x', schema },
      extras: { dialect: 'anthropic', fields: { output_config: { task_budget: 5, format: 'ignored' } } },
    });
    expect(body.output_config).toEqual({ task_budget: 5, format: { type: 'json_schema', schema } });
    expect(encode({ extras: { dialect: 'anthropic', fields: { output_config: { task_budget: 5 } } } }).body.output_config).toEqual({ task_budget: 5 });
  });

  it('metadata extras join the user id (the user id wins); alone they are sent as they are', () => {
    expect(encode({ user: 'u', extras: { dialect: 'anthropic', fields: { metadata: { tenant: 't', user_id: 'x' } } } }).body.metadata).toEqual({ tenant: 't', user_id: 'u' });
    expect(encode({ extras: { dialect: 'anthropic', fields: { metadata: { tenant: 't' } } } }).body.metadata).toEqual({ tenant: 't' });
  });

  it('the beta markers never become body fields; the path and headers carry them', () => {
    const { http, body } = encode({ extras: { dialect: 'anthropic', fields: { 'anthropic-beta': ['b-1', 7], '?beta': 'true' } } });
    expect(body).not.toHaveProperty('anthropic-beta');
    expect(body).not.toHaveProperty('?beta');
    expect(http.path).toBe('/v1/messages?beta=true');
    expect(http.headers['anthropic-beta']).toBe('b-1');
    expect(encode({ extras: { dialect: 'anthropic', fields: { '?beta': 'true' } } }).http.path).toBe('/v1/messages');
  });

  it('an unknown thinking mode replayed from an Anthropic caller is sent as it came', () => {
    expect(encode({ extras: { dialect: 'anthropic', fields: { thinking: { type: 'between_tools' } } } }).body.thinking).toEqual({ type: 'between_tools' });
  });
});
