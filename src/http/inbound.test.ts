import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../canonical/index.ts';
import { parseJsonBody, publicOrigin, webCallerRequest } from './inbound.ts';

const nested = (depth: number, make: (inner: unknown) => unknown): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = make(v);
  return v;
};

describe('nestsDeeperThan', () => {
  it('counts objects and arrays alike, and allows exactly the limit', () => {
    for (const make of [(x: unknown) => ({ a: x }), (x: unknown) => [x], (x: unknown) => [1, { b: x }][1]]) {
      expect(nestsDeeperThan(nested(4, make), 4)).toBe(false);
      expect(nestsDeeperThan(nested(5, make), 4)).toBe(true);
    }
  });

  it('finds the one deep branch among shallow ones, and ignores scalars', () => {
    const value = { a: 1, b: [1, 2, { c: 'x' }], d: { e: { f: { g: {} } } } };
    expect(nestsDeeperThan(value, 5)).toBe(false);
    expect(nestsDeeperThan(value, 4)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
  });

  it('refuses a body nested past MAX_JSON_DEPTH without overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => parseJsonBody(deep)).toThrow(/nests deeper than 256/);
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(parseJsonBody(ok)).toBeInstanceOf(Array);
  });
});

describe('publicOrigin', () => {
  it('is the request URL, or the forwarded proto/host when present and well-formed', () => {
    const at = (url: string, headers?: Record<string, string>) => publicOrigin(webCallerRequest(new Request(url, { headers })));
    expect(at('http://127.0.0.1:8787/v1/images/generations')).toBe('http://127.0.0.1:8787');
    expect(at('http://10.0.0.2:8787/x', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'img.example.com' })).toBe('https://img.example.com');
    expect(at('http://a:1/x', { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil/path' })).toBe('http://a:1');
  });
});
