/**
 * Where the proxy keeps the little state some dialects need toward upstreams that keep none
 * (Responses `previous_response_id` and `item_reference`, Interactions `previous_interaction_id`):
 * a key → text store with a time to live, behind one small interface. Memory here (the embedded
 * default on Node), Workers KV here (`kvStateStore`, when a namespace is bound), Redis in the Node
 * runtime (runtime/redis-store.ts) when several instances share the load.
 */
import { ProxyError } from '../canonical/index.ts';
import { sha256Hex } from '../kit/index.ts';

export interface StateStore {
  /** What backs it, for messages and the log. */
  readonly kind: 'memory' | 'redis' | 'kv';
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface MemoryStateOptions {
  /** Total characters kept; the oldest entries are evicted first. Default 64 Mi. */
  maxBytes?: number;
  /** Unix ms, injectable for tests. */
  now?: () => number;
}

/** In-process, bounded by size and time to live; insertion order is age order. */
export function memoryStateStore(o: MemoryStateOptions = {}): StateStore {
  const maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
  const now = o.now ?? Date.now;
  const items = new Map<string, { value: string; expiresAt: number }>();
  let total = 0;
  const drop = (key: string) => {
    const it = items.get(key);
    if (!it) return;
    total -= it.value.length + key.length;
    items.delete(key);
  };
  return {
    kind: 'memory',
    async get(key) {
      const it = items.get(key);
      if (!it) return undefined;
      if (it.expiresAt <= now()) {
        drop(key);
        return undefined;
      }
      return it.value;
    },
    async put(key, value, ttlSeconds) {
      const size = value.length + key.length;
      if (size > maxBytes) throw new ProxyError('too-large', `State of ${size} characters is larger than the store's cap (${maxBytes}).`);
      drop(key);
      const t = now();
      for (const [k, it] of items) {
        if (total + size <= maxBytes && it.expiresAt > t) break;
        drop(k);
      }
      items.set(key, { value, expiresAt: t + ttlSeconds * 1000 });
      total += size;
    },
    async delete(key) {
      drop(key);
    },
  };
}

/** The part of a Workers KV namespace binding the store uses. */
export interface KvNamespaceLike {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The longest key Workers KV takes (bytes of UTF-8); a longer one is an error from the binding. */
const KV_KEY_BYTES = 512;

/**
 * The KV name of `key`: itself, or (longer than KV takes: an id a caller made up) its SHA-256,
 * under a prefix no key the proxy makes begins with (they begin with the caller's identity).
 */
async function kvName(key: string): Promise<string> {
  const bytes = new TextEncoder().encode(key);
  return bytes.length <= KV_KEY_BYTES ? key : `sha256:${await sha256Hex(bytes)}`;
}

/**
 * On a Workers KV namespace. KV is eventually consistent across locations (a write may take up to
 * about a minute to be seen elsewhere) and its shortest time to live is 60 seconds. Any key is
 * kept, however long (`kvName`).
 */
export function kvStateStore(kv: KvNamespaceLike): StateStore {
  return {
    kind: 'kv',
    get: async (key) => (await kv.get(await kvName(key))) ?? undefined,
    put: async (key, value, ttlSeconds) => kv.put(await kvName(key), value, { expirationTtl: Math.max(60, Math.ceil(ttlSeconds)) }),
    delete: async (key) => kv.delete(await kvName(key)),
  };
}
