import { describe, expect, it } from 'vitest';
import { parseConfig, type Upstream } from '../config/load.ts';
import { PIN_IDLE_MS, pinTable, sharedView } from './affinity.ts';
import { createKeyPools, type KeyPools } from './key-pool.ts';
import { memoryStateStore, type StateStore } from './state-store.ts';

function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function upstreamWith(extra: Record<string, unknown>, name = 'u'): Upstream {
  const doc = {
    keys: ['in'],
    upstreams: { [name]: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: ['sk-key-0', 'sk-key-1', 'sk-key-2'], ...extra } },
    models: { '*': { upstream: name } },
  };
  return parseConfig(doc).upstreams[name]!;
}

/** The first key `order` offers, `n` times (each a new request without a session). */
async function firsts(pools: KeyPools, u: Upstream, n: number, session?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await pools.of(u)!.order(session))[0]!);
  return out;
}

describe('a key pool', () => {
  it('is none for a one-key upstream', () => {
    const pools = createKeyPools({ now: Date.now });
    expect(pools.of(upstreamWith({ apiKey: 'sk-one' }))).toBeUndefined();
    expect(pools.of(upstreamWith({ apiKey: ['sk-one'] }))).toBeUndefined();
  });

  it('round-robin starts each request one key further, and offers every key once', async () => {
    const pools = createKeyPools({ now: Date.now });
    const u = upstreamWith({});
    expect(await firsts(pools, u, 6)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(await pools.of(u)!.order()).toEqual([0, 1, 2]);
    expect(await pools.of(u)!.order()).toEqual([1, 2, 0]);
  });

  it('fill-first always starts at the first key', async () => {
    const pools = createKeyPools({ now: Date.now });
    const u = upstreamWith({ apiKeyStrategy: 'fill-first' });
    expect(await firsts(pools, u, 4)).toEqual([0, 0, 0, 0]);
  });

  it('leaves a cooling key out until its time has passed, and says the soonest wait rounded up', async () => {
    const t = clock();
    const pools = createKeyPools({ now: t.now });
    const u = upstreamWith({ apiKeyStrategy: 'fill-first' });
    const pool = pools.of(u)!;
    await pool.cool(0, 30);
    await pool.cool(1, 2.5);
    expect(await pool.order()).toEqual([2]);
    expect(pool.cooling(0)).toBe(true);
    expect(pool.soonest()).toBe(3);
    // A shorter cooldown never shortens a longer one.
    await pool.cool(0, 1);
    t.advance(2_600);
    expect(await pool.order()).toEqual([1, 2]);
    await pool.cool(2, 60);
    await pool.cool(1, 60);
    expect(await pool.order()).toEqual([]);
    expect(pool.soonest()).toBe(28);
    t.advance(27_400);
    expect(await pool.order()).toEqual([0]);
  });

  it('a session sticks to the key it was served by, and moves with it when it cools', async () => {
    const t = clock();
    const pools = createKeyPools({ now: t.now });
    const u = upstreamWith({});
    const pool = pools.of(u)!;
    const s = await pools.session('session-a');
    const first = (await pool.order(s))[0]!;
    await pool.served(first, s);
    expect(await firsts(pools, u, 4, s)).toEqual([first, first, first, first]);
    await pool.cool(first, 60);
    const moved = (await pool.order(s))[0]!;
    expect(moved).not.toBe(first);
    await pool.served(moved, s);
    t.advance(61_000);
    // Its old key is back, but the session stays where it went.
    expect(await firsts(pools, u, 3, s)).toEqual([moved, moved, moved]);
    // Others follow the strategy meanwhile.
    expect(new Set(await firsts(pools, u, 3))).toEqual(new Set([0, 1, 2]));
  });

  it('forgets a pin after an hour without use', async () => {
    const t = clock();
    const pools = createKeyPools({ now: t.now });
    const u = upstreamWith({ apiKeyStrategy: 'fill-first' });
    const pool = pools.of(u)!;
    const s = await pools.session('s');
    await pool.served(2, s);
    t.advance(PIN_IDLE_MS - 1000);
    expect((await pool.order(s))[0]).toBe(2);
    t.advance(PIN_IDLE_MS - 1000);
    expect((await pool.order(s))[0]).toBe(2);
    t.advance(PIN_IDLE_MS + 1);
    expect((await pool.order(s))[0]).toBe(0);
  });

  it('names a key by position and fingerprint, never by the key', async () => {
    const pools = createKeyPools({ now: Date.now });
    const pool = pools.of(upstreamWith({}))!;
    await pool.order();
    const labels = [0, 1, 2].map((i) => pool.label(i));
    expect(labels[1]).toMatch(/^apiKey\[1\]#[0-9a-f]{12}$/);
    expect(new Set(labels).size).toBe(3);
    expect(labels.join()).not.toContain('sk-key');
  });
});

describe('session hashes', () => {
  it('are stable, keyed, 32 hex characters, never the identity', async () => {
    const a = createKeyPools({ now: Date.now });
    const b = createKeyPools({ now: Date.now });
    const keyed = createKeyPools({ now: Date.now, secret: 'team-secret' });
    const h = await a.session('user-1234');
    expect(h).toMatch(/^[0-9a-f]{32}$/);
    expect(await b.session('user-1234')).toBe(h);
    expect(await a.session('user-1235')).not.toBe(h);
    expect(await keyed.session('user-1234')).not.toBe(h);
  });

  it('are the same whether remembered or made again (past the memo’s bound, and for long identities)', async () => {
    const pools = createKeyPools({ now: Date.now });
    const first = await pools.session('agent-session');
    for (let i = 0; i < 1500; i++) await pools.session(`other-${i}`);
    expect(await pools.session('agent-session')).toBe(first);
    const long = 'u'.repeat(5000);
    expect(await pools.session(long)).toBe(await createKeyPools({ now: Date.now }).session(long));
  });
});

describe('fallback-list pins', () => {
  it('put the session’s upstream first, per list', async () => {
    const pools = createKeyPools({ now: Date.now });
    const s = await pools.session('s');
    expect(await pools.routeOrder(['a', 'b', 'c'], s)).toEqual([0, 1, 2]);
    await pools.routeServed(['a', 'b', 'c'], s, 2);
    expect(await pools.routeOrder(['a', 'b', 'c'], s)).toEqual([2, 0, 1]);
    expect(await pools.routeOrder(['a', 'b'], s)).toEqual([0, 1]);
    expect(await pools.routeOrder(['a', 'b', 'c'], undefined)).toEqual([0, 1, 2]);
    expect(await pools.routeOrder(['a', 'b', 'c'], await pools.session('other'))).toEqual([0, 1, 2]);
  });
});

describe('the pin table', () => {
  it('is bounded: the least recently used pin goes first', async () => {
    const pins = pinTable({ now: Date.now, max: 3 });
    for (const n of ['a', 'b', 'c']) await pins.set(n, n);
    expect(await pins.get('a')).toBe('a'); // a used: b is now the oldest
    await pins.set('d', 'd');
    expect(pins.size).toBe(3);
    expect(await pins.get('b')).toBeUndefined();
    expect(await pins.get('a')).toBe('a');
    expect(await pins.get('d')).toBe('d');
  });
});

/** A store that counts calls and may hang or fail. */
function watchedStore(inner: StateStore = memoryStateStore()) {
  const calls: string[] = [];
  let mode: 'ok' | 'hang' | 'fail' = 'ok';
  const gate = <T>(p: () => Promise<T>): Promise<T> => (mode === 'hang' ? new Promise<T>(() => {}) : mode === 'fail' ? Promise.reject(new Error('down')) : p());
  const store: StateStore = {
    kind: 'redis',
    get: (k) => (calls.push(`get ${k}`), gate(() => inner.get(k))),
    put: (k, v, ttl) => (calls.push(`put ${k}`), gate(() => inner.put(k, v, ttl))),
    delete: (k) => gate(() => inner.delete(k)),
  };
  return { store, calls, set: (m: typeof mode) => (mode = m) };
}

describe('shared through a store', () => {
  it('two apps on one store agree on pins and cooldowns; nothing stored names a key', async () => {
    const t = clock();
    const inner = memoryStateStore({ now: t.now });
    const seen: string[] = [];
    const store: StateStore = { ...inner, kind: 'redis', put: (k, v, ttl) => (seen.push(k, v), inner.put(k, v, ttl)) };
    const a = createKeyPools({ now: t.now, shared: store });
    const b = createKeyPools({ now: t.now, shared: store });
    const u = upstreamWith({});
    const s = await a.session('shared-session');
    await a.of(u)!.order(s);
    await a.of(u)!.served(2, s);
    expect((await b.of(u)!.order(s))[0]).toBe(2);
    await b.routeServed(['x', 'y'], s, 1);
    expect(await a.routeOrder(['x', 'y'], s)).toEqual([1, 0]);
    await a.of(u)!.cool(0, 30);
    t.advance(1_001); // b reads the shared cooldowns again
    expect(await b.of(u)!.order()).not.toContain(0);
    expect(b.of(u)!.soonest()).toBe(29);
    expect(seen.join('\n')).not.toMatch(/sk-key|shared-session/);
  });

  it('a store that hangs or fails is waited on briefly, then this instance decides alone', async () => {
    const w = watchedStore();
    const pools = createKeyPools({ now: Date.now, shared: w.store, sharedWaitMs: 20 });
    const u = upstreamWith({ apiKeyStrategy: 'fill-first' });
    const pool = pools.of(u)!;
    const s = await pools.session('s');
    await pool.served(1, s);
    w.set('hang');
    const started = Date.now();
    expect((await pool.order(s))[0]).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
    w.set('fail');
    await pool.cool(1, 60);
    expect(await pool.order(s)).toEqual([0, 2]);
  });

  it('reads the shared cooldowns at most once a second', async () => {
    const t = clock();
    const w = watchedStore(memoryStateStore({ now: t.now }));
    const pools = createKeyPools({ now: t.now, shared: w.store });
    const pool = pools.of(upstreamWith({}))!;
    for (let i = 0; i < 5; i++) await pool.order();
    t.advance(1000);
    await pool.order();
    expect(w.calls.filter((c) => c.endsWith(':cooling'))).toHaveLength(2);
  });
});

describe('sharedView', () => {
  it('answers undefined for a store that throws, and a value for one that answers', async () => {
    const ok = sharedView(memoryStateStore());
    await ok.put('k', 'v', 10);
    expect(await ok.get('k')).toEqual({ value: 'v' });
    expect(await ok.get('missing')).toEqual({ value: undefined });
    const down = sharedView(watchedStore().store, 10);
    const w = watchedStore();
    w.set('fail');
    expect(await sharedView(w.store).get('k')).toBeUndefined();
    expect(await sharedView(w.store).put('k', 'v', 1)).toBe(false);
    expect(await down.get('k')).toEqual({ value: undefined });
  });
});
