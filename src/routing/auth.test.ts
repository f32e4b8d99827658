import { describe, expect, it } from 'vitest';
import { callerCredential, checkCallerKey, constantTimeEqual } from './auth.ts';

describe('inbound auth', () => {
  it('reads the credential from each dialect place', () => {
    expect(callerCredential(new Headers({ authorization: 'Bearer abc' }), {})).toBe('abc');
    expect(callerCredential(new Headers({ 'x-api-key': 'k2' }), {})).toBe('k2');
    expect(callerCredential(new Headers({ 'x-goog-api-key': 'k3' }), {})).toBe('k3');
    expect(callerCredential(new Headers(), { key: 'k4' })).toBe('k4');
    expect(callerCredential(new Headers(), new URLSearchParams('key=k5'))).toBe('k5');
    expect(callerCredential(new Headers(), {})).toBeUndefined();
  });

  it('compares keys exactly', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
  });

  it('accepts any configured key, rejects others, is open without keys', () => {
    expect(() => checkCallerKey(['a', 'b'], 'b')).not.toThrow();
    expect(() => checkCallerKey(['a'], 'x')).toThrow(/Invalid API key/);
    expect(() => checkCallerKey(['a'], undefined)).toThrow(/Missing API key/);
    expect(() => checkCallerKey([], undefined)).not.toThrow();
  });
});
