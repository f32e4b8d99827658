/**
 * Key pools, the one home of their state: which keys of an upstream's pool are cooling down and
 * until when, the order a request tries them in, and (affinity.ts) which key and which upstream
 * of a fallback list each session is pinned to. One `KeyPools` per app (made by `createProxy`),
 * its clock injected, its memory bounded; nothing at module level.
 *
 * - Order: a session's pinned key first while it is not cooling; then the strategy —
 *   `round-robin` starts each request one key further, `fill-first` always at the first key.
 *   Keys cooling down are left out; none left means the whole pool is cooling.
 * - Cooldown: a key refused (401, 403), out of quota (402) or rate-limited (429, or an error the
 *   upstream's dialect decodes as a rate limit) is skipped until the upstream's `retry-after`
 *   (Gemini's `RetryInfo.retryDelay` included) has passed, else for `keyCooldownSeconds`; a
 *   refused key always for `keyCooldownSeconds`.
 * - A session served by a key is pinned to it: when its key cools, the key it moves to.
 * - Shared (Redis, KV): cooldowns are one record per pool, read at most once a second and merged
 *   with what this instance saw; pins are read and written through (affinity.ts).
 *
 * Keys are named by their position in the config list and a fingerprint (the first 48 bits of
 * the credential's SHA-256, hex): the log line and the shared store never hold a key.
 */
import type { Upstream } from '../config/load.ts';
import { sha256Hex } from '../kit/index.ts';
import { pinTable, sharedView, type PinTable, type SharedView } from './affinity.ts';
import { callerIdentity, identityKey } from './state-scope.ts';
import type { StateStore } from './state-store.ts';

/** The hash key of session identities when `store.secret` is not set (public, like the state's default). */
export const DEFAULT_SESSION_SECRET = 'interlingua-session-v1';
/** A shared cooldown record is read again after this long. */
const COOLDOWN_SYNC_MS = 1000;
/**
 * Session hashes remembered (an agent sends many requests per session; an HMAC through WebCrypto
 * costs about 25 µs, a lookup nothing), for identities up to MAX_REMEMBERED_IDENTITY characters.
 */
const MAX_HASHES = 1024;
const MAX_REMEMBERED_IDENTITY = 256;

export interface KeyPoolsOptions {
  /** Unix milliseconds. */
  now: () => number;
  /** A store other instances share (Redis, KV): cooldowns and pins go through it. */
  shared?: StateStore;
  /** `store.secret`: the key of session hashes (default DEFAULT_SESSION_SECRET). */
  secret?: string;
  /** Pins kept in memory (default 10 000). */
  maxPins?: number;
  /** Longest wait on the shared store before going on without it (ms, default 250). */
  sharedWaitMs?: number;
}

/** One upstream's pool of keys (or service accounts, or key pairs). */
export interface KeyPool {
  readonly size: number;
  /** The upstream as called with the key at `position`. */
  member(position: number): Upstream;
  /** The positions to try, in order: not cooling, the session's pin first. Empty: all cooling. */
  order(session?: string): Promise<number[]>;
  cooling(position: number): boolean;
  /** Skip the key at `position` for `seconds` from now (a longer cooldown already set stays). */
  cool(position: number, seconds: number): Promise<void>;
  /** The key at `position` answered: the session is pinned to it. */
  served(position: number, session?: string): Promise<void>;
  /** Seconds (rounded up, at least 1) until the first cooling key is usable again. */
  soonest(): number;
  /** How the key at `position` is named in a log line: `apiKey[1]#3fa9c2d17e40`. */
  label(position: number): string;
}

export interface KeyPools {
  /** A session identity's keyed hash (32 hex): what its pins are named by, and the prompt_cache_key sent for it. */
  session(identity: string): Promise<string>;
  /** The pool of an upstream; undefined for a one-key upstream. */
  of(upstream: Upstream): KeyPool | undefined;
  /** The order to try a fallback list in (indexes): the session's pinned upstream first. */
  routeOrder(upstreams: readonly string[], session: string | undefined): Promise<number[]>;
  /** The list's upstream at `index` answered: the session is pinned to it. */
  routeServed(upstreams: readonly string[], session: string | undefined, index: number): Promise<void>;
}

/** A credential's fingerprint: never the credential, stable across instances. */
async function fingerprint(member: Upstream): Promise<string> {
  const text = JSON.stringify([member.apiKey, member.credentials, member.accessKeyId, member.secretAccessKey, member.sessionToken]);
  return (await sha256Hex(text)).slice(0, 12);
}

