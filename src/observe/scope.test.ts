import { describe, expect, it } from 'vitest';
import { RequestScope, randomToken } from './scope.ts';

describe('ids the proxy mints', () => {
  it('are the prefix and 24 base62 characters, fresh each time', () => {
    const scope = new RequestScope('t', 'req_1', () => 0);
    const ids = new Set(Array.from({ length: 1000 }, () => scope.newId('resp_')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^resp_[A-Za-z0-9]{24}$/);
  });

  it('draw every character alike (no modulo bias), any length', () => {
    // 10 000 of each character expected: a 6-sigma spread stays within ±6 %; `byte % 62` alone
    // would give the first eight characters 25 % more than the rest.
    const counts = new Map<string, number>();
    for (const c of randomToken(620_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const values = [...counts.values()];
    expect(Math.max(...values) / Math.min(...values)).toBeLessThan(1.15);
    expect(randomToken(5000)).toHaveLength(5000);
  });
});

describe('usage of several calls', () => {
  it('a settled call counts beside the next one; a stream report of that call replaces its own count', () => {
    const scope = new RequestScope('t', 'req_1', () => 0);
    scope.usage({ inputTokens: 1000, outputTokens: 100, totalTokens: 1100 });
    scope.settleUsage();
    expect(scope.reported).toBeUndefined();
    scope.usage({ inputTokens: 50, outputTokens: 5, totalTokens: 55 });
    scope.usage({ inputTokens: 50, outputTokens: 10, totalTokens: 60 });
    expect(scope.reported).toEqual({ inputTokens: 1050, outputTokens: 110, totalTokens: 1160 });
    expect(scope.log.tokensIn).toBe(1050);
  });
});
