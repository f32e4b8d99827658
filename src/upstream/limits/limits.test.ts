import { describe, expect, it } from 'vitest';
import { memoryCounterStore } from './counters.ts';
import { admit, spend, type LimitedKey } from './limits.ts';

const T0 = Date.parse('2026-12-01T10:05:20Z');

function setup(limits: LimitedKey['limits']) {
  let t = T0;
  const store = memoryCounterStore({ now: () => t });
  const key: LimitedKey = { name: 'team-a', limits };
  return { store, key, at: (iso: string) => (t = Date.parse(iso)), now: () => t };
}

describe('requests per minute', () => {
  it('lets in exactly the limit, refuses the next one until the minute ends, and a refusal counts nothing', async () => {
    const { store, key, now, at } = setup({ requestsPerMinute: 3 });
    for (let i = 0; i < 3; i++) expect(await admit(store, key, now())).toBeUndefined();
    const refused = await admit(store, key, now());
    expect(refused).toEqual({ limit: 'requestsPerMinute', retryAfter: 40, message: 'The key "team-a" has reached its limit of 3 requests per minute; retry in 40 s.' });
    await admit(store, key, now());
    expect(await store.read(['limits:team-a:requests:2026-12-01T10:05'])).toEqual([3]);
    at('2026-12-01T10:06:00Z');
    expect(await admit(store, key, now())).toBeUndefined();
  });

  it('requests let in at once: never more than the limit', async () => {
    const { store, key, now } = setup({ requestsPerMinute: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, () => admit(store, key, now())));
    expect(results.filter((r) => r === undefined)).toHaveLength(5);
    expect(await store.read(['limits:team-a:requests:2026-12-01T10:05'])).toEqual([5]);
  });
});

describe('tokens and cost', () => {
  it('a request is let in while the counter is under the limit; once it has reached it, the next is refused', async () => {
    const { store, key, now } = setup({ tokensPerMinute: 100 });
    expect(await admit(store, key, now())).toBeUndefined();
    await spend(store, key, { tokens: 99 }, now());
    expect(await admit(store, key, now())).toBeUndefined();
    await spend(store, key, { tokens: 1 }, now());
    expect(await admit(store, key, now())).toMatchObject({ limit: 'tokensPerMinute', retryAfter: 40 });
  });

  it('per day and per month: retry-after is the time to the end of the window that refused', async () => {
    const { store, key, now, at } = setup({ tokensPerMinute: 1000, tokensPerDay: 150, costPerDay: 5, costPerMonth: 10 });
    await spend(store, key, { tokens: 150, cost: 1 }, now());
    expect(await admit(store, key, now())).toMatchObject({ limit: 'tokensPerDay', retryAfter: 13 * 3600 + 54 * 60 + 40 });
    at('2026-12-02T00:00:00Z');
    expect(await admit(store, key, now())).toBeUndefined();
    await spend(store, key, { tokens: 10, cost: 9 }, now());
    const month = await admit(store, key, now());
    expect(month).toMatchObject({ limit: 'costPerMonth', retryAfter: 30 * 86400 });
    expect(month!.message).toBe('The key "team-a" has reached its limit of $5 per day and $10 per month; retry in 2592000 s.');
  });

  it('what a key has no limit for is not counted; an unknown cost adds nothing', async () => {
    const { store, key, now } = setup({ costPerDay: 1 });
    await spend(store, key, { tokens: 1_000_000 }, now());
    expect(await admit(store, key, now())).toBeUndefined();
    await spend(store, key, { tokens: 1, cost: 1 }, now());
    expect(await admit(store, key, now())).toMatchObject({ limit: 'costPerDay' });
    expect(await store.read(['limits:team-a:tokens:2026-12-01'])).toEqual([0]);
  });

  it('a refusal by tokens does not count the request against requests per minute', async () => {
    const { store, key, now } = setup({ requestsPerMinute: 10, tokensPerMinute: 1 });
    await spend(store, key, { tokens: 5 }, now());
    expect(await admit(store, key, now())).toMatchObject({ limit: 'tokensPerMinute' });
    expect(await store.read(['limits:team-a:requests:2026-12-01T10:05'])).toEqual([0]);
  });
});
