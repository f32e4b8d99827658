/**
 * The image store's one contract (src/upstream/image-store.ts `ImageStore`), run unchanged against
 * every implementation: the memory store, and the Cache API store both on a Map behind the Cache
 * methods and on workerd's own `caches.default` (through Miniflare). Bytes and media type come
 * back as put, an image is never served at or after its expiry (by the injected clock), ids never
 * alias, a later put replaces, concurrent puts all land.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheApiImageStore, memoryImageStore, type CacheLike, type ImageStore } from '../../src/upstream/image-store.ts';
import { startBindings, type WorkerBindings } from '../support/bindings.ts';

/** A Map behind the standard Cache methods the store uses. */
function mapCache(): CacheLike & { keys: string[] } {
  const m = new Map<string, { body: ArrayBuffer; headers: Headers }>();
  const key = (r: Request | string) => (typeof r === 'string' ? r : r.url);
  return {
    get keys() {
      return [...m.keys()];
    },
    async put(r, res) {
      m.set(key(r), { body: await res.arrayBuffer(), headers: res.headers });
    },
    async match(r) {
      const hit = m.get(key(r));
      return hit ? new Response(hit.body.slice(0), { headers: hit.headers }) : undefined;
    },
    async delete(r) {
      return m.delete(key(r));
    },
  };
}

/** The platform's `Cache` (Workers' `caches.default`) fits the store as it is. */
const fromPlatformCache: (cache: Cache) => ImageStore = (cache) => cacheApiImageStore(cache);
void fromPlatformCache;

let bindings: WorkerBindings;
beforeAll(async () => {
  bindings = await startBindings(0);
}, 60_000);
afterAll(() => bindings?.close());

interface Made {
  store: ImageStore;
  advance(ms: number): void;
}

const clock = () => {
  let t = Date.UTC(2026, 0, 1);
  return { now: () => t, advance: (ms: number) => void (t += ms) };
};

const impls: Array<[string, () => Promise<Made>]> = [
  ['memory', async () => {
    const c = clock();
    return { store: memoryImageStore({ now: c.now }), advance: c.advance };
  }],
  ['Cache API (a Map)', async () => {
    const c = clock();
    return { store: cacheApiImageStore(mapCache(), c.now), advance: c.advance };
  }],
  ['Cache API (workerd caches.default)', async () => {
    const c = clock();
    return { store: cacheApiImageStore(await bindings.cache(), c.now), advance: c.advance };
  }],
];

const bytes = (n: number, f: (i: number) => number = (i) => i % 256) => Uint8Array.from({ length: n }, (_, i) => f(i));
let ids = 0;
/** Ids unique across the run: the workerd cache is one for all implementations' tests. */
const id = (name: string) => `${name}-${ids++}-${Date.now()}`;

describe.each(impls)('image store: %s', (_name, make) => {
  it('gives back the bytes, media type and expiry it was given', async () => {
    const { store } = await make();
    const a = id('a');
    const all = bytes(256);
    await store.put(a, all, 'image/webp', 60_000);
    const got = await store.get(a);
    expect(got?.bytes).toEqual(all);
    expect(got?.mediaType).toBe('image/webp');
    expect(got?.expiresAt).toBe(Date.UTC(2026, 0, 1) + 60_000);
    expect(await store.get(id('never'))).toBeUndefined();
  });

  it('serves an image until its expiry, never at or after it', async () => {
    const { store, advance } = await make();
    const a = id('t');
    await store.put(a, bytes(3), 'image/png', 60_000);
    advance(59_999);
    expect(await store.get(a)).toBeDefined();
    advance(1);
    expect(await store.get(a)).toBeUndefined();
    advance(-60_000);
    expect(await store.get(a), 'an expired image stays gone').toBeUndefined();
  });

  it('ids never alias; a later put replaces', async () => {
    const { store } = await make();
    const base = id('k');
    const names = [base, base.toUpperCase(), `${base}x`, `${base}.png`, `${base}%2F`, `${base}/`];
    for (const [i, n] of names.entries()) await store.put(n, bytes(4, () => i), 'image/png', 60_000);
    for (const [i, n] of names.entries()) expect((await store.get(n))?.bytes, n).toEqual(bytes(4, () => i));
    await store.put(base, bytes(2, () => 9), 'image/jpeg', 60_000);
    expect(await store.get(base)).toMatchObject({ bytes: bytes(2, () => 9), mediaType: 'image/jpeg' });
  });

  it('concurrent puts all land, each whole', async () => {
    const { store } = await make();
    const names = Array.from({ length: 20 }, () => id('c'));
    await Promise.all(names.map((n, i) => store.put(n, bytes(1000 + i, (j) => (i + j) % 256), 'image/png', 60_000)));
    const got = await Promise.all(names.map((n) => store.get(n)));
    got.forEach((g, i) => expect(g?.bytes, names[i]).toEqual(bytes(1000 + i, (j) => (i + j) % 256)));
  });

  it('keeps a large image intact', async () => {
    const { store } = await make();
    const a = id('big');
    const big = new Uint8Array(4 << 20);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) % 251;
    await store.put(a, big, 'image/png', 60_000);
    const got = (await store.get(a))?.bytes;
    // Compared as buffers: a deep equality over 4 Mi elements takes longer than the test.
    expect(got && Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(Buffer.from(big))).toBe(true);
  });
});

describe('memory image store bounds', () => {
  it('evicts the oldest images past the byte cap, and refuses one larger than the cap (507)', async () => {
    const store = memoryImageStore({ maxBytes: 10, now: () => 0 });
    await store.put('a', bytes(4), 'image/png', 1000);
    await store.put('b', bytes(4), 'image/png', 1000);
    await store.put('c', bytes(4), 'image/png', 1000);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
    await expect(store.put('d', bytes(11), 'image/png', 1000)).rejects.toMatchObject({ kind: 'upstream', status: 507 });
  });
});

describe('Cache API image store', () => {
  it('keys under an unreachable host, with max-age, and drops what it finds expired', async () => {
    let t = 0;
    const cache = mapCache();
    const store = cacheApiImageStore(cache, () => t);
    await store.put('abc', bytes(5), 'image/webp', 3_600_000);
    expect(cache.keys).toEqual(['https://interlingua-hosted-images.invalid/abc']);
    expect((await cache.match(cache.keys[0]!))?.headers.get('cache-control')).toBe('public, max-age=3600');
    t = 3_600_000;
    expect(await store.get('abc')).toBeUndefined();
    expect(cache.keys).toEqual([]);
  });
});
