import { describe, expect, it } from 'vitest';
import { callerCredential, checkCallerKey, constantTimeEqual } from './auth.ts';

describe('inbound auth', () => {
  it('reads the credential from each dialect place', () => {
    expect(callerCredential({ authorization: 'Bearer abc' }, {})).toBe('abc');
    expect(callerCredential({ authorization: 'bearer  abc ' }, {})).toBe('abc');
    expect(callerCredential({ 'x-api-key': 'k2' }, {})).toBe('k2');
    expect(callerCredential({ 'x-goog-api-key': 'k3' }, {})).toBe('k3');
    expect(callerCredential({}, { key: 'k4' })).toBe('k4');
    expect(callerCredential({ authorization: 'Basic xyz' }, {})).toBeUndefined();
    expect(callerCredential({}, {})).toBeUndefined();
  });

  it('compares keys exactly', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
  });

  it('accepts any configured key and says which, rejects others, is open without keys', () => {
    const keys = [{ key: 'a', name: 'team-a' }, { key: 'b', name: 'team-b' }];
    expect(checkCallerKey(keys, 'b')).toBe(keys[1]);
    expect(checkCallerKey(keys, 'a')).toBe(keys[0]);
    expect(() => checkCallerKey(keys, 'x')).toThrow(/Invalid API key/);
    expect(() => checkCallerKey(keys, undefined)).toThrow(/Missing API key/);
    expect(checkCallerKey([], undefined)).toBeUndefined();
  });
});
