/**
 * Session pins: the key of a pool, and the upstream of a fallback list, that a session was last
 * served by, so its next request goes there again and the provider's prompt cache stays warm.
 *
 * Kept in memory, bounded (the least recently used pin goes first) and expiring after an hour
 * without use. With a store shared by instances (Redis; Workers KV, best effort) every new or
 * moved pin is written through, and read back before a request, so a session sticks across
 * instances behind a load balancer. A pin that does not move is written again every few minutes
 * of use (not on every request), which keeps its time to live an hour past its last use, give or
 * take that interval. The shared store is never waited on for long: when it is slow or down, what
 * this instance knows decides (`sharedView`).
 */
import type { StateStore } from './state-store.ts';

/** A pin unused this long is gone. */
export const PIN_IDLE_MS = 60 * 60_000;
/** An unchanged pin in use is written to the shared store again after this long. */
const PIN_REFRESH_MS = 5 * 60_000;
/** Default bound of the pins one app keeps in memory. */
export const DEFAULT_MAX_PINS = 10_000;
/** Default longest wait for a shared read or write before going on without it. */
export const DEFAULT_SHARED_WAIT_MS = 250;

/** A shared store seen through a deadline: reads and writes that never throw. */
export interface SharedView {
  /** `{ value }` (value undefined: nothing kept); undefined when the store did not answer in time. */
  get(key: string): Promise<{ value: string | undefined } | undefined>;
  /** False when the write failed or took too long (it may still land). */
  put(key: string, value: string, ttlSeconds: number): Promise<boolean>;
}

/** `store` with every call given at most `waitMs`; failures are answered as "no answer". */
export function sharedView(store: StateStore, waitMs = DEFAULT_SHARED_WAIT_MS): SharedView {
  const within = <T>(p: Promise<T>): Promise<T | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, waitMs, undefined)));
    return Promise.race([p.catch(() => undefined), late]).finally(() => clearTimeout(timer));
  };
  return {
    get: (key) => within(store.get(key).then((value) => ({ value }))),
    put: async (key, value, ttlSeconds) => (await within(store.put(key, value, ttlSeconds).then(() => true))) === true,
  };
}

interface Pin {
  value: string;
  usedAt: number;
  /** When this instance last wrote it to the shared store (or read it from there). */
  writtenAt: number;
}

export interface PinTable {
  /** The pin named `name`, if any and not idle for too long (the shared store's, when it has one). */
  get(name: string): Promise<string | undefined>;
  /** Pin `name` to `value` (a use of an unchanged pin keeps it alive). */
  set(name: string, value: string): Promise<void>;
  /** Pins held in memory (for tests of the bound). */
  readonly size: number;
}

export interface PinTableOptions {
  now: () => number;
  max?: number;
  shared?: SharedView;
}

/** Where pins are kept under `name` in a shared store. */
const storeKey = (name: string) => `affinity:${name}`;

export function pinTable(o: PinTableOptions): PinTable {
  const max = o.max ?? DEFAULT_MAX_PINS;
  const pins = new Map<string, Pin>();
  // Most recently used last: Map keeps insertion order, so a use moves a pin to the end.
  const touch = (name: string, pin: Pin) => {
    pins.delete(name);
    pins.set(name, pin);
    while (pins.size > max) pins.delete(pins.keys().next().value!);
  };
  return {
    get size() {
      return pins.size;
    },
    async get(name) {
      const t = o.now();
      let pin = pins.get(name);
      if (pin && t - pin.usedAt > PIN_IDLE_MS) {
        pins.delete(name);
        pin = undefined;
      }
      const kept = o.shared && (await o.shared.get(storeKey(name)));
      // Another instance may have moved it; a store that lost it (or did not answer) leaves ours.
      if (kept?.value !== undefined && kept.value !== pin?.value) pin = { value: kept.value, usedAt: t, writtenAt: t };
      if (!pin) return undefined;
      pin.usedAt = t;
      touch(name, pin);
      return pin.value;
    },
    async set(name, value) {
      const t = o.now();
      const pin = pins.get(name);
      if (pin && pin.value === value && (!o.shared || t - pin.writtenAt < PIN_REFRESH_MS)) {
        pin.usedAt = t;
        touch(name, pin);
        return;
      }
      touch(name, { value, usedAt: t, writtenAt: t });
      await o.shared?.put(storeKey(name), value, PIN_IDLE_MS / 1000);
    },
  };
}
