import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatRetryAfter,
  parseDuration,
  parseRetryAfter,
  parseRetryAfterMs,
  retryAfterOfHeaders,
} from './retry-after.ts';

const NOW = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

describe('parseRetryAfter', () => {
  it('reads delta-seconds, keeping decimals some servers send', () => {
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter('1.5')).toBe(1.5);
  });

  it('measures an HTTP-date against the given now (a past date is 0), and only with one', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', NOW)).toBe(30);
    expect(parseRetryAfter('Wednesday, 21-Oct-15 07:28:30 GMT', NOW)).toBe(30);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT')).toBeUndefined();
  });

  it('refuses what is neither', () => {
    for (const v of ['', '-5', 'soon', '5s', '1e3', null, undefined]) expect(parseRetryAfter(v, NOW), String(v)).toBeUndefined();
  });
});

describe('retryAfterOfHeaders', () => {
  it('prefers retry-after-ms, in seconds with its precision', () => {
    expect(parseRetryAfterMs('500')).toBe(0.5);
    expect(retryAfterOfHeaders({ 'retry-after-ms': '500', 'retry-after': '1' })).toBe(0.5);
    expect(retryAfterOfHeaders({ 'retry-after-ms': 'x', 'retry-after': '1' })).toBe(1);
  });

  it('matches names case-insensitively, and reads a Headers object', () => {
    expect(retryAfterOfHeaders({ 'Retry-After': '3' })).toBe(3);
    expect(retryAfterOfHeaders(new Headers({ 'Retry-After-Ms': '2500' }))).toBe(2.5);
  });

  it("measures a date against the response's own Date header, else against the given now", () => {
    const date = { 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT', date: 'Wed, 21 Oct 2015 07:28:10 GMT' };
    expect(retryAfterOfHeaders(date)).toBe(20);
    expect(retryAfterOfHeaders({ 'retry-after': date['retry-after'] })).toBeUndefined();
    expect(retryAfterOfHeaders({ 'retry-after': date['retry-after'] }, NOW)).toBe(30);
    expect(retryAfterOfHeaders(new Headers(date), NOW)).toBe(30);
    expect(retryAfterOfHeaders({})).toBeUndefined();
  });
});

describe('parseDuration (protobuf Duration JSON)', () => {
  it('reads seconds with fractions', () => {
    expect(parseDuration('34.4s')).toBe(34.4);
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('30')).toBeUndefined();
    expect(parseDuration('-1s')).toBeUndefined();
    expect(parseDuration(30)).toBeUndefined();
  });
});

describe('formatRetryAfter / formatDuration', () => {
  it('writes whole seconds, rounded up, never negative, never in exponent notation', () => {
    expect(formatRetryAfter(0.5)).toBe('1');
    expect(formatRetryAfter(7)).toBe('7');
    expect(formatRetryAfter(34.4)).toBe('35');
    expect(formatRetryAfter(0)).toBe('0');
    expect(formatRetryAfter(-3)).toBe('0');
    expect(formatRetryAfter(Number.NaN)).toBe('0');
    expect(formatRetryAfter(1e30)).toMatch(/^\d+$/);
    expect(formatDuration(34.4)).toBe('35s');
  });
});
