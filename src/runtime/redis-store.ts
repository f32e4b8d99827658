/**
 * Redis (the official `redis` client) for several Node instances or workers behind a load
 * balancer, `"store": {"url": "redis://…"}`: the state store and the keys' limit counters on one
 * connection. Connects on first use (or `ping` at start) and reconnects by itself. While Redis is
 * unreachable, state calls fail fast with a 503 instead of hanging a request, and counter calls
 * fail at once (the limits then fail open: src/upstream/meter.ts).
 */
import { createClient } from 'redis';
import { ProxyError } from '../canonical/index.ts';
import type { CounterStore, StateStore } from '../app.ts';

export interface RedisStores {
  state: StateStore;
  counters: CounterStore;
  /** Connected within `waitMs` (the start line says whether). */
  ping(waitMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RedisStateStore extends StateStore {
  close(): Promise<void>;
}

export function redisStores(url: string, prefix = 'interlingua:'): RedisStores {
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: (n) => Math.min(n * 200, 5_000) }, disableOfflineQueue: true });
  // Errors surface on the calls; an 'error' listener keeps them from crashing the process.
  client.on('error', () => {});
  let connecting: Promise<unknown> | undefined;
  const connect = () => {
    if (!client.isOpen) connecting ??= client.connect().catch(() => {});
    return connecting;
  };
  /** Connected within `waitMs`; the client keeps reconnecting in the background either way. */
  const ready = async (waitMs: number): Promise<boolean> => {
    if (client.isReady) return true;
    const attempt = connect();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([attempt, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    return client.isReady;
  };
  const unavailable = (e: unknown) => new ProxyError('overloaded', `The state store (Redis) is unavailable: ${(e as Error)?.message ?? e}`, { status: 503 });
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      if (!(await ready(2_000))) throw new Error('not connected');
      return await fn();
    } catch (e) {
      throw e instanceof ProxyError ? e : unavailable(e);
    }
  };
  /** Counters never wait for a connection: a limit that cannot be checked is not (fail open). */
  const now = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (!client.isReady) {
      void connect();
      throw new Error('Redis is not connected');
    }
    return fn();
  };
  return {
    state: {
      kind: 'redis',
      get: (key) => run(async () => (await client.get(prefix + key)) ?? undefined),
      put: (key, value, ttlSeconds) => run(async () => void (await client.set(prefix + key, value, { EX: Math.max(1, Math.ceil(ttlSeconds)) }))),
      delete: (key) => run(async () => void (await client.del(prefix + key))),
    },
    counters: {
      kind: 'redis',
      read: (keys) => now(async () => (keys.length ? (await client.mGet(keys.map((k) => prefix + k))).map((v) => (v === null ? 0 : Number(v))) : [])),
      add: (changes) =>
        now(async () => {
          // One round trip; each counter's expiry set with it (INCRBYFLOAT is atomic across instances).
          const multi = client.multi();
          for (const c of changes) multi.incrByFloat(prefix + c.key, c.by).pExpireAt(prefix + c.key, Math.ceil(c.expiresAt));
          const replies = await multi.exec();
          return changes.map((_, i) => Number(replies[i * 2]));
        }),
    },
    ping: (waitMs = 2_000) => ready(waitMs),
    close: async () => {
      if (client.isReady) await client.quit().catch(() => client.destroy());
      else if (client.isOpen) client.destroy();
    },
  };
}

/** The state store alone on its own connection (tests, tools). */
export function redisStateStore(url: string, prefix = 'interlingua:'): RedisStateStore {
  const stores = redisStores(url, prefix);
  return { ...stores.state, close: stores.close };
}
