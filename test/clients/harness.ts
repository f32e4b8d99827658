/**
 * The real-client runs' setup: one mock upstream (scripted per test) and Interlingua on Node in
 * front of it, with an upstream of every dialect and a model name routed to each.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, startProxy, type RunningProxy, type TargetKind } from '../support/proxy.ts';
import type { Dialect } from './scripted-upstream.ts';

export { INBOUND_KEY };

/** The model name a client asks for to reach the upstream of each dialect. */
export const MODEL_FOR: Record<Dialect, string> = {
  openai: 'to-openai',
  anthropic: 'to-anthropic',
  gemini: 'to-gemini',
  'openai-responses': 'to-responses',
};

export const DIALECTS = Object.keys(MODEL_FOR) as Dialect[];

/** Upstreams of every dialect on the mock; `models` maps more names (e.g. Codex's model) onto them. */
export function clientsConfig(mockUrl: string, models: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const up = (dialect: Dialect, baseUrl: string) => ({ dialect, baseUrl, apiKey: `sk-upstream-${dialect}`, retry: { attempts: 1 } });
  return {
    keys: [INBOUND_KEY],
    upstreams: {
      openai: up('openai', `${mockUrl}/v1`),
      anthropic: up('anthropic', mockUrl),
      gemini: up('gemini', mockUrl),
      'openai-responses': up('openai-responses', `${mockUrl}/v1`),
    },
    models: {
      'to-openai': { upstream: 'openai', model: 'gpt-4o-mini' },
      'to-anthropic': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      'to-gemini': { upstream: 'gemini', model: 'gemini-2.5-flash' },
      'to-responses': { upstream: 'openai-responses', model: 'gpt-5-mini' },
      ...models,
    },
    fetchAllowHosts: ['127.0.0.1'],
    ...(process.env.INTERLINGUA_CLIENTS_DEBUG ? { log: { debug: true } } : {}),
    ...extra,
  };
}

export interface ClientsHarness {
  mock: MockUpstream;
  proxy: RunningProxy;
}

/** A mock and a proxy (Node unless asked) for the enclosing `describe`; the mock's requests cleared per test. */
export function useClientsHarness(config: (mockUrl: string) => unknown = clientsConfig, kind: TargetKind = 'node'): ClientsHarness {
  const h = {} as ClientsHarness;
  beforeAll(async () => {
    h.mock = await startMockUpstream();
    h.proxy = await startProxy(config(h.mock.url), {}, kind);
  }, 120_000);
  afterAll(async () => {
    if (process.env.INTERLINGUA_CLIENTS_DEBUG) console.error(h.proxy?.logs.join('\n'));
    await h.proxy?.close();
    await h.mock?.close();
  });
  beforeEach(() => {
    if (h.mock) h.mock.requests.length = 0;
  });
  return h;
}
