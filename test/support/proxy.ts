/**
 * Starting Interlingua for end-to-end tests: a real server on 127.0.0.1 with a config document,
 * its log lines collected so tests can check them (and scan them for keys).
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { startNode } from '../../src/runtime/node.ts';

export interface RunningProxy {
  url: string;
  logs: string[];
  close(): Promise<void>;
}

/** Keys used by end-to-end configs; every response and log line is scanned for the upstream ones. */
export const INBOUND_KEY = 'il-test-inbound-key';
export const UPSTREAM_KEYS = {
  openai: 'sk-upstream-openai-SECRET-1111',
  anthropic: 'sk-ant-upstream-SECRET-2222',
  gemini: 'AIza-upstream-SECRET-3333',
  responses: 'sk-upstream-responses-SECRET-4444',
} as const;

/**
 * The turn memo (src/flows/forward/turn-memo.ts) in the end-to-end suites: on for every body,
 * however small (its default keeps only bodies from 64 KB, which few tests send), so every suite
 * runs through it; `INTERLINGUA_TEST_TURN_MEMO=off` runs them with it off.
 */
export const TURN_MEMO_LIMITS = process.env.INTERLINGUA_TEST_TURN_MEMO === 'off' ? { turnMemoBytes: 0 } : { turnMemoFromBytes: 0 };

/** A config with one upstream of each dialect on the mock, and catch-all routes per dialect. */
export function e2eConfig(mockUrl: string, overrides: Record<string, unknown> = {}) {
  const { limits, ...rest } = overrides as { limits?: Record<string, unknown> };
  return {
    keys: [INBOUND_KEY],
    upstreams: {
      openai: { dialect: 'openai', baseUrl: `${mockUrl}/v1`, apiKey: UPSTREAM_KEYS.openai, retry: { attempts: 1 } },
      anthropic: { dialect: 'anthropic', baseUrl: mockUrl, apiKey: UPSTREAM_KEYS.anthropic, retry: { attempts: 1 } },
      gemini: { dialect: 'gemini', baseUrl: mockUrl, apiKey: UPSTREAM_KEYS.gemini, retry: { attempts: 1 } },
    },
    models: {
      'gpt-*': { upstream: 'openai' },
      'claude-*': { upstream: 'anthropic' },
      'gemini-*': { upstream: 'gemini' },
      'to-openai': { upstream: 'openai', model: 'gpt-4o-mini' },
      'to-anthropic': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      'to-gemini': { upstream: 'gemini', model: 'gemini-2.5-flash' },
    },
    fetchAllowHosts: ['127.0.0.1'],
    ...rest,
    limits: { ...TURN_MEMO_LIMITS, ...limits },
  };
}

/**
 * `e2eConfig` plus an `openai-responses` upstream on the mock (`{mock}/v1/responses`) and the
 * route `to-responses` → gpt-5-mini; kept apart so the other suites' upstream set (and the model
 * lists they ask for) stays as it was.
 */
export function responsesE2eConfig(mockUrl: string, overrides: Record<string, unknown> = {}) {
  const base = e2eConfig(mockUrl);
  return {
    ...base,
    upstreams: {
      ...base.upstreams,
      responses: { dialect: 'openai-responses', baseUrl: `${mockUrl}/v1`, apiKey: UPSTREAM_KEYS.responses, retry: { attempts: 1 } },
    },
    models: { ...base.models, 'to-responses': { upstream: 'responses', model: 'gpt-5-mini' } },
    ...overrides,
  };
}

/**
 * Runtimes the end-to-end suites run against: both by default; `INTERLINGUA_E2E_TARGETS=node`
 * (or `worker`) narrows it.
 */
export type TargetKind = 'node' | 'worker';
export const TARGETS: TargetKind[] = (process.env.INTERLINGUA_E2E_TARGETS ?? 'node,worker')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is TargetKind => s === 'node' || s === 'worker');

/**
 * Start Interlingua with this config document and environment: on Node (`startNode`, the config
 * parsed here), or as the built Worker in workerd (the document as the `INTERLINGUA_CONFIG`
 * binding, `env` as string bindings, workerd's console output as `logs`).
 */
export async function startProxy(
  configDoc: unknown,
  env: Record<string, string> = {},
  kind: TargetKind = 'node',
  /** Workers: bind a KV namespace as the state store (`INTERLINGUA_STATE`). */
  o: { stateKv?: boolean } = {},
): Promise<RunningProxy> {
  if (kind === 'worker') {
    const { startWorker } = await import('./worker.ts');
    const w = await startWorker({ ...env, INTERLINGUA_CONFIG: JSON.stringify(configDoc) }, o.stateKv ? { kvNamespaces: ['INTERLINGUA_STATE'] } : {});
    return { url: w.url, logs: w.logs, close: w.close };
  }
  const logs: string[] = [];
  const running = await startNode({ config: parseConfig(configDoc, env), port: 0, log: (l) => logs.push(l) });
  return { url: `http://127.0.0.1:${running.port}`, logs, close: running.close };
}

export interface Harness {
  mock: MockUpstream;
  proxy: RunningProxy;
}

/**
 * A mock upstream and a proxy for the enclosing `describe`: started before its tests, closed
 * after them, the mock's received requests cleared before each test.
 */
export function useHarness(kind: TargetKind, config: (mockUrl: string) => unknown = e2eConfig, o: { stateKv?: boolean } = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    h.mock = await startMockUpstream();
    h.proxy = await startProxy(config(h.mock.url), {}, kind, o);
  });
  afterAll(async () => {
    await h.proxy?.close();
    await h.mock?.close();
  });
  beforeEach(() => {
    if (h.mock) h.mock.requests.length = 0;
  });
  return h;
}
