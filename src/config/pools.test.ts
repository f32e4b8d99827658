import { describe, expect, it } from 'vitest';
import { parseConfig } from './load.ts';

const SA = (email: string) =>
  JSON.stringify({ type: 'service_account', client_email: email, private_key: '-----BEGIN PRIVATE KEY-----\nMIIdummy\n-----END PRIVATE KEY-----\n' });

function doc(upstream: Record<string, unknown>) {
  return { keys: ['in'], upstreams: { u: upstream }, models: { '*': { upstream: 'u' } } };
}
const openai = (extra: Record<string, unknown>) => doc({ dialect: 'openai', baseUrl: 'https://api.openai.com/v1', ...extra });
const bedrock = (extra: Record<string, unknown>) => doc({ dialect: 'anthropic', provider: 'bedrock', region: 'us-east-1', ...extra });
const vertex = (extra: Record<string, unknown>) => doc({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'global', ...extra });

/** The message a config throws (never the value of a key). */
function errorOf(d: unknown, env: Record<string, string> = {}): string {
  try {
    parseConfig(d, env);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('no config error');
}

describe('key pools in the config', () => {
  it('resolves every key of a list, plans with the first, and defaults to round-robin and 60 s', () => {
    const u = parseConfig(openai({ apiKey: ['env:K1', 'env:K2', 'sk-literal-3'] }), { K1: 'sk-one', K2: 'sk-two' }).upstreams.u!;
    expect(u.apiKey).toBe('sk-one');
    expect(u.pool!.field).toBe('apiKey');
    expect(u.pool!.members.map((m) => m.apiKey)).toEqual(['sk-one', 'sk-two', 'sk-literal-3']);
    expect(u.pool!.members.every((m) => m.name === 'u' && m.baseUrl === 'https://api.openai.com/v1' && m.pool === undefined)).toBe(true);
    expect(u.pool).toMatchObject({ strategy: 'round-robin', cooldownSeconds: 60 });
    expect(u).not.toHaveProperty('apiKeyStrategy');
  });

  it('takes the strategy and the cooldown of a pool', () => {
    const u = parseConfig(openai({ apiKey: ['a-key-1', 'a-key-2'], apiKeyStrategy: 'fill-first', keyCooldownSeconds: 5 })).upstreams.u!;
    expect(u.pool).toMatchObject({ strategy: 'fill-first', cooldownSeconds: 5 });
  });

  it('a list of one is a one-key upstream, as a single value', () => {
    const u = parseConfig(openai({ apiKey: ['sk-only'] })).upstreams.u!;
    expect(u.apiKey).toBe('sk-only');
    expect(u.pool).toBeUndefined();
  });

  it('refuses an empty list, in plain words', () => {
    expect(errorOf(openai({ apiKey: [] }))).toBe(
      "invalid config: upstreams.u.apiKey: the list is empty: give one key or more (or leave apiKey out to forward callers' own keys)",
    );
    expect(errorOf(vertex({ credentials: [] }))).toBe('invalid config: upstreams.u.credentials: the list is empty: give one credential or more');
  });

  it('refuses a strategy or a cooldown on a single key', () => {
    expect(errorOf(openai({ apiKey: 'sk-one', apiKeyStrategy: 'fill-first' }))).toBe(
      'invalid config: upstreams.u.apiKeyStrategy: applies to a key pool (apiKey, or credentials, as a list of two or more); this upstream has one key',
    );
    expect(errorOf(openai({ apiKey: ['sk-one'], keyCooldownSeconds: 10 }))).toMatch(/^invalid config: upstreams\.u\.keyCooldownSeconds: applies to a key pool/);
    expect(errorOf(openai({ apiKeyStrategy: 'round-robin' }))).toMatch(/upstreams\.u\.apiKeyStrategy: applies to a key pool/);
    expect(errorOf(openai({ apiKey: ['a-key-1', 'a-key-2'], apiKeyStrategy: 'random' }))).toBe('invalid config: `upstreams.u.apiKeyStrategy` must be one of "round-robin", "fill-first"');
  });

  it('names the member whose variable is missing, and a key given twice, never a value', () => {
    expect(errorOf(openai({ apiKey: ['env:K1', 'env:K2'] }), { K1: 'sk-one' })).toBe('invalid config: environment variable not set: K2 (upstreams.u.apiKey[1])');
    const twice = errorOf(openai({ apiKey: ['sk-dup-secret', 'sk-other', 'env:AGAIN'] }), { AGAIN: 'sk-dup-secret' });
    expect(twice).toBe('invalid config: upstreams.u.apiKey[2]: the same key as apiKey[0]: each key of a pool once');
    expect(twice).not.toContain('sk-dup-secret');
  });

  it('counts a pool as upstream keys: no inbound keys, no start', () => {
    expect(errorOf({ ...openai({ apiKey: ['a-key-1', 'a-key-2'] }), keys: undefined })).toMatch(/keys: upstream keys are configured \(u\)/);
  });

  it('takes Vertex AI service accounts as a list, checking each one', () => {
    const u = parseConfig(vertex({ credentials: [SA('a@p.iam.gserviceaccount.com'), 'env:SA2'] }), { SA2: SA('b@p.iam.gserviceaccount.com') }).upstreams.u!;
    expect(u.pool!.field).toBe('credentials');
    expect(u.pool!.members.map((m) => JSON.parse(m.credentials!).client_email)).toEqual(['a@p.iam.gserviceaccount.com', 'b@p.iam.gserviceaccount.com']);
    expect(u.credentials).toBe(u.pool!.members[0]!.credentials);
    expect(errorOf(vertex({ credentials: [SA('a@p.iam.gserviceaccount.com'), '{"type":"service_account"}'] }))).toBe(
      'invalid config: upstreams.u.credentials[1]: the service-account key has no client_email',
    );
    expect(errorOf(vertex({ credentials: [SA('a@p.iam.gserviceaccount.com'), { accessKeyId: 'A', secretAccessKey: 'S' }] }))).toMatch(
      /upstreams\.u\.credentials\[1\]: on Vertex AI each entry is a service-account key/,
    );
    expect(errorOf(vertex({ credentials: [SA('a@p.iam.gserviceaccount.com')], accessToken: 'ya29.x' }))).toMatch(/upstreams\.u\.accessToken: give one of credentials, accessToken or apiKey/);
  });

  it('checks a pool before its secrets exist (unsetEnv: allow), each member’s variable listed', () => {
    const c = parseConfig(vertex({ credentials: ['env:SA_A', 'env:SA_B'] }), {}, { unsetEnv: 'allow' });
    expect(c.env.map((e) => [e.name, e.path, e.set])).toEqual([
      ['SA_A', 'upstreams.u.credentials[0]', false],
      ['SA_B', 'upstreams.u.credentials[1]', false],
    ]);
    expect(c.upstreams.u!.pool!.members).toHaveLength(2);
  });

  it('takes Bedrock key pairs as a list of pairs, none inheriting another one’s session token', () => {
    const d = bedrock({
      credentials: [
        { accessKeyId: 'AKIAONE', secretAccessKey: 'env:S1', sessionToken: 'tok-one' },
        { accessKeyId: 'AKIATWO', secretAccessKey: 'secret-two' },
      ],
    });
    const u = parseConfig(d, { S1: 'secret-one' }).upstreams.u!;
    expect(u.pool!.members.map((m) => [m.accessKeyId, m.secretAccessKey, m.sessionToken])).toEqual([
      ['AKIAONE', 'secret-one', 'tok-one'],
      ['AKIATWO', 'secret-two', undefined],
    ]);
    expect(u.accessKeyId).toBe('AKIAONE');
    expect(u).not.toHaveProperty('credentials');
    expect(errorOf(bedrock({ credentials: [{ accessKeyId: 'A', secretAccessKey: 'env:NOPE' }] }))).toBe(
      'invalid config: environment variable not set: NOPE (upstreams.u.credentials[0].secretAccessKey)',
    );
  });

  it('says where Bedrock pairs go wrong', () => {
    expect(errorOf(bedrock({ credentials: 'AKIA:secret' }))).toMatch(/upstreams\.u\.credentials: on Bedrock this is a list of key pairs/);
    expect(errorOf(bedrock({ credentials: ['AKIA'] }))).toMatch(/upstreams\.u\.credentials\[0\]: on Bedrock each entry is a key pair/);
    expect(errorOf(bedrock({ credentials: [{ accessKeyId: 'A', secretAccessKey: 'S' }], accessKeyId: 'B' }))).toMatch(/upstreams\.u\.accessKeyId: give key pairs either as credentials/);
    expect(errorOf(bedrock({ credentials: [{ accessKeyId: 'A' }] }))).toBe('invalid config: missing field `secretAccessKey` at upstreams.u.credentials[0]');
    expect(errorOf(openai({ apiKey: ['sk-a', 3] }))).toBe('invalid config: `upstreams.u.apiKey[1]` must be a string, not a number');
  });

  it('takes Bedrock API keys as a list', () => {
    const u = parseConfig(bedrock({ apiKey: ['br-key-1', 'br-key-2'] })).upstreams.u!;
    expect(u.pool!.members.map((m) => m.apiKey)).toEqual(['br-key-1', 'br-key-2']);
  });

  it('refuses a list of credentials elsewhere, and two lists at once', () => {
    expect(errorOf(openai({ credentials: ['x'] }))).toMatch(/upstreams\.u\.credentials: a list of credentials is taken by provider "vertex"/);
    expect(errorOf(vertex({ apiKey: ['k1', 'k2'], credentials: [SA('a@p.iam.gserviceaccount.com')] }))).toMatch(/an upstream has one pool/);
  });
});
