/**
 * Parsing an agent's next turn from its last one. An agent resends the whole conversation with
 * every turn: the body is the last one's bytes and a few new messages. The last body of a caller
 * is kept with the values `JSON.parse` gave for its top-level fields and for each element of its
 * conversation (`messages`, `contents`, `input`), and where they lie in its bytes. The next body
 * is scanned (`peekJson`, resumed from the last checkpoint the two bodies share, as the scan memo
 * does, with a checkpoint at every element), and every field and element whose bytes are the kept
 * one's (compared natively, memcmp) gets the kept value; only the others are parsed.
 *
 * The answer is the one `JSON.parse` of the whole body gives, but that what is kept (the fields'
 * values and the elements, not the object and the array holding them) is frozen, since the next
 * turn may be given it again: a change to it downstream fails loudly instead of changing the next
 * turn (freezing costs about a tenth of a parse, once per element):
 * - the scan checks the body's whole structure outside the values (one object, its keys, colons,
 *   commas, the conversation's brackets, no deeper than the parser allows); what is inside each
 *   value is checked by `JSON.parse` of that value, now or when the kept one was parsed (the same
 *   bytes parse alike wherever they stand: a JSON value's text is self-contained);
 * - a body with a key written twice, a key with an escape, a control character or a non-ASCII
 *   byte, or one that fails any of this, is parsed whole, as without the memo (its error the same);
 * - the UTF-8 of a value decodes alone as within the whole text, since values start and end on
 *   ASCII.
 */
import { deepFreeze, jsCompare, nativeCompare, peekJson, type NativeCompare, type PeekCheckpoint, type PeekedJson } from '../../kit/index.ts';
import { sameRange } from './scan-memo.ts';

/** How many kept bodies of a caller a body is compared against, the latest first. */
const MAX_TRIED = 4;

interface Kept {
  readonly start: number;
  readonly end: number;
  readonly value: unknown;
}

/** One body as kept: its pieces (never written to), checkpoints and values. */
export interface ParsedBody {
  readonly pieces: readonly Uint8Array[];
  readonly length: number;
  readonly conversation: string;
  readonly checkpoints: readonly PeekCheckpoint[];
  readonly fields: ReadonlyMap<string, Kept>;
  readonly elements: readonly Kept[];
}

/** A parse: the value, and (when it can serve the next turn) the body to keep and the one it replaces. */
export interface MemoParse {
  value: unknown;
  keep?: ParsedBody;
  replaces?: ParsedBody;
  /** How many bytes were parsed (all of them without a kept body that helps). */
  parsed: number;
}

const PLAIN_KEY = /^[\x20-\x7e]*$/;
const isWs = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * `flat` (the body's bytes, its pieces `pieces`) parsed, reusing what `candidates` (this caller's
 * kept bodies, the latest first) hold of it. `whole` parses a body whole, as without the memo
 * (and throws its error).
 */
export function memoParse(
  flat: Uint8Array,
  pieces: readonly Uint8Array[],
  conversation: string,
  candidates: readonly ParsedBody[],
  whole: (flat: Uint8Array) => unknown,
): MemoParse {
  const compare = nativeCompare() ?? jsCompare;
  const { entry, count } = closest(compare, flat, conversation, candidates);
  const checkpoints = entry ? entry.checkpoints.slice(0, count) : [];
  const top = peekJson(flat, { from: checkpoints[checkpoints.length - 1], into: checkpoints, every: 0 });
  if (!top || !plainKeys(top)) return { value: whole(flat), parsed: flat.length };
  const base = entry ?? candidates.find((c) => c.conversation === conversation);
  const list = top.fields.find((f) => f.key === conversation && flat[f.start] === 0x5b);
  const ranges = list ? elementRanges(flat, list, checkpoints) : [];

  // What can be reused: a field or element whose bytes are the kept one's. Those within the bytes
  // the two bodies share from the start lie where they lay and are the same without a compare.
  const shared = count > 0 ? checkpoints[count - 1]!.at : 0;
  const same = (k: Kept | undefined, start: number, end: number) =>
    !!base && !!k && k.end - k.start === end - start && ((base === entry && k.start === start && end <= shared) || sameRange(compare, base.pieces, flat, start, end, k.start));
  const fieldReused = top.fields.map((f) => f !== list && same(base?.fields.get(f.key), f.start, f.end));
  const elementReused: boolean[] = [];
  for (let j = 0; j < ranges.length; j++) elementReused.push(same(base?.elements[j], ranges[j]!.start, ranges[j]!.end));
  let toParse = 0;
  top.fields.forEach((f, i) => f !== list && !fieldReused[i] && (toParse += f.end - f.start));
  ranges.forEach((r, j) => !elementReused[j] && (toParse += r.end - r.start));

  let value: Record<string, unknown>;
  const fields = new Map<string, Kept>();
  const elements: Kept[] = [];
  if (toParse > flat.length / 2) {
    // Most of it is new: parsed whole (the quicker road for a big text), the values taken from it.
    value = whole(flat) as Record<string, unknown>;
    for (const f of top.fields) if (f !== list) fields.set(f.key, { start: f.start, end: f.end, value: value[f.key] });
    const items = list ? (value[conversation] as unknown[]) : [];
    // (Never otherwise: the scan and the parse read the same structure.)
    if (items.length !== ranges.length) return { value, parsed: flat.length };
    ranges.forEach((r, j) => elements.push({ ...r, value: items[j] }));
  } else {
    try {
      value = {};
      top.fields.forEach((f, i) => {
        let v: unknown;
        if (f === list) {
          v = ranges.map((r, j) => {
            const item = elementReused[j] ? base!.elements[j]!.value : parsePiece(flat, r.start, r.end);
            elements.push({ ...r, value: item });
            return item;
          });
        } else {
          v = fieldReused[i] ? base!.fields.get(f.key)!.value : parsePiece(flat, f.start, f.end);
          fields.set(f.key, { start: f.start, end: f.end, value: v });
        }
        // As JSON.parse does: an own property even when it is called `__proto__`.
        Object.defineProperty(value, f.key, { value: v, enumerable: true, writable: true, configurable: true });
      });
    } catch {
      return { value: whole(flat), parsed: flat.length };
    }
  }
  // (The object and the conversation's array are this request's own; what is in them is kept.)
  for (const kept of fields.values()) deepFreeze(kept.value);
  for (const kept of elements) deepFreeze(kept.value);
  const keep: ParsedBody = { pieces, length: flat.length, conversation, checkpoints, fields, elements };
  return { value, keep, replaces: entry, parsed: toParse };
}

