/**
 * Inbound credentials: each dialect's own place (`Authorization: Bearer`, `x-api-key`,
 * `x-goog-api-key`, `?key=`), compared in constant time against the configured keys.
 */
import { ProxyError } from '../canonical/index.ts';

/** The caller's credential from lowercased headers and the query. */
export function callerCredential(headers: Record<string, string>, query: Record<string, string>): string | undefined {
  const auth = headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1]!.trim();
  }
  const key = headers['x-api-key'] ?? headers['x-goog-api-key'] ?? query.key;
  return key?.trim() || undefined;
}

/** Compare without leaking, through timing, how much of a guess was right. */
export function constantTimeEqual(a: string, b: string): boolean {
  const len = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < len; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * The inbound key the credential matches (every key compared, in constant time); a 401
 * ProxyError when it matches none. No keys configured: open, undefined.
 */
export function checkCallerKey<K extends { readonly key: string }>(keys: readonly K[], credential: string | undefined): K | undefined {
  if (keys.length === 0) return undefined;
  if (!credential) {
    throw new ProxyError('authentication', 'Missing API key. Pass your Interlingua key the way your SDK sends its API key.', {
      code: 'missing_api_key',
    });
  }
  let matched: K | undefined;
  for (const k of keys) if (constantTimeEqual(k.key, credential)) matched = k;
  if (!matched) throw new ProxyError('authentication', 'Invalid API key.', { code: 'invalid_api_key' });
  return matched;
}
