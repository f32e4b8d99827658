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
 */
import { ByteParts } from './http.ts';

/** Bodies from this many characters are made in pieces (smaller ones: one string, as cheap). */
export const JSON_PARTS_FROM_CHARS = 64 * 1024;
/** Pieces are joined into batches of about this many characters before encoding. */
const BATCH_CHARS = 32 * 1024;
const utf8 = new TextEncoder();

/**
 * `JSON.stringify(value)` for a plain object whose `listKey` holds the bulk (a conversation): as
 * that string when it is short, else as its UTF-8 bytes in pieces, the list's elements stringified
 * one at a time. Key order and `JSON.stringify`'s rules (undefined members left out, `null` for an
 * undefined element) are kept.
 */
export function jsonBody(value: Record<string, unknown>, listKey: string): string | ByteParts {
  const list = value[listKey];
  if (!Array.isArray(list) || list.length < 2) return JSON.stringify(value);
  const pieces: string[] = [];
  let chars = 0;
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (key === listKey) {
      const open = `${first ? '{' : ','}${JSON.stringify(key)}:[`;
      pieces.push(open);
      chars += open.length;
      for (let i = 0; i < list.length; i++) {
        const item = (i === 0 ? '' : ',') + (JSON.stringify(list[i]) ?? 'null');
        pieces.push(item);
        chars += item.length;
      }
      pieces.push(']');
      chars += 1;
    } else {
      const text = JSON.stringify(member);
      if (text === undefined) continue;
      const field = `${first ? '{' : ','}${JSON.stringify(key)}:${text}`;
      pieces.push(field);
      chars += field.length;
    }
    first = false;
  }
  pieces.push('}');
  chars += 1;
  // `chars` is now the length of the JSON text.
  if (chars < JSON_PARTS_FROM_CHARS) return pieces.join('');
  return new ByteParts(encodedBatches(pieces));
}

/** The pieces as UTF-8, joined into batches of about BATCH_CHARS so that few buffers are made. */
function encodedBatches(pieces: readonly string[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let batch = '';
  for (const p of pieces) {
    batch += p;
    if (batch.length >= BATCH_CHARS) {
      out.push(utf8.encode(batch));
      batch = '';
    }
  }
  if (batch) out.push(utf8.encode(batch));
  return out;
}