/** The kept body sharing the most checkpoints with `flat`, and how many. */
function closest(compare: NativeCompare, flat: Uint8Array, conversation: string, candidates: readonly ParsedBody[]): { entry?: ParsedBody; count: number } {
  let best: { entry?: ParsedBody; count: number } = { count: 0 };
  let tried = 0;
  for (const c of candidates) {
    if (c.conversation !== conversation) continue;
    if (++tried > MAX_TRIED) break;
    const count = sharedCheckpoints(compare, c, flat);
    if (count > best.count) best = { entry: c, count };
    if (count === c.checkpoints.length) break;
  }
  return best;
}

/** How many of the body's checkpoints lie where `flat` has its bytes all the way (a binary search, each byte compared about once). */
function sharedCheckpoints(compare: NativeCompare, body: ParsedBody, flat: Uint8Array): number {
  const cps = body.checkpoints;
  const at = (count: number) => (count === 0 ? 0 : cps[count - 1]!.at);
  const same = (from: number, to: number) => to <= flat.length && sameRange(compare, body.pieces, flat, from, to);
  if (cps.length === 0) return 0;
  if (same(0, at(cps.length))) return cps.length;
  let lo = 0;
  let hi = cps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (same(at(lo), at(mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Every top-level key once, and plain (printable ASCII: no escape, no control character). */
function plainKeys(top: PeekedJson): boolean {
  const seen = new Set<string>();
  for (const f of top.fields) {
    if (seen.has(f.key) || !PLAIN_KEY.test(f.key)) return false;
    seen.add(f.key);
  }
  return true;
}

/** Where each element of the top-level array `list` lies, whitespace trimmed: from its checkpoints (one after every comma). */
function elementRanges(flat: Uint8Array, list: { start: number; end: number }, checkpoints: readonly PeekCheckpoint[]): Array<{ start: number; end: number }> {
  const starts = [list.start + 1];
  for (const cp of checkpoints) if (cp.at > list.start && cp.at < list.end) starts.push(cp.at);
  const out: Array<{ start: number; end: number }> = [];
  for (let j = 0; j < starts.length; j++) {
    let start = starts[j]!;
    // (Up to the comma before the next element, or the closing bracket.)
    let end = j + 1 < starts.length ? starts[j + 1]! - 1 : list.end - 1;
    while (start < end && isWs(flat[start])) start++;
    while (end > start && isWs(flat[end - 1])) end--;
    if (start === end && starts.length === 1) return []; // `[]`
    out.push({ start, end });
  }
  return out;
}

const utf8 = new TextDecoder();

/** One value's bytes parsed (decoded as Node decodes a body, where it can). */
function parsePiece(flat: Uint8Array, start: number, end: number): unknown {
  const b = flat as Uint8Array & { utf8Slice?: (start: number, end: number) => string };
  return JSON.parse(typeof b.utf8Slice === 'function' ? b.utf8Slice(start, end) : utf8.decode(flat.subarray(start, end)));
}
