/**
 * `timeouts.totalMs` bounds a whole request, on every caller dialect: an upstream that never
 * answers (within a first-byte timeout longer than the total) ends in a 504 in the caller's
 * shape once the total is spent, and nothing is retried after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';
import { CALLERS, call, errorMessage } from './callers.ts';

let mock: MockUpstream;
let proxy: RunningProxy;
const TOTAL_MS = 700;

beforeAll(async () => {
  mock = await startMockUpstream();
  const cfg = e2eConfig(mock.url);
  for (const u of Object.values(cfg.upstreams)) Object.assign(u, { timeouts: { firstByteMs: 30_000, totalMs: TOTAL_MS }, retry: { attempts: 3, baseDelayMs: 5 } });
  proxy = await startProxy(cfg);
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

describe.each(CALLERS)('total deadline, %s caller', (caller) => {
  it('a hanging upstream → 504 once timeouts.totalMs is spent, no retry after it', async () => {
    mock.requests.length = 0;
    mock.reply({ hang: true });
    const started = Date.now();
    const r = await call(caller, proxy.url, 'to-openai');
    const took = Date.now() - started;
    expect(r.status).toBe(504);
    expect(errorMessage(caller, r.json)).toMatch(/within 700 ms \(timeouts\.totalMs\)/);
    expect(took).toBeGreaterThanOrEqual(TOTAL_MS - 50);
    expect(took).toBeLessThan(5_000);
    expect(mock.requests).toHaveLength(1);
  });
});