function keyPool(upstream: Upstream, now: () => number, pins: PinTable, shared: SharedView | undefined): KeyPool {
  const pool = upstream.pool!;
  const n = pool.members.length;
  const coolUntil = new Array<number>(n).fill(0);
  let fps: string[] | undefined;
  const fpsReady = Promise.all(pool.members.map(fingerprint)).then((list) => (fps = list));
  let cursor = 0;
  let syncedAt = -Infinity;
  const recordKey = `pool:${upstream.name}:cooling`;
  const pinName = (session: string) => `pool:${upstream.name}:${session}`;

  /** The shared cooldowns merged into ours, at most once a second. */
  const sync = async () => {
    if (!shared || now() - syncedAt < COOLDOWN_SYNC_MS) return;
    syncedAt = now();
    merge((await shared.get(recordKey))?.value);
  };
  const merge = (record: string | undefined) => {
    if (!record) return;
    let parsed: Record<string, number>;
    try {
      parsed = JSON.parse(record) as Record<string, number>;
    } catch {
      return;
    }
    fps!.forEach((fp, i) => {
      const until = parsed[fp];
      if (typeof until === 'number' && until > coolUntil[i]!) coolUntil[i] = until;
    });
  };
  const cooling = (i: number) => coolUntil[i]! > now();

  return {
    size: n,
    member: (i) => pool.members[i]!,
    cooling,
    async order(session) {
      await fpsReady;
      const [, pinned] = await Promise.all([sync(), session ? pins.get(pinName(session)) : undefined]);
      const at = pinned === undefined ? -1 : fps!.indexOf(pinned);
      const start = pool.strategy === 'fill-first' || at >= 0 ? 0 : cursor;
      if (pool.strategy === 'round-robin' && at < 0) cursor = (cursor + 1) % n;
      const out: number[] = [];
      if (at >= 0 && !cooling(at)) out.push(at);
      for (let k = 0; k < n; k++) {
        const i = (start + k) % n;
        if (i !== at && !cooling(i)) out.push(i);
      }
      return out;
    },
    async cool(i, seconds) {
      const until = now() + seconds * 1000;
      if (until <= coolUntil[i]!) return;
      coolUntil[i] = until;
      if (!shared) return;
      await fpsReady;
      merge((await shared.get(recordKey))?.value);
      const record: Record<string, number> = {};
      fps!.forEach((fp, k) => {
        if (cooling(k)) record[fp] = coolUntil[k]!;
      });
      const last = Math.max(...Object.values(record), now());
      await shared.put(recordKey, JSON.stringify(record), Math.max(1, Math.ceil((last - now()) / 1000)));
    },
    async served(i, session) {
      if (session) await pins.set(pinName(session), (await fpsReady)[i]!);
    },
    soonest() {
      const t = now();
      const waits = coolUntil.filter((u) => u > t).map((u) => u - t);
      return waits.length === 0 ? 1 : Math.max(1, Math.ceil(Math.min(...waits) / 1000));
    },
    label: (i) => `${pool.field}[${i}]#${fps?.[i] ?? '?'}`,
  };
}

export function createKeyPools(o: KeyPoolsOptions): KeyPools {
  const shared = o.shared && sharedView(o.shared, o.sharedWaitMs);
  const pins = pinTable({ now: o.now, max: o.maxPins, shared });
  const pools = new Map<string, KeyPool>();
  const hashKey = identityKey(o.secret ?? DEFAULT_SESSION_SECRET);
  const routeName = (upstreams: readonly string[], session: string) => `route:${upstreams.join(',')}:${session}`;
  const hashes = new Map<string, Promise<string>>();
  // Its own domain under the key: never equal to a caller identity made with the same secret.
  const hash = async (identity: string) => callerIdentity(await hashKey, `session\n${identity}`);
  return {
    session(identity) {
      if (identity.length > MAX_REMEMBERED_IDENTITY) return hash(identity);
      let h = hashes.get(identity);
      if (h) hashes.delete(identity);
      else h = hash(identity);
      hashes.set(identity, h);
      if (hashes.size > MAX_HASHES) hashes.delete(hashes.keys().next().value!);
      return h;
    },
    of(upstream) {
      if (!upstream.pool) return undefined;
      let pool = pools.get(upstream.name);
      if (!pool) pools.set(upstream.name, (pool = keyPool(upstream, o.now, pins, shared)));
      return pool;
    },
    async routeOrder(upstreams, session) {
      const order = upstreams.map((_, i) => i);
      if (!session || upstreams.length < 2) return order;
      const pinned = Number(await pins.get(routeName(upstreams, session)));
      return Number.isInteger(pinned) && pinned > 0 && pinned < upstreams.length ? [pinned, ...order.filter((i) => i !== pinned)] : order;
    },
    async routeServed(upstreams, session, index) {
      if (session && upstreams.length > 1) await pins.set(routeName(upstreams, session), String(index));
    },
  };
}
