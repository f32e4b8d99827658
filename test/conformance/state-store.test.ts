/**
 * The state store's one contract (src/upstream/state-store.ts `StateStore`), run unchanged against
 * every backend — memory, a real redis-server, a real Workers KV namespace (workerd through
 * Miniflare) — and against each of them as one caller sees it (`stateScopes(...).bind`): keep,
 * replace, delete; a time to live that is honoured; keys that never alias; concurrent writes;
 * large values intact; and two callers on one backend sharing nothing.
 *
 * Expiry is checked by the backend's clock where it can be moved (memory), else by what the
 * backend itself says is left of a key's life (Redis `PTTL`, KV `list()`'s expiration), and Redis
 * once for real.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStateStore, type RedisStateStore } from '../../src/runtime/redis-store.ts';
import { stateScopes } from '../../src/upstream/state-scope.ts';
import { kvStateStore, memoryStateStore, type StateStore } from '../../src/upstream/state-store.ts';
import { startBindings, type WorkerBindings } from '../support/bindings.ts';
import { startRedis, type RunningRedis } from '../support/redis.ts';

interface Backend {
  store: StateStore;
  /** Moves the store's clock by `ms` (stores with an injectable clock). */
  advance?: (ms: number) => void;
  /** Seconds the backend says `key` has left to live (undefined: no such key, or no expiry). */
  ttlOf?: (key: string) => Promise<number | undefined>;
  /** The shortest time to live the backend keeps (KV: 60 s); shorter ones are raised to it. */
  minTtl?: number;
}

/** A backend: `make(i)` gives the i-th store, each sharing nothing with the others. */
interface Impl {
  name: string;
  make: () => Promise<Backend>;
  /** For Redis: wait until `key` is really gone after a 1 s time to live. */
  realExpiry?: boolean;
}

let redis: RunningRedis;
let bindings: WorkerBindings;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  [redis, bindings] = await Promise.all([startRedis(), startBindings(20)]);
}, 60_000);
afterAll(async () => {
  for (const c of closers) await c();
  await bindings?.close();
  await redis?.stop();
});

let prefixes = 0;
const memory = (): Backend => {
  let t = Date.UTC(2026, 0, 1);
  return { store: memoryStateStore({ now: () => t }), advance: (ms) => (t += ms) };
};
const onRedis = async (): Promise<Backend> => {
  const prefix = `p${prefixes++}:`;
  const store: RedisStateStore = redisStateStore(redis.url, prefix);
  const probe = createClient({ url: redis.url });
  await probe.connect();
  closers.push(() => store.close(), () => probe.quit());
  return {
    store,
    ttlOf: async (key) => {
      // The scoped views put the key under a caller id (`<prefix><id>:<key>`).
      const name = (await probe.keys(`${prefix}*`)).find((n) => n.endsWith(`:${key}`));
      const ms = name ? await probe.pTTL(name) : -2;
      return ms >= 0 ? ms / 1000 : undefined;
    },
  };
};
const onKv = async (): Promise<Backend> => {
  const kv = await bindings.kv();
  return {
    store: kvStateStore(kv),
    minTtl: 60,
    ttlOf: async (key) => {
      const hit = (await kv.list()).keys.find((k) => k.name === key || k.name.endsWith(`:${key}`));
      return hit?.expiration === undefined ? undefined : hit.expiration - Date.now() / 1000;
    },
  };
};
/** The same backend as one caller sees it. */
const scoped = (make: () => Promise<Backend> | Backend) => async (): Promise<Backend> => {
  const b = await make();
  return { ...b, store: { ...stateScopes(b.store, 'suite-secret').bind(`caller-${prefixes++}`), kind: b.store.kind } };
};

const impls: Impl[] = [
  { name: 'memory', make: async () => memory() },
  { name: 'Redis', make: onRedis, realExpiry: true },
  { name: 'Workers KV', make: onKv },
  { name: 'memory, one caller', make: scoped(memory) },
  { name: 'Redis, one caller', make: scoped(onRedis) },
  { name: 'Workers KV, one caller', make: scoped(onKv) },
];

