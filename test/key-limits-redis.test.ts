/**
 * One budget across instances: two proxies on one real redis-server count a key's requests and
 * tokens together, so the key gets exactly its limit whichever instance it reaches. When Redis
 * goes away, limits fail open: requests are served, the log line says `not-counted:redis`, and
 * `/metrics` counts it.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.ts';
import { e2eConfig, startProxy, type RunningProxy } from './support/proxy.ts';
import { startRedis, type RunningRedis } from './support/redis.ts';
import { rejection } from './e2e/interactions-helpers.ts';
import { UPSTREAMS } from './e2e/responses-helpers.ts';

const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;
const RPM_KEY = 'il-shared-rpm-64b1d0a9';
const TOKENS_KEY = 'il-shared-tokens-2c7e58f3';
const RUSH_KEY = 'il-shared-rush-b70d3e16';

let redis: RunningRedis;
let mock: MockUpstream;
let a: RunningProxy;
let b: RunningProxy;

beforeAll(async () => {
  redis = await startRedis();
  mock = await startMockUpstream();
  const doc = e2eConfig(mock.url, {
    keys: [
      { key: RPM_KEY, name: 'shared-rpm', limits: { requestsPerMinute: 3 } },
      { key: TOKENS_KEY, name: 'shared-tokens', limits: { tokensPerMinute: 36 } },
      { key: RUSH_KEY, name: 'shared-rush', limits: { requestsPerMinute: 3 } },
    ],
    store: { url: redis.url },
    metrics: true,
  });
  a = await startProxy(doc);
  b = await startProxy(doc);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await mock?.close();
  await redis?.stop();
});
beforeEach(async () => {
  mock.requests.length = 0;
  mock.reply(anthropic.text('Hello there', false));
  // Counting is in calendar minutes: start early enough in one to finish in it.
  const into = (Date.now() % 60_000) / 1000;
  if (into > 45) await new Promise((r) => setTimeout(r, (60 - into) * 1000 + 100));
});

const ask = (proxy: RunningProxy, key: string) =>
  new OpenAI({ apiKey: key, baseURL: `${proxy.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }] });

describe('two instances on one Redis', () => {
  it('share requests per minute: three in all, whichever instance takes them, then a 429 from both', async () => {
    await ask(a, RPM_KEY);
    await ask(b, RPM_KEY);
    await ask(a, RPM_KEY);
    for (const p of [b, a]) {
      const e = await rejection(ask(p, RPM_KEY));
      expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    }
    expect(mock.requests).toHaveLength(3);
  });

  it('requests let in at once across both: exactly the limit, never more', async () => {
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => ask(i % 2 ? a : b, RUSH_KEY)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(OpenAI.RateLimitError);
    expect(mock.requests).toHaveLength(3);
  });

  it('share a token budget: the answer one instance served counts on the other', async () => {
    await ask(a, TOKENS_KEY); // 18
    await ask(b, TOKENS_KEY); // 36: reached
    const e = await rejection(ask(a, TOKENS_KEY));
    expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    expect((e as InstanceType<typeof OpenAI.RateLimitError>).message).toContain('limit of 36 tokens per minute');
    expect(mock.requests).toHaveLength(2);
  });

  it('Redis gone: served anyway (limits fail open), the log line says not-counted:redis, /metrics counts it', async () => {
    await redis.stop();
    const before = a.logs.length;
    const res = await ask(a, RPM_KEY);
    expect(res.choices[0]!.message.content).toBe('Hello there');
    await new Promise((r) => setTimeout(r, 100));
    const line = a.logs.slice(before).map((l) => JSON.parse(l)).find((l) => l.route === 'chat.completions');
    expect(line).toMatchObject({ status: 200, keyName: 'shared-rpm', warnings: ['not-counted:redis'] });
    const metrics = await (await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${RPM_KEY}` } })).text();
    expect(metrics).toMatch(/^interlingua_limit_store_failures_total\{store="redis"\} [1-9]/m);
    expect(a.logs.join('\n')).not.toContain(RPM_KEY);
    expect(a.logs.join('\n')).not.toContain(TOKENS_KEY);
  });
});
