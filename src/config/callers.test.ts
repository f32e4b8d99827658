import { describe, expect, it } from 'vitest';
import { configSecretValues } from '../upstream/secrets.ts';
import { parseConfig } from './load.ts';

const doc = (keys: unknown[]) => ({ keys, upstreams: { u: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } }, models: { '*': { upstream: 'u' } } });
const SECRET = 'il-team-secret-9f3c';
const message = (keys: unknown[], env: Record<string, string> = {}) => {
  try {
    parseConfig(doc(keys), env);
  } catch (e) {
    return (e as Error).message;
  }
  return 'loaded';
};

describe('inbound keys', () => {
  it('a key alone or an object with its name and limits; env: resolved; unnamed keys go by their place', () => {
    const c = parseConfig(doc(['plain', { key: 'env:TEAM_A', name: 'team-a', limits: { requestsPerMinute: 60, costPerDay: 5 } }, { key: 'k3' }]), { TEAM_A: SECRET });
    expect(c.keys).toEqual([
      { key: 'plain', name: 'keys[0]' },
      { key: SECRET, name: 'team-a', limits: { requestsPerMinute: 60, costPerDay: 5 } },
      { key: 'k3', name: 'keys[2]' },
    ]);
    expect(configSecretValues(c)).toEqual(expect.arrayContaining(['plain', SECRET, 'k3']));
  });

  it('an empty limits object is no limit', () => {
    expect(parseConfig(doc([{ key: 'k', limits: {} }])).keys).toEqual([{ key: 'k', name: 'keys[0]' }]);
  });

  it('names are required where limits are given, and unique; a key is listed once — said in plain words, never with a key', () => {
    expect(message([{ key: SECRET, limits: { tokensPerDay: 10 } }])).toBe('invalid config: keys[0].name: required where limits are set (the counters, the log and the metrics go by it)');
    expect(message([{ key: 'a', name: 'x' }, { key: 'b', name: 'x' }])).toBe('invalid config: keys[1].name: "x" is already the name of keys[0]');
    expect(message([SECRET, { key: SECRET, name: 'again' }])).toBe('invalid config: keys[1].key: the same key as keys[0]');
    expect(message([{ key: 'env:K' }, 'env:K'], { K: SECRET })).toBe('invalid config: keys[1]: the same key as keys[0]');
  });

  it('names a bad field: a name of other characters, a limit that is not a positive number, an unknown limit', () => {
    expect(message([{ key: 'k', name: 'team a' }])).toBe('invalid config: `keys[0].name`: must be 1 to 64 letters, digits, or . _ - @');
    expect(message([{ key: 'k', name: 'n', limits: { requestsPerMinute: 0 } }])).toMatch(/^invalid config: `keys\[0\]\.limits\.requestsPerMinute` must be /);
    expect(message([{ key: 'k', name: 'n', limits: { tokensPerMinute: 1.5 } }])).toMatch(/`keys\[0\]\.limits\.tokensPerMinute` must be a whole number/);
    expect(message([{ key: 'k', name: 'n', limits: { costPerDay: -1 } }])).toMatch(/`keys\[0\]\.limits\.costPerDay`: must be more than 0/);
    expect(message([{ key: 'k', name: 'n', limits: { requestsPerHour: 5 } }])).toMatch(/^invalid config: unknown field `requestsPerHour` at keys\[0\]\.limits/);
    expect(message([{ key: SECRET, name: 5 }])).not.toContain(SECRET);
  });

  it('a missing env: variable names the key field', () => {
    expect(message([{ key: 'env:NOPE', name: 'n' }])).toBe('invalid config: environment variable not set: NOPE (keys[0].key)');
  });
});
