import { describe, expect, it } from 'vitest';
import { secondsLeft, windowOf } from './windows.ts';

const at = (iso: string) => Date.parse(iso);

describe('calendar windows in UTC', () => {
  it('a minute, a day and a month, each from its start to the next', () => {
    const t = at('2026-12-31T23:59:30.250Z');
    expect(windowOf('minute', t)).toEqual({ id: '2026-12-31T23:59', start: at('2026-12-31T23:59:00Z'), end: at('2027-01-01T00:00:00Z') });
    expect(windowOf('day', t)).toEqual({ id: '2026-12-31', start: at('2026-12-31T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
    expect(windowOf('month', t)).toEqual({ id: '2026-12', start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
  });

  it('a window starts at its first millisecond', () => {
    expect(windowOf('minute', at('2026-03-01T10:05:00.000Z')).id).toBe('2026-03-01T10:05');
    expect(windowOf('minute', at('2026-03-01T10:04:59.999Z')).id).toBe('2026-03-01T10:04');
    expect(windowOf('month', at('2028-02-29T12:00:00Z')).end).toBe(at('2028-03-01T00:00:00Z'));
  });

  it('retry-after: whole seconds to the end, at least one', () => {
    const w = windowOf('minute', at('2026-03-01T10:05:00Z'));
    expect(secondsLeft(w, at('2026-03-01T10:05:00Z'))).toBe(60);
    expect(secondsLeft(w, at('2026-03-01T10:05:36.500Z'))).toBe(24);
    expect(secondsLeft(w, at('2026-03-01T10:05:59.999Z'))).toBe(1);
    expect(secondsLeft(windowOf('day', at('2026-03-01T23:00:00Z')), at('2026-03-01T23:00:00Z'))).toBe(3600);
  });
});
