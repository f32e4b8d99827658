/**
 * The limit counters' one contract, run against every backend: memory, Workers KV (a faithful
 * fake of its get/put/expirationTtl, whose clock moves, and a real namespace in workerd) and a
 * real redis-server, two clients on one Redis agreeing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStores, type RedisStores } from '../../src/runtime/redis-store.ts';
import { kvCounterStore, memoryCounterStore, type CounterStore } from '../../src/upstream/limits/counters.ts';
import type { KvNamespaceLike } from '../../src/upstream/state-store.ts';
import { startBindings, type WorkerBindings } from '../support/bindings.ts';
import { startRedis, type RunningRedis } from '../support/redis.ts';

interface Backend {
  store: CounterStore;
  /** Move the store's clock (memory and KV only). */
  advance?: (ms: number) => void;
  now: () => number;
}

function behaves(name: string, make: () => Backend | Promise<Backend>) {
  describe(name, () => {
    it('starts at 0, adds in order and says the value after each add', async () => {
      const { store, now } = await make();
      const until = now() + 60_000;
      expect(await store.read(['a', 'b'])).toEqual([0, 0]);
      expect(await store.add([{ key: 'a', by: 1, expiresAt: until }, { key: 'b', by: 2.5, expiresAt: until }])).toEqual([1, 2.5]);
      expect(await store.add([{ key: 'a', by: 1, expiresAt: until }, { key: 'a', by: -1, expiresAt: until }])).toEqual([2, 1]);
      expect(await store.read(['b', 'a', 'c'])).toEqual([2.5, 1, 0]);
      expect(await store.read([])).toEqual([]);
    });

    it('adds fractions of a dollar', async () => {
      const { store, now } = await make();
      for (let i = 0; i < 10; i++) await store.add([{ key: 'cost', by: 0.1, expiresAt: now() + 60_000 }]);
      const [v] = await store.read(['cost']);
      expect(v).toBeCloseTo(1, 9);
    });

    it('forgets a counter once its window is over', async () => {
      const { store, advance, now } = await make();
      if (!advance) return;
      await store.add([{ key: 'w', by: 5, expiresAt: now() + 61_000 }]);
      advance(60_000);
      expect(await store.read(['w'])).toEqual([5]);
      advance(2_000);
      expect(await store.read(['w'])).toEqual([0]);
      expect(await store.add([{ key: 'w', by: 1, expiresAt: now() + 61_000 }])).toEqual([1]);
    });
  });
}

behaves('memory counters', () => {
  let t = Date.UTC(2026, 0, 1);
  return { store: memoryCounterStore({ now: () => t }), advance: (ms) => (t += ms), now: () => t };
});

describe('memory counters bounds', () => {
  it('sweeps the expired ones once it holds many', async () => {
    let t = 0;
    const store = memoryCounterStore({ now: () => t, sweepAt: 3 });
    await store.add([{ key: 'a', by: 1, expiresAt: 10 }, { key: 'b', by: 1, expiresAt: 10 }, { key: 'c', by: 1, expiresAt: 100 }]);
    t = 50;
    await store.add([{ key: 'd', by: 1, expiresAt: 100 }]);
    expect(await store.read(['a', 'c', 'd'])).toEqual([0, 1, 1]);
  });
});

behaves('Workers KV counters', () => {
  let t = Date.UTC(2026, 0, 1);
  const m = new Map<string, { v: string; until: number }>();
  const kv: KvNamespaceLike = {
    get: async (k) => {
      const e = m.get(k);
      return e && e.until > t ? e.v : null;
    },
    put: async (k, v, o) => {
      if ((o?.expirationTtl ?? 60) < 60) throw new Error('KV: expirationTtl must be at least 60');
      m.set(k, { v, until: t + (o?.expirationTtl ?? 1e9) * 1000 });
    },
    delete: async (k) => void m.delete(k),
  };
  return { store: kvCounterStore(kv, () => t), advance: (ms) => (t += ms), now: () => t };
});

describe('Workers KV counters (a real namespace in workerd)', () => {
  let bindings: WorkerBindings;
  beforeAll(async () => {
    bindings = await startBindings(4);
  }, 60_000);
  afterAll(() => bindings?.close());
  behaves('conformance', async () => ({ store: kvCounterStore(await bindings.kv()), now: Date.now }));
});

describe('Redis counters (a real redis-server)', () => {
  let redis: RunningRedis;
  const opened: RedisStores[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const s of opened) await s.close();
    await redis?.stop();
  });
  const open = (prefix: string) => {
    const s = redisStores(redis.url, prefix);
    opened.push(s);
    return s;
  };
  let n = 0;
  behaves('conformance', async () => {
    const s = open(`c${n++}:`);
    await s.ping();
    return { store: s.counters, now: Date.now };
  });

  it('connects at ping; two clients share one count, every add atomic', async () => {
    const a = open('shared:');
    const b = open('shared:');
    expect(await a.ping()).toBe(true);
    expect(await b.ping()).toBe(true);
    const until = Date.now() + 60_000;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).counters.add([{ key: 'rpm', by: 1, expiresAt: until }])));
    expect(results.map(([v]) => v).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await a.counters.read(['rpm'])).toEqual([40]);
  });

  it('sets the expiry on the key', async () => {
    const s = open('ttl:');
    await s.ping();
    await s.counters.add([{ key: 'soon', by: 1, expiresAt: Date.now() + 1_200 }]);
    expect(await s.counters.read(['soon'])).toEqual([1]);
    await new Promise((r) => setTimeout(r, 1_400));
    expect(await s.counters.read(['soon'])).toEqual([0]);
  });

  it('unreachable: a counter call fails at once, it does not wait; ping says no', async () => {
    const s = open('gone:');
    const down = redisStores('redis://127.0.0.1:9', 'x:');
    opened.push(down);
    const started = Date.now();
    await expect(down.counters.read(['k'])).rejects.toThrow(/not connected/);
    await expect(down.counters.add([{ key: 'k', by: 1, expiresAt: Date.now() + 1000 }])).rejects.toThrow(/not connected/);
    expect(Date.now() - started).toBeLessThan(500);
    expect(await down.ping(300)).toBe(false);
    expect(s).toBeDefined();
  });
});
