import { describe, expect, it } from 'vitest';
import { ProxyError } from '../canonical/index.ts';
import { parseConfig, type InboundKey } from '../config/load.ts';
import { RequestScope } from '../observe/scope.ts';
import { memoryCounterStore, type CounterStore } from './limits/counters.ts';
import { createMeter } from './meter.ts';

const NOW = Date.parse('2026-12-01T10:05:00Z');
const config = (over: Record<string, unknown> = {}) =>
  parseConfig({
    keys: [{ key: 'k', name: 'team-a', limits: { requestsPerMinute: 1, tokensPerMinute: 1000 } }, 'free'],
    upstreams: { u: { dialect: 'anthropic', baseUrl: 'http://127.0.0.1:9' } },
    models: { '*': { upstream: 'u' } },
    ...over,
  });
const scopeOf = () => new RequestScope('messages', 'req_1', () => NOW);
const team = (c = config()) => c.keys[0]!;
const broken: CounterStore = {
  kind: 'redis',
  read: () => Promise.reject(new Error('down')),
  add: () => Promise.reject(new Error('down')),
};

describe('meter: cost on the log line', () => {
  it('the usage at the price of the model sent upstream', () => {
    const meter = createMeter({ config: config(), now: () => NOW });
    const scope = scopeOf();
    scope.servedModel = 'claude-sonnet-4-5-20250929';
    scope.usage({ inputTokens: 1000, outputTokens: 100, totalTokens: 1100 });
    const entry = scope.finishLog(200);
    expect(meter.settle(scope, entry, undefined)).toBeUndefined();
    expect(entry.cost).toBe((1000 * 3 + 100 * 15) / 1e6);
    expect(entry.unpriced).toBeUndefined();
  });

  it('an unpriced model: no cost, said unpriced; the upstream\'s own cost is believed', () => {
    const meter = createMeter({ config: config(), now: () => NOW });
    const a = scopeOf();
    a.servedModel = 'my-own-model';
    a.usage({ inputTokens: 10, outputTokens: 1, totalTokens: 11 });
    const ea = a.finishLog(200);
    meter.settle(a, ea, undefined);
    expect(ea).toMatchObject({ unpriced: 'my-own-model' });
    expect(ea).not.toHaveProperty('cost');
    const b = scopeOf();
    b.servedModel = 'claude-sonnet-4-5';
    b.usage({ inputTokens: 10, outputTokens: 1, totalTokens: 11, cost: 0.5 });
    const eb = b.finishLog(200);
    meter.settle(b, eb, undefined);
    expect(eb.cost).toBe(0.5);
  });

  it('the config\'s prices win; the request\'s 1-hour TTL prices unsplit cache writes', () => {
    const meter = createMeter({ config: config({ prices: { 'claude-sonnet-4-5': { cacheWrite1h: 10 } } }), now: () => NOW });
    const scope = scopeOf();
    scope.servedModel = 'claude-sonnet-4-5';
    scope.longCacheTtl = true;
    scope.usage({ inputTokens: 1000, cacheWriteTokens: 1000, outputTokens: 0, totalTokens: 1000 });
    const entry = scope.finishLog(200);
    meter.settle(scope, entry, undefined);
    expect(entry.cost).toBe(0.01);
  });

  it('a stream cut short: what the upstream said, or a token per four characters streamed and per four bytes of the request', () => {
    const meter = createMeter({ config: config(), now: () => NOW });
    const scope = scopeOf();
    scope.servedModel = 'claude-sonnet-4-5';
    scope.requestBytes = 4000;
    scope.streaming = true;
    scope.usage({ inputTokens: 500, outputTokens: 1, totalTokens: 501 });
    scope.streamedChars = 4001;
    scope.streamEnded(new ProxyError('upstream', 'Upstream closed the stream early.'));
    const entry = scope.finishLog(200);
    meter.settle(scope, entry, undefined);
    expect(entry).toMatchObject({ tokensIn: 500, tokensOut: 1001, tokensEstimated: true, cost: (500 * 3 + 1001 * 15) / 1e6 });
    // Nothing said at all: the input from the request's size.
    const quiet = scopeOf();
    quiet.servedModel = 'claude-sonnet-4-5';
    quiet.requestBytes = 4000;
    quiet.streamedChars = 8;
    const e2 = quiet.finishLog(200);
    meter.settle(quiet, e2, undefined);
    expect(e2).toMatchObject({ tokensIn: 1000, tokensOut: 2, tokensEstimated: true });
  });
});

describe('meter: limits', () => {
  it('admits, then refuses with a 429 carrying retry-after and the limit on the log line', async () => {
    const c = config();
    const meter = createMeter({ config: c, counters: memoryCounterStore({ now: () => NOW }), now: () => NOW });
    await meter.admit(scopeOf(), team(c));
    const scope = scopeOf();
    const e = await Promise.resolve(meter.admit(scope, team(c))).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProxyError);
    expect(e).toMatchObject({ kind: 'rate-limit', status: 429, retryAfter: 60, code: 'key_limit_reached' });
    expect(scope.log.limit).toBe('requestsPerMinute');
  });

  it('a key without limits, or no key, is never counted (nothing to wait for)', () => {
    const c = config();
    const meter = createMeter({ config: c, counters: memoryCounterStore(), now: () => NOW });
    expect(meter.admit(scopeOf(), c.keys[1] as InboundKey)).toBeUndefined();
    expect(meter.admit(scopeOf(), undefined)).toBeUndefined();
  });

  it('counts the tokens of an answered request; a refused one counts nothing', async () => {
    const c = config();
    const counters = memoryCounterStore({ now: () => NOW });
    const meter = createMeter({ config: c, counters, now: () => NOW });
    const scope = scopeOf();
    scope.servedModel = 'claude-sonnet-4-5';
    scope.usage({ inputTokens: 700, outputTokens: 300, totalTokens: 1000 });
    await meter.settle(scope, scope.finishLog(200), team(c));
    expect(await counters.read(['limits:team-a:tokens:2026-12-01T10:05'])).toEqual([1000]);
    const refused = scopeOf();
    refused.log.limit = 'requestsPerMinute';
    refused.usage({ inputTokens: 5, outputTokens: 5, totalTokens: 10 });
    expect(meter.settle(refused, refused.finishLog(429), team(c))).toBeUndefined();
  });

  it('a counter store that fails: the request passes, and the log line says not-counted', async () => {
    const c = config();
    const meter = createMeter({ config: c, counters: broken, now: () => NOW });
    const scope = scopeOf();
    await meter.admit(scope, team(c));
    scope.usage({ inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    const entry = scope.finishLog(200);
    expect(entry.warnings).toEqual(['not-counted:redis']);
    await meter.settle(scope, entry, team(c));
    expect(entry.warnings).toEqual(['not-counted:redis']);
    const later = scopeOf();
    later.usage({ inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    const e2 = later.finishLog(200);
    await meter.settle(later, e2, team(c));
    expect(e2.warnings).toEqual(['not-counted:redis']);
  });
});
