import { describe, expect, it } from 'vitest';
import { ProxyError } from '../canonical/index.ts';
import { cacheApiImageStore, fetchImageAsBase64, findHosted, hostImage, memoryImageStore, type CacheLike, type ImageStore } from './image-store.ts';

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('memoryImageStore', () => {
  it('expires by the injected clock', async () => {
    let t = 1000;
    const store = memoryImageStore({ now: () => t });
    await store.put('a', bytes(3), 'image/png', 60_000);
    expect((await store.get('a'))?.bytes).toEqual(bytes(3));
    t += 59_999;
    expect(await store.get('a')).toBeDefined();
    t += 1;
    expect(await store.get('a')).toBeUndefined();
  });

  it('evicts the oldest images past the byte cap, and refuses one larger than the cap', async () => {
    const store = memoryImageStore({ maxBytes: 10, now: () => 0 });
    await store.put('a', bytes(4), 'image/png', 1000);
    await store.put('b', bytes(4), 'image/png', 1000);
    await store.put('c', bytes(4), 'image/png', 1000);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
    await expect(store.put('d', bytes(11), 'image/png', 1000)).rejects.toBeInstanceOf(ProxyError);
  });
});

/** A Map behind the standard Cache methods the store uses. */
function fakeCache(): CacheLike & { keys: string[] } {
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

describe('cacheApiImageStore', () => {
  it('stores with max-age, reads back bytes and type, and never serves late', async () => {
    let t = 0;
    const cache = fakeCache();
    const store = cacheApiImageStore(cache, () => t);
    await store.put('abc', bytes(5, 7), 'image/webp', 3_600_000);
    expect(cache.keys).toEqual(['https://interlingua-hosted-images.invalid/abc']);
    const res = await cache.match(cache.keys[0]!);
    expect(res?.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await store.get('abc')).toEqual({ bytes: bytes(5, 7), mediaType: 'image/webp', expiresAt: 3_600_000 });
    t = 3_600_000;
    expect(await store.get('abc')).toBeUndefined();
    expect(cache.keys).toEqual([]);
  });
});

describe('hosting', () => {
  it('hostImage gives an unguessable URL that findHosted answers until expiry', async () => {
    let t = 0;
    const store = memoryImageStore({ now: () => t });
    const url = await hostImage(store, 'https://proxy.example', { b64: 'AAEC', mediaType: 'image/jpeg' });
    const m = /^https:\/\/proxy\.example\/v1\/images\/hosted\/([A-Za-z0-9]{40}\.jpg)$/.exec(url ?? '');
    expect(m).not.toBeNull();
    const found = await findHosted(store, m![1]!);
    expect(found?.mediaType).toBe('image/jpeg');
    expect(found?.bytes).toEqual(new Uint8Array([0, 1, 2]));
    expect(await findHosted(store, '../etc/passwd')).toBeUndefined();
    t = 3_600_000;
    expect(await findHosted(store, m![1]!)).toBeUndefined();
  });

  it('hostImage gives no URL when the store kept nothing (the Cache API on workers.dev)', async () => {
    const forgetful: ImageStore = { put: async () => {}, get: async () => undefined };
    expect(await hostImage(forgetful, 'https://p', { b64: 'AAEC', mediaType: 'image/png' })).toBeUndefined();
  });

  it('hostImage refuses base64 that does not decode', async () => {
    await expect(hostImage(memoryImageStore(), 'https://p', { b64: '...TRUNCATED' })).rejects.toMatchObject({ status: 502 });
  });

  it('fetchImageAsBase64 fetches from the upstream host only', async () => {
    const fetched: string[] = [];
    const guarded = async (url: string) => {
      fetched.push(url);
      return { data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' };
    };
    const signal = new AbortController().signal;
    const ok = await fetchImageAsBase64(guarded, 'https://api.example.com/v1', { url: 'https://api.example.com/f/1.png', revisedPrompt: 'r' }, signal);
    expect(ok).toEqual({ b64: 'AQID', mediaType: 'image/png', revisedPrompt: 'r' });
    await expect(fetchImageAsBase64(guarded, 'https://api.example.com/v1', { url: 'https://169.254.169.254/x' }, signal)).rejects.toMatchObject({ status: 502 });
    expect(fetched).toEqual(['https://api.example.com/f/1.png']);
  });
});
