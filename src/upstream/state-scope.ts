/**
 * State belongs to a caller. The flows never see the state store itself: they get it bound to
 * one caller (`StateScopes.bind`), and every key that bound store reads, writes or deletes is
 * put under that caller's identity. So an id another caller kept is, to this caller, an id
 * nobody kept: the same one lookup that misses, the same answer.
 *
 * The identity is a keyed hash (HMAC-SHA-256, WebCrypto on Node and Workers alike, cut to 128
 * bits, hex) of the credential the caller presented: with `keys` configured that is the inbound
 * key that matched, else the caller's own credential that is forwarded upstream. No credential
 * at all (an open proxy) is the one anonymous caller. The raw credential is never part of a key
 * name or a value. The hash key is `store.secret`; without one, a memory store (nothing shared)
 * uses a random secret of this process, and Redis or KV (shared by instances, which must agree)
 * a fixed public one: docs/state.md says what each means.
 */
import { toHex } from '../kit/index.ts';
import type { StateStore } from './state-store.ts';

/** A state store as one caller sees it: its own keys only. */
export interface CallerStore {
  /** What backs it, for messages and the log. */
  readonly kind: StateStore['kind'];
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The only way to the state store: bound to the caller presenting `credential`. */
export interface StateScopes {
  readonly kind: StateStore['kind'];
  bind(credential: string | undefined): CallerStore;
}

/** The identity of callers that present no credential (an open proxy). */
export const ANONYMOUS = 'anonymous';

/** The hash key Redis and KV use when `store.secret` is not set: public, so a hash, not a secret. */
export const DEFAULT_STORE_SECRET = 'interlingua-state-identity-v1';

const IDENTITY_BYTES = 16;

/** The HMAC-SHA-256 key for `secret`, imported once. */
export function identityKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** A caller's identity: the keyed hash of its credential (hex, 128 bits), or `anonymous`. */
export async function callerIdentity(key: CryptoKey, credential: string | undefined): Promise<string> {
  if (!credential) return ANONYMOUS;
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(credential));
  return toHex(new Uint8Array(mac, 0, IDENTITY_BYTES));
}

/**
 * `store`, reachable only per caller. `secret`: `store.secret` from config (undefined: a random
 * one for a memory store, `DEFAULT_STORE_SECRET` for a shared one).
 */
export function stateScopes(store: StateStore, secret: string | undefined): StateScopes {
  const key = identityKey(secret ?? (store.kind === 'memory' ? crypto.getRandomValues(new Uint8Array(32)) : DEFAULT_STORE_SECRET));
  return {
    kind: store.kind,
    bind(credential) {
      // Hashed on first use: a request that never touches state pays nothing.
      let prefix: Promise<string> | undefined;
      const scoped = async (k: string) => (await (prefix ??= key.then((ck) => callerIdentity(ck, credential)).then((id) => `${id}:`))) + k;
      return {
        kind: store.kind,
        get: async (k) => store.get(await scoped(k)),
        put: async (k, value, ttlSeconds) => store.put(await scoped(k), value, ttlSeconds),
        delete: async (k) => store.delete(await scoped(k)),
      };
    },
  };
}
