/**
 * `retry-after`, read one way and written one way for every dialect and the flow.
 *
 * Reading keeps the precision the upstream gave (`retry-after-ms: 500` is 0.5 s, so a retry
 * can wait just that long); writing rounds up to whole seconds, because the header
 * (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after) takes only `1*DIGIT` or an
 * HTTP-date.
 *
 * The clock: an HTTP-date is measured against a `now` the caller passes. Translators have no
 * clock, so `retryAfterOfHeaders` measures it, by default, against the response's own `Date`
 * header (the upstream's clock, which also avoids skew between the two machines); without a
 * `Date` header an HTTP-date yields `undefined` there, and the flow, which has a clock, reads
 * the same headers again with `retryAfterOfHeaders(res.headers, now)`.
 */

/** Header lookup over a `Headers` object or a plain record (names matched case-insensitively). */
export type HeaderSource = Record<string, string> | { get(name: string): string | null };

function headerOf(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string>;
  if (record[name] !== undefined) return record[name];
  for (const key in record) if (key.toLowerCase() === name) return record[key];
  return undefined;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * One `retry-after` value in seconds: delta-seconds (decimals tolerated), or an HTTP-date
 * measured against `now` (Unix ms; without it a date gives `undefined`). A date in the past is
 * 0; anything else unreadable is `undefined`.
 */
export function parseRetryAfter(value: string | null | undefined, now?: number): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (DECIMAL.test(v)) return Number(v);
  // Every HTTP-date form names a day or month; a bare number is never a date here.
  if (now === undefined || !/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/** OpenAI's `retry-after-ms` in seconds. */
export function parseRetryAfterMs(value: string | null | undefined): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  return DECIMAL.test(v) ? Number(v) / 1000 : undefined;
}

/**
 * Seconds to wait as an upstream's response headers say: `retry-after-ms` first (the more
 * precise), else `retry-after`. An HTTP-date is measured against `now`, by default the
 * response's own `Date` header.
 */
export function retryAfterOfHeaders(headers: HeaderSource, now?: number): number | undefined {
  const ms = parseRetryAfterMs(headerOf(headers, 'retry-after-ms'));
  if (ms !== undefined) return ms;
  const value = headerOf(headers, 'retry-after');
  if (value === undefined) return undefined;
  if (now === undefined) {
    const date = Date.parse(headerOf(headers, 'date') ?? '');
    if (!Number.isNaN(date)) now = date;
  }
  return parseRetryAfter(value, now);
}

/** A protobuf `Duration` in JSON (`"1.5s"`, `"30s"`; Gemini `RetryInfo.retryDelay`) in seconds. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  if (!v.endsWith('s') || !DECIMAL.test(v.slice(0, -1))) return undefined;
  return Number(v.slice(0, -1));
}

/** Longest wait written (2^31 - 1 s): beyond it `String()` could turn to exponent notation. */
const MAX_SECONDS = 2_147_483_647;

/** Whole seconds, rounded up, never negative (0 for a value that is not a number). */
function wholeSeconds(seconds: number): number {
  if (!(seconds > 0)) return 0;
  return Math.min(MAX_SECONDS, Math.ceil(seconds));
}

/** The `retry-after` header value for a wait in seconds: whole seconds, rounded up. */
export function formatRetryAfter(seconds: number): string {
  return String(wholeSeconds(seconds));
}

/** The same wait as a protobuf `Duration` (`"35s"`), for Gemini's `RetryInfo.retryDelay`. */
export function formatDuration(seconds: number): string {
  return `${wholeSeconds(seconds)}s`;
}
