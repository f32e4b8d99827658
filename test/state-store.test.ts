import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStateStore, type RedisStateStore } from '../src/runtime/redis-store.ts';
import { startRedis, type RunningRedis } from './support/redis.ts';
import { kvStateStore, memoryStateStore, type KvNamespaceLike, type StateStore } from '../src/upstream/state-store.ts';

/** What every backend must do. */
function behaves(name: string, make: () => { store: StateStore; advance?: (ms: number) => void }) {
  describe(name, () => {
    it('keeps, replaces and deletes values', async () => {
      const { store } = make();
      expect(await store.get('a')).toBeUndefined();
      await store.put('a', 'one', 3600);
      expect(await store.get('a')).toBe('one');
      await store.put('a', 'two', 3600);
      expect(await store.get('a')).toBe('two');
      await store.delete('a');
      expect(await store.get('a')).toBeUndefined();
    });

    it('forgets a value after its time to live', async () => {
      const { store, advance } = make();
      if (!advance) return;
      await store.put('t', 'x', 60);
      advance(59_000);
      expect(await store.get('t')).toBe('x');
      advance(2_000);
      expect(await store.get('t')).toBeUndefined();
    });
  });
}

behaves('memory store', () => {
  let t = 0;
  return { store: memoryStateStore({ now: () => t }), advance: (ms) => (t += ms) };
});

describe('memory store bounds', () => {
  it('evicts the oldest past its size cap, and refuses one entry larger than the cap', async () => {
    const store = memoryStateStore({ maxBytes: 30, now: () => 0 });
    await store.put('k1', 'x'.repeat(10), 60);
    await store.put('k2', 'x'.repeat(10), 60);
    await store.put('k3', 'x'.repeat(10), 60);
    expect(await store.get('k1')).toBeUndefined();
    expect(await store.get('k3')).toBeDefined();
    await expect(store.put('big', 'x'.repeat(40), 60)).rejects.toMatchObject({ kind: 'too-large' });
  });
});

behaves('Workers KV store', () => {
  let t = 0;
  const m = new Map<string, { v: string; until: number }>();
  const kv: KvNamespaceLike = {
    get: async (k) => {
      const e = m.get(k);
      return e && e.until > t ? e.v : null;
    },
    put: async (k, v, o) => void m.set(k, { v, until: t + (o?.expirationTtl ?? 1e9) * 1000 }),
    delete: async (k) => void m.delete(k),
  };
  return { store: kvStateStore(kv), advance: (ms) => (t += ms) };
});

describe('Redis store (a real redis-server)', () => {
  let redis: RunningRedis;
  const stores: RedisStateStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await redis?.stop();
  });
  const make = () => {
    const store = redisStateStore(redis.url, `t${stores.length}:`);
    stores.push(store);
    return store;
  };

  it('keeps, replaces and deletes values, shared by two clients', async () => {
    const a = make();
    const b = redisStateStore(redis.url, 't0:');
    stores.push(b);
    await a.put('shared', 'v1', 60);
    expect(await b.get('shared')).toBe('v1');
    await b.delete('shared');
    expect(await a.get('shared')).toBeUndefined();
  });

  it('sets the time to live on the key', async () => {
    const store = make();
    await store.put('ttl', 'x', 2);
    expect(await store.get('ttl')).toBe('x');
    await new Promise((r) => setTimeout(r, 2_100));
    expect(await store.get('ttl')).toBeUndefined();
  });

  it('an unreachable Redis is a 503, not a hang', async () => {
    const store = redisStateStore('redis://127.0.0.1:9', 'x:');
    stores.push(store);
    await expect(store.get('k')).rejects.toMatchObject({ status: 503 });
  });
});
