/**
 * The calendar windows of UTC a key's limits count in: a minute (10:05:00 to 10:06:00), a day
 * (from midnight UTC), a month (from the first, midnight UTC). A counter belongs to the window
 * its request ended in; `retry-after` is the time to that window's end.
 */
export type WindowKind = 'minute' | 'day' | 'month';

export interface Window {
  /** Names the window in a counter's key: `2026-12-01T10:05`, `2026-12-01`, `2026-12`. */
  id: string;
  /** Unix ms. */
  start: number;
  end: number;
}

export function windowOf(kind: WindowKind, nowMs: number): Window {
  const d = new Date(nowMs);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (kind) {
    case 'minute': {
      const start = Math.floor(nowMs / 60_000) * 60_000;
      return { id: new Date(start).toISOString().slice(0, 16), start, end: start + 60_000 };
    }
    case 'day': {
      const start = Date.UTC(y, m, d.getUTCDate());
      return { id: new Date(start).toISOString().slice(0, 10), start, end: Date.UTC(y, m, d.getUTCDate() + 1) };
    }
    case 'month': {
      const start = Date.UTC(y, m, 1);
      return { id: new Date(start).toISOString().slice(0, 7), start, end: Date.UTC(y, m + 1, 1) };
    }
    default: {
      const never: never = kind;
      throw new Error(`unknown window ${String(never)}`);
    }
  }
}

/** Whole seconds from `nowMs` to the window's end, at least 1 (what `retry-after` says). */
export function secondsLeft(w: Window, nowMs: number): number {
  return Math.max(1, Math.ceil((w.end - nowMs) / 1000));
}