describe.each(impls.map((i) => [i.name, i] as const))('state store: %s', (_name, impl) => {
  it('keeps, replaces and deletes a value; an unknown key is undefined', async () => {
    const { store } = await impl.make();
    expect(await store.get('a')).toBeUndefined();
    await store.put('a', 'one', 3600);
    expect(await store.get('a')).toBe('one');
    await store.put('a', 'two', 3600);
    expect(await store.get('a')).toBe('two');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    await store.delete('never-kept');
    expect(await store.get('never-kept')).toBeUndefined();
  });

  it('keys that look alike are different keys', async () => {
    const { store } = await impl.make();
    const keys = ['k', 'K', 'k ', ' k', 'k:', 'k:1', 'k1', 'ké', 'k\u0301', 'k/1', 'k*', 'resp_1', 'resp_10'];
    await Promise.all(keys.map((k, i) => store.put(k, `v${i}`, 3600)));
    expect(await Promise.all(keys.map((k) => store.get(k)))).toEqual(keys.map((_, i) => `v${i}`));
    await store.delete('k');
    expect(await store.get('k')).toBeUndefined();
    expect(await store.get('K')).toBe('v1');
  });

  it('keeps keys of any length (past KV’s 512 bytes) apart and intact', async () => {
    const { store } = await impl.make();
    const long = ['k'.repeat(511), 'k'.repeat(512), 'k'.repeat(513), 'é'.repeat(300), 'x'.repeat(10_000), `${'x'.repeat(10_000)}y`];
    await Promise.all(long.map((k, i) => store.put(k, `long${i}`, 3600)));
    expect(await Promise.all(long.map((k) => store.get(k)))).toEqual(long.map((_, i) => `long${i}`));
    await store.delete(long[4]!);
    expect(await store.get(long[4]!)).toBeUndefined();
    expect(await store.get(long[5]!)).toBe('long5');
    expect(await store.get('z'.repeat(2000))).toBeUndefined();
  });

  it('keeps values of any text intact, large ones too', async () => {
    const { store } = await impl.make();
    const values = ['', ' ', '{"a":[1,2,{"b":"é✓😀"}]}', 'line\r\nbreak\u0000nul', 'x'.repeat(1 << 20) + '✓'];
    for (const [i, v] of values.entries()) await store.put(`v${i}`, v, 3600);
    for (const [i, v] of values.entries()) expect(await store.get(`v${i}`), `value ${i}`).toBe(v);
  });

  it('concurrent writes: every key lands; one key ends with one whole value written to it', async () => {
    const { store } = await impl.make();
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.put(`c${i}`, `value-${i}`, 3600)));
    expect(await Promise.all(Array.from({ length: 40 }, (_, i) => store.get(`c${i}`)))).toEqual(Array.from({ length: 40 }, (_, i) => `value-${i}`));
    const written = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(1000));
    await Promise.all(written.map((v) => store.put('same', v, 3600)));
    expect(written).toContain(await store.get('same'));
  });

  it('honours the time to live', async () => {
    const { store, advance, ttlOf, minTtl = 0 } = await impl.make();
    await store.put('t', 'x', 120);
    await store.put('short', 'y', 0.5);
    expect(await store.get('short')).toBe('y');
    if (advance) {
      advance(119_000);
      expect(await store.get('t')).toBe('x');
      advance(2_000);
      expect(await store.get('t')).toBeUndefined();
      expect(await store.get('short')).toBeUndefined();
    } else {
      const left = await ttlOf!('t');
      expect(left).toBeGreaterThan(110);
      expect(left).toBeLessThanOrEqual(121);
      const short = await ttlOf!('short');
      expect(short).toBeGreaterThan(0);
      expect(short).toBeLessThanOrEqual(Math.max(1, minTtl) + 1);
      await store.put('t', 'x2', 600);
      expect(await ttlOf!('t')).toBeGreaterThan(590);
    }
  });

  it.runIf(impl.realExpiry)('forgets a value once its time to live is over (real time)', async () => {
    const { store } = await impl.make();
    await store.put('gone', 'x', 1);
    expect(await store.get('gone')).toBe('x');
    let value: string | undefined = 'x';
    for (let i = 0; i < 100 && value !== undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      value = await store.get('gone');
    }
    expect(value).toBeUndefined();
  });

  it('two stores share nothing', async () => {
    const [a, b] = [(await impl.make()).store, (await impl.make()).store];
    await a.put('same-key', 'from a', 3600);
    expect(await b.get('same-key')).toBeUndefined();
    await b.put('same-key', 'from b', 3600);
    await b.delete('same-key');
    expect(await a.get('same-key')).toBe('from a');
  });
});

describe.each([
  ['memory', async () => memory()],
  ['Redis', onRedis],
  ['Workers KV', onKv],
] as const)('one %s backend, two callers', (_name, make) => {
  it('share nothing: what one keeps the other cannot read, replace or delete', async () => {
    const { store } = await make();
    const scopes = stateScopes(store, undefined);
    const [a, b] = [scopes.bind('sk-caller-a'), scopes.bind('sk-caller-b')];
    await a.put('resp_1', 'a1', 3600);
    expect(await b.get('resp_1')).toBeUndefined();
    await b.put('resp_1', 'b1', 3600);
    await b.delete('resp_1');
    expect(await a.get('resp_1')).toBe('a1');
    expect(await scopes.bind(undefined).get('resp_1')).toBeUndefined();
    expect(await scopes.bind('sk-caller-a').get('resp_1')).toBe('a1');
  });
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

describe('Redis store', () => {
  it('two clients on one prefix see one store', async () => {
    const a = redisStateStore(redis.url, 'shared:');
    const b = redisStateStore(redis.url, 'shared:');
    closers.push(() => a.close(), () => b.close());
    await a.put('shared', 'v1', 60);
    expect(await b.get('shared')).toBe('v1');
    await b.delete('shared');
    expect(await a.get('shared')).toBeUndefined();
  });

  it('an unreachable Redis is a 503, not a hang', async () => {
    const store = redisStateStore('redis://127.0.0.1:9', 'x:');
    closers.push(() => store.close());
    await expect(store.get('k')).rejects.toMatchObject({ status: 503 });
  });
});
