import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, DEFAULT_STORE_SECRET, callerIdentity, identityKey, stateScopes } from './state-scope.ts';
import { memoryStateStore, type StateStore } from './state-store.ts';

/** A memory store that shows the key names it was asked for. */
function recording(kind: StateStore['kind'] = 'memory'): StateStore & { keys: string[] } {
  const inner = memoryStateStore();
  const keys: string[] = [];
  return {
    kind,
    keys,
    get: (k) => (keys.push(k), inner.get(k)),
    put: (k, v, t) => (keys.push(k), inner.put(k, v, t)),
    delete: (k) => (keys.push(k), inner.delete(k)),
  };
}

describe('caller identity', () => {
  it('is the HMAC-SHA-256 of the credential under the secret, cut to 128 bits, hex', async () => {
    const key = await identityKey('s3cret');
    const expected = createHmac('sha256', 's3cret').update('il-key-A').digest('hex').slice(0, 32);
    expect(await callerIdentity(key, 'il-key-A')).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{32}$/);
  });

  it('differs by credential and by secret; no credential is the anonymous caller', async () => {
    const a = await identityKey('one');
    const b = await identityKey('two');
    expect(await callerIdentity(a, 'k1')).not.toBe(await callerIdentity(a, 'k2'));
    expect(await callerIdentity(a, 'k1')).not.toBe(await callerIdentity(b, 'k1'));
    expect(await callerIdentity(a, undefined)).toBe(ANONYMOUS);
    expect(await callerIdentity(a, '')).toBe(ANONYMOUS);
  });
});

describe('state scopes', () => {
  it('put every key under the caller identity, never the credential', async () => {
    const store = recording('redis');
    const scopes = stateScopes(store, undefined);
    const a = scopes.bind('il-key-A');
    await a.put('resp:1', 'v', 60);
    const id = createHmac('sha256', DEFAULT_STORE_SECRET).update('il-key-A').digest('hex').slice(0, 32);
    expect(store.keys).toEqual([`${id}:resp:1`]);
    expect(await a.get('resp:1')).toBe('v');
    expect(store.keys.join()).not.toContain('il-key-A');
  });

  it('two callers share nothing: a read, a delete by the other is a miss', async () => {
    const store = recording();
    const scopes = stateScopes(store, 'configured');
    const a = scopes.bind('A');
    const b = scopes.bind('B');
    await a.put('resp:1', 'of A', 60);
    expect(await b.get('resp:1')).toBeUndefined();
    await b.delete('resp:1');
    expect(await a.get('resp:1')).toBe('of A');
    await b.put('resp:1', 'of B', 60);
    expect(await a.get('resp:1')).toBe('of A');
    expect(await b.get('resp:1')).toBe('of B');
    // The same credential later (another request) is the same caller.
    expect(await scopes.bind('A').get('resp:1')).toBe('of A');
    // Callers without a credential are one anonymous caller.
    await scopes.bind(undefined).put('k', 'anon', 60);
    expect(await scopes.bind(undefined).get('k')).toBe('anon');
    expect(store.keys).toContain('anonymous:k');
  });

  it('the same secret names a caller the same on every instance; a memory store without one is its own', async () => {
    const one = recording('kv');
    const two = recording('kv');
    await stateScopes(one, 'shared').bind('A').get('x');
    await stateScopes(two, 'shared').bind('A').get('x');
    expect(one.keys).toEqual(two.keys);
    const m1 = recording('memory');
    const m2 = recording('memory');
    await stateScopes(m1, undefined).bind('A').get('x');
    await stateScopes(m2, undefined).bind('A').get('x');
    expect(m1.keys[0]).not.toBe(m2.keys[0]);
  });

  it('hashes once per bound store, on first use', async () => {
    let signs = 0;
    const sign = crypto.subtle.sign.bind(crypto.subtle);
    const spy = (async (...args: Parameters<typeof sign>) => (signs++, sign(...args))) as typeof sign;
    const original = crypto.subtle.sign;
    Object.defineProperty(crypto.subtle, 'sign', { value: spy, configurable: true });
    try {
      const bound = stateScopes(recording(), 's').bind('A');
      expect(signs).toBe(0);
      await bound.get('a');
      await bound.put('b', 'v', 60);
      await bound.delete('a');
      expect(signs).toBe(1);
    } finally {
      Object.defineProperty(crypto.subtle, 'sign', { value: original, configurable: true });
    }
  });
});
