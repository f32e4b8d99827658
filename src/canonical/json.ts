/** Limits on JSON a proxy parses from callers and upstreams. */

/** Deepest nesting a request or response may have: far beyond any real one, far below a stack. */
export const MAX_JSON_DEPTH = 256;

/**
 * True when `value` nests deeper than `max`: a depth-first walk that stops at the first branch
 * past `max` (so it recurses at most `max` frames) and allocates nothing.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsDeeperThan(value[i], max - 1)) return true;
    return false;
  }
  const obj = value as Record<string, unknown>;
  for (const k in obj) if (nestsDeeperThan(obj[k], max - 1)) return true;
  return false;
}
