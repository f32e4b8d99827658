/**
 * An encoded request body as JSON: `JSON.stringify` for a small one; for a big one (an agent's
 * conversation), the same text made in pieces and sent as UTF-8 pieces (`ByteParts`).
 *
 * Why pieces: `JSON.stringify` of a big object returns its text as a tree of short strings, which
 * the encoding to bytes must first copy into one flat string; past 128 KB V8 gives each such
 * string, and the bytes, pages of their own, which the kernel faults in and zeroes, and frees them
 * only at a full GC. Stringifying the conversation's elements one by one and encoding them in
 * batches keeps every string and buffer small: 2 MB went from ~24 ms and ~1,100 page faults to
 * ~10 ms and none (`npm run bench:agent`, docs/performance.md "At agent scale"). The bytes are exactly those of
 * `JSON.stringify(value)` (tested).
 *
 * Given the last body made for the same caller and route (`JsonBodyKeep`), the pieces of members
 * and elements equal to the last ones are taken from it instead of stringified again, and the
 * UTF-8 batches that hold only such pieces are the last body's own (an agent's next turn is its
 * last one and a few new messages). "Equal" is `sameJson`: plain objects and arrays with the same
 * keys in the same order and equal values, which `JSON.stringify` writes alike; anything else
 * (a class instance, a function, a `toJSON`) counts as different and is stringified.
 */
import { ByteParts } from './http.ts';

/** Bodies from this many characters are made in pieces (smaller ones: one string, as cheap). */
export const JSON_PARTS_FROM_CHARS = 64 * 1024;
/** Pieces are joined into batches of about this many characters before encoding. */
const BATCH_CHARS = 32 * 1024;
const utf8 = new TextEncoder();

/** A body made in pieces, as the next one may reuse it. Never changed once made. */
export interface KeptJsonBody {
  readonly listKey: string;
  /** The top-level members but the list: each value and its JSON text. */
  readonly members: ReadonlyMap<string, { value: unknown; text: string }>;
  /** The list's elements: each value and its JSON text (`null` for what JSON writes so). */
  readonly items: ReadonlyArray<{ value: unknown; text: string }>;
  /** Every piece of the text, in order. */
  readonly pieces: readonly string[];
  /** The UTF-8 batches, each with the number of pieces up to its end. */
  readonly batches: readonly Batch[];
  /** Characters of text kept and bytes of batches: what keeping it costs, about. */
  readonly size: number;
}

/** UTF-8 of the pieces up to `through`; `last`: the rest of the text, short of a batch. */
interface Batch {
  readonly bytes: Uint8Array;
  readonly through: number;
  readonly last?: boolean;
}

/** Where the last body for one caller and route is kept (src/flows/forward/turn-memo.ts bounds and scopes it). */
export interface JsonBodyKeep {
  last(): KeptJsonBody | undefined;
  keep(body: KeptJsonBody | undefined): void;
}

/**
 * `JSON.stringify(value)` for a plain object whose `listKey` holds the bulk (a conversation): as
 * that string when it is short, else as its UTF-8 bytes in pieces, the list's elements stringified
 * one at a time. Key order and `JSON.stringify`'s rules (undefined members left out, `null` for an
 * undefined element) are kept. `memo`: the last body of this caller and route, reused where equal.
 */
export function jsonBody(value: Record<string, unknown>, listKey: string, memo?: JsonBodyKeep): string | ByteParts {
  const list = value[listKey];
  if (!Array.isArray(list) || list.length < 2) return JSON.stringify(value);
  const last = memo?.last();
  const kept = last?.listKey === listKey ? last : undefined;
  const pieces: string[] = [];
  const members = new Map<string, { value: unknown; text: string }>();
  const items: Array<{ value: unknown; text: string }> = [];
  let chars = 0;
  let first = true;
  const push = (p: string) => {
    pieces.push(p);
    chars += p.length;
  };
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (key === listKey) {
      push(`${first ? '{' : ','}${JSON.stringify(key)}:[`);
      for (let i = 0; i < list.length; i++) {
        const item = list[i];
        const before = kept?.items[i];
        const text = before && sameJson(before.value, item) ? before.text : (JSON.stringify(item) ?? 'null');
        if (i > 0) push(',');
        push(text);
        if (memo) items.push({ value: item, text });
      }
      push(']');
    } else {
      const before = kept?.members.get(key);
      const text = before && sameJson(before.value, member) ? before.text : JSON.stringify(member);
      if (text === undefined) continue;
      push(`${first ? '{' : ','}${JSON.stringify(key)}:`);
      push(text);
      if (memo) members.set(key, { value: member, text });
    }
    first = false;
  }
  push('}');
  // `chars` is now the length of the JSON text.
  if (chars < JSON_PARTS_FROM_CHARS) {
    memo?.keep(undefined);
    return pieces.join('');
  }
  const batches = encodedBatches(pieces, kept);
  if (memo) {
    let size = chars;
    for (const b of batches) size += b.bytes.byteLength;
    memo.keep({ listKey, members, items, pieces, batches, size });
  }
  return new ByteParts(batches.map((b) => b.bytes));
}

/**
 * The pieces as UTF-8, joined into batches of about BATCH_CHARS so that few buffers are made. The
 * batches of `kept` that hold only pieces the same as these (the same strings, from its start) are
 * its own: batching the same pieces from the start gives the same batches.
 */
function encodedBatches(pieces: readonly string[], kept: KeptJsonBody | undefined): Batch[] {
  const out: Batch[] = [];
  let from = 0;
  if (kept) {
    let same = 0;
    const n = Math.min(pieces.length, kept.pieces.length);
    while (same < n && pieces[same] === kept.pieces[same]) same++;
    for (const b of kept.batches) {
      // (The last batch ended with the text, not with its size: the same only where this text ends too.)
      if (b.through > same || (b.last && b.through !== pieces.length)) break;
      out.push(b);
      from = b.through;
    }
  }
  let batch = '';
  for (let i = from; i < pieces.length; i++) {
    batch += pieces[i]!;
    if (batch.length >= BATCH_CHARS) {
      out.push({ bytes: utf8.encode(batch), through: i + 1 });
      batch = '';
    }
  }
  if (batch) out.push({ bytes: utf8.encode(batch), through: pieces.length, last: true });
  return out;
}

const OBJECT = Object.prototype;
const ARRAY = Array.prototype;

/**
 * Whether `JSON.stringify` writes `a` and `b` alike, as far as that is plain to see: the same
 * value, or plain objects (the same keys in the same order) and arrays (the same length) whose
 * members are so in turn. Anything else is "not the same", which costs only a stringify. The same
 * object counts as the same: what a body was made of is never changed afterwards.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'function';
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const pa = Object.getPrototypeOf(a);
  if (pa !== Object.getPrototypeOf(b)) return false;
  if (pa === ARRAY) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(x[i], y[i])) return false;
    return true;
  }
  if (pa !== OBJECT && pa !== null) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.length !== ky.length) return false;
  for (let i = 0; i < kx.length; i++) {
    const k = kx[i]!;
    if (k !== ky[i] || k === 'toJSON' || !sameJson(x[k], y[k])) return false;
  }
  return true;
}
