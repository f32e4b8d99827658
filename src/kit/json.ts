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

/**
 * A JSON object: not null, not a list. (valibot's `record` and `object` take a list and copy it as
 * an object, `[1]` as `{"0": 1}`, so a field that must be an object is checked with this.)
 */
export const isJsonObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d]);
const STARTS = '{["-0123456789';

/**
 * `JSON.parse(text)`, or `undefined` where it throws. Text whose first non-blank character can
 * start no JSON value (most tool output: code, prose) is refused without calling it, since each
 * thrown SyntaxError costs microseconds, hundreds of times in an agent's conversation.
 */
export function parseJsonOrUndefined(text: string): unknown {
  let i = 0;
  while (i < text.length && BLANK.has(text.charCodeAt(i))) i++;
  const c = text[i];
  if (c === undefined) return undefined;
  if (!STARTS.includes(c) && !text.startsWith('true', i) && !text.startsWith('false', i) && !text.startsWith('null', i)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Values frozen whole by `deepFreeze` (their roots). */
const frozenWhole = new WeakSet<object>();

/**
 * Freeze `value` and everything in it, and remember it as frozen whole (`isFrozenWhole`). For a
 * value fresh from `JSON.parse` (nothing in it frozen before, nothing shared): the turn memo
 * freezes what it keeps for the next turn, so a change to it fails loudly.
 */
export function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  freezeAll(value);
  frozenWhole.add(value);
}

function freezeAll(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object') freezeAll(v);
  }
}

/** Whether `value` was frozen whole by `deepFreeze`: it and what is in it never change, so what is made of it alone may be kept. */
export const isFrozenWhole = (value: unknown): value is object => value !== null && typeof value === 'object' && frozenWhole.has(value);
