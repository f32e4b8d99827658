/**
 * Credential pools as the config gives them: an upstream's `apiKey` as a list, or its
 * `credentials` as a list (Vertex AI service-account keys, Amazon Bedrock key pairs), every member
 * resolved (`env:`) and checked at load. A list of one is a one-key upstream, exactly as a single
 * value; two or more are a pool, spread and cooled down as src/upstream/key-pool.ts says.
 *
 * Bedrock key pairs are objects in one list (`credentials: [{accessKeyId, secretAccessKey}]`), not
 * parallel `accessKeyId` and `secretAccessKey` lists: a pair is one credential, and lists paired by
 * position sign with another id's secret as soon as one is edited out of step — a 403 that cools a
 * good key and says nothing of why. `credentials` is also where Vertex AI takes its list, so on
 * every provider "a list of credentials" is written the same way.
 */
import type { UpstreamConfig } from './schema.ts';

/** Config fields that hold credentials: `env:` resolved, never shown, they count as upstream keys. */
export const SECRET_FIELDS = ['apiKey', 'credentials', 'accessToken', 'accessKeyId', 'secretAccessKey', 'sessionToken'] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

/** One credential as resolved: the secret fields an upstream is called with. */
export type Credential = Partial<Record<SecretField, string>>;

export type KeyStrategy = 'round-robin' | 'fill-first';

export const DEFAULT_KEY_COOLDOWN_SECONDS = 60;

export interface PoolSpec {
  /** Where the list is configured (`upstreams.NAME.apiKey[i]`, `upstreams.NAME.credentials[i]`). */
  field: 'apiKey' | 'credentials';
  /** Two or more, in config order; each replaces the pooled fields of the upstream. */
  members: Credential[];
  strategy: KeyStrategy;
  cooldownSeconds: number;
}

export interface CredentialPlan {
  /** The upstream's secret fields as it is planned with: its only credential, or its pool's first. */
  first: Credential;
  pool?: PoolSpec;
}

export interface Problem {
  field: string;
  problem: string;
}

/** The members of a list-valued credential, resolved; a problem in words that never quote a value. */
function membersOf(u: UpstreamConfig, resolve: (value: string, field: string) => string): { field: PoolSpec['field']; members: Credential[] } | Problem | undefined {
  if (Array.isArray(u.apiKey)) {
    if (Array.isArray(u.credentials)) return { field: 'credentials', problem: 'a list of keys (apiKey) and a list of credentials cannot both be given: an upstream has one pool' };
    return { field: 'apiKey', members: u.apiKey.map((k, i) => ({ apiKey: resolve(k, `apiKey[${i}]`) })) };
  }
  const list = u.credentials;
  if (u.provider === 'bedrock' && typeof list === 'string') {
    return { field: 'credentials', problem: 'on Bedrock this is a list of key pairs ([{"accessKeyId": …, "secretAccessKey": …}]); one pair goes in accessKeyId and secretAccessKey' };
  }
  if (!Array.isArray(list)) return undefined;
  if (u.provider === 'bedrock') {
    const single = (['apiKey', 'accessKeyId', 'secretAccessKey', 'sessionToken'] as const).find((f) => u[f] !== undefined);
    if (single) return { field: single, problem: 'give key pairs either as credentials or as accessKeyId and secretAccessKey, and an API key (apiKey) or key pairs, not both' };
    const members: Credential[] = [];
    for (const [i, pair] of list.entries()) {
      if (typeof pair === 'string') return { field: `credentials[${i}]`, problem: 'on Bedrock each entry is a key pair: {"accessKeyId": …, "secretAccessKey": …}' };
      members.push({
        accessKeyId: resolve(pair.accessKeyId, `credentials[${i}].accessKeyId`),
        secretAccessKey: resolve(pair.secretAccessKey, `credentials[${i}].secretAccessKey`),
        // Said even when absent, so a member never inherits another's token.
        sessionToken: pair.sessionToken === undefined ? undefined : resolve(pair.sessionToken, `credentials[${i}].sessionToken`),
      });
    }
    return { field: 'credentials', members };
  }
  if (u.provider === 'vertex') {
    const members: Credential[] = [];
    for (const [i, sa] of list.entries()) {
      if (typeof sa !== 'string') return { field: `credentials[${i}]`, problem: 'on Vertex AI each entry is a service-account key (its JSON text, or env:NAME)' };
      members.push({ credentials: resolve(sa, `credentials[${i}]`) });
    }
    return { field: 'credentials', members };
  }
  return { field: 'credentials', problem: 'a list of credentials is taken by provider "vertex" (service-account keys) and "bedrock" (key pairs); a list of keys goes in apiKey' };
}

/**
 * An upstream's credentials, resolved: the one it has, or its pool (with the strategy and the
 * cooldown, which only a pool takes). `resolve(value, field)` resolves `env:` (and throws when a
 * variable is missing); `field` is relative to the upstream (`apiKey[1]`).
 */
export function credentialsOf(u: UpstreamConfig, resolve: (value: string, field: string) => string): CredentialPlan | Problem {
  const first: Credential = {};
  for (const f of SECRET_FIELDS) {
    const value = u[f];
    if (typeof value === 'string') first[f] = resolve(value, f);
  }
  const listed = membersOf(u, resolve);
  if (listed && 'problem' in listed) return listed;
  if (listed) {
    const noun = listed.field === 'apiKey' ? 'key' : 'credential';
    if (listed.members.length === 0) {
      return { field: listed.field, problem: `the list is empty: give one ${noun} or more${listed.field === 'apiKey' ? " (or leave apiKey out to forward callers' own keys)" : ''}` };
    }
    const seen = listed.members.map((m) => JSON.stringify(m));
    for (let i = 1; i < seen.length; i++) {
      const j = seen.indexOf(seen[i]!);
      if (j < i) return { field: `${listed.field}[${i}]`, problem: `the same ${noun} as ${listed.field}[${j}]: each ${noun} of a pool once` };
    }
  }
  const pooled = listed !== undefined && listed.members.length > 1;
  if (!pooled) {
    for (const f of ['apiKeyStrategy', 'keyCooldownSeconds'] as const) {
      if (u[f] !== undefined) return { field: f, problem: 'applies to a key pool (apiKey, or credentials, as a list of two or more); this upstream has one key' };
    }
  }
  Object.assign(first, listed?.members[0]);
  if (!pooled) return { first };
  return {
    first,
    pool: {
      field: listed.field,
      members: listed.members,
      strategy: u.apiKeyStrategy ?? 'round-robin',
      cooldownSeconds: u.keyCooldownSeconds ?? DEFAULT_KEY_COOLDOWN_SECONDS,
    },
  };
}
