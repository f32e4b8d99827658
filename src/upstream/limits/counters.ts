/**
 * Where the per-key limit counters live, behind one small interface: in memory (one process, the
 * default), in Workers KV (best effort: read, add and write back, eventually consistent across
 * locations), and in Redis (runtime/redis-store.ts: atomic, shared by every instance on it).
 * A counter is a number under a key that expires at a given time (the end of its window).
 */
import type { KvNamespaceLike } from '../state-store.ts';

export interface CounterChange {
  key: string;
  by: number;
  /** Unix ms when the counter may be forgotten (its window's end). */
  expiresAt: number;
}

export interface CounterStore {
  /** What backs it, for the log and the metrics. */
  readonly kind: 'memory' | 'redis' | 'kv';
  /** The counters' values, 0 for one never added to (or expired). */
  read(keys: readonly string[]): Promise<number[]>;
  /** Add to each counter (created at 0), in order; the values after. */
  add(changes: readonly CounterChange[]): Promise<number[]>;
}

export interface MemoryCounterOptions {
  /** Unix ms, injectable for tests. */
  now?: () => number;
  /** Counters held before the expired ones are swept (default 10,000). */
  sweepAt?: number;
}

/** Counters in this process: exact, and shared by nothing else. */
export function memoryCounterStore(o: MemoryCounterOptions = {}): CounterStore {
  const now = o.now ?? Date.now;
  const sweepAt = o.sweepAt ?? 10_000;
  const counters = new Map<string, { value: number; expiresAt: number }>();
  const live = (key: string, t: number) => {
    const c = counters.get(key);
    if (c && c.expiresAt <= t) counters.delete(key);
    return c && c.expiresAt > t ? c : undefined;
  };
  return {
    kind: 'memory',
    async read(keys) {
      const t = now();
      return keys.map((k) => live(k, t)?.value ?? 0);
    },
    async add(changes) {
      const t = now();
      if (counters.size >= sweepAt) for (const [k, c] of counters) if (c.expiresAt <= t) counters.delete(k);
      return changes.map(({ key, by, expiresAt }) => {
        const c = live(key, t);
        if (c) return (c.value += by);
        counters.set(key, { value: by, expiresAt });
        return by;
      });
    },
  };
}

/**
 * Counters in a Workers KV namespace. KV has no atomic increment: an add reads, adds and writes
 * back, so two isolates adding at once can lose one of the adds, and a write takes up to a
 * minute to be seen in other locations. Limits on KV are a best effort (docs/team.md). KV's
 * shortest time to live is 60 seconds, so a minute's counter outlives its minute a little.
 */
export function kvCounterStore(kv: KvNamespaceLike, now: () => number = Date.now): CounterStore {
  const value = (text: string | null) => {
    const n = text === null ? 0 : Number(text);
    return Number.isFinite(n) ? n : 0;
  };
  return {
    kind: 'kv',
    read: (keys) => Promise.all(keys.map(async (k) => value(await kv.get(k)))),
    async add(changes) {
      const out: number[] = [];
      for (const { key, by, expiresAt } of changes) {
        const next = value(await kv.get(key)) + by;
        await kv.put(key, String(next), { expirationTtl: Math.max(60, Math.ceil((expiresAt - now()) / 1000)) });
        out.push(next);
      }
      return out;
    },
  };
}
