/**
 * The state store on Redis (the official `redis` client), for several Node instances behind a
 * load balancer: `"store": {"url": "redis://…"}`. Connects on first use and reconnects by itself;
 * while Redis is unreachable, state calls fail fast with a 503 instead of hanging a request.
 */
import { createClient } from 'redis';
import { ProxyError } from '../canonical/index.ts';
import type { StateStore } from '../upstream/state-store.ts';

export interface RedisStateStore extends StateStore {
  close(): Promise<void>;
}

export function redisStateStore(url: string, prefix = 'interlingua:'): RedisStateStore {
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: (n) => Math.min(n * 200, 5_000) }, disableOfflineQueue: true });
  // Errors surface on the calls; an 'error' listener keeps them from crashing the process.
  client.on('error', () => {});
  let connecting: Promise<unknown> | undefined;
  /** Connected, or a 503 within `waitMs`: the client keeps reconnecting in the background. */
  const ready = async (waitMs = 2_000) => {
    if (client.isReady) return;
    if (!client.isOpen) connecting ??= client.connect().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([connecting, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    if (!client.isReady) throw unavailable(new Error('not connected'));
  };
  const unavailable = (e: unknown) => new ProxyError('overloaded', `The state store (Redis) is unavailable: ${(e as Error)?.message ?? e}`, { status: 503 });
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      await ready();
      return await fn();
    } catch (e) {
      throw e instanceof ProxyError ? e : unavailable(e);
    }
  };
  return {
    kind: 'redis',
    get: (key) => run(async () => (await client.get(prefix + key)) ?? undefined),
    put: (key, value, ttlSeconds) => run(async () => void (await client.set(prefix + key, value, { EX: Math.max(1, Math.ceil(ttlSeconds)) }))),
    delete: (key) => run(async () => void (await client.del(prefix + key))),
    close: async () => {
      if (client.isReady) await client.quit().catch(() => client.destroy());
      else if (client.isOpen) client.destroy();
    },
  };
}
