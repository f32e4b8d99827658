/**
 * A big JSON body parsed from one-byte text, where the runtime can make it (Node's `latin1Slice`).
 *
 * Why: decoding a body that holds any non-ASCII character as UTF-8 gives a two-byte string, twice
 * the body's size; past 128 KB V8 gives it pages of its own, which the kernel faults in and zeroes
 * (a 2 MB body: ~1,000 page faults, 18–25 ms with `JSON.parse` on this machine). Read as Latin-1,
 * each byte one character, the text is half that and quicker to parse; the strings that held
 * UTF-8 bytes are then decoded one by one. 2 MB: 25 → 15 ms (`npm run bench:agent`, docs/performance.md).
 *
 * Exactly `JSON.parse` of the UTF-8 text, or `undefined` (the caller then takes that road):
 * - bytes 0x80–0xFF only come from the body's own UTF-8 (never from an escape: a body with any
 *   `\u0080`–`\u00FF` escape is left to the UTF-8 road), and every UTF-8 sequence lies inside one
 *   JSON string, bounded by ASCII, so each run of them decodes alone as it would in the whole text
 *   (an invalid byte becomes U+FFFD either way);
 * - a body that does not parse (a byte-order mark, too, is no JSON in either text) or nests too
 *   deep goes the UTF-8 road, so its error is the same.
 */
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../kit/index.ts';

/** Bodies from this size are worth it; a smaller text is no large object. */
export const LATIN1_FROM_BYTES = 64 * 1024;

type Latin1Bytes = Uint8Array & { latin1Slice?: (start: number, end: number) => string; indexOf(value: string, from?: number): number };

const HIGH = /[\x80-\xff]/;
const HIGH_RUN = /[\x80-\xff]+/g;
const utf8 = new TextDecoder();

export function parseLatin1Json(bytes: Uint8Array): unknown {
  const b = bytes as Latin1Bytes;
  if (b.byteLength < LATIN1_FROM_BYTES || typeof b.latin1Slice !== 'function') return undefined;
  if (escapesLatin1(b)) return undefined;
  const text = b.latin1Slice(0, b.byteLength);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return undefined;
  return HIGH.test(text) ? decoded(value) : value;
}

/** True when the text has a `\u0080`–`\u00FF` escape (or something that looks like one). */
function escapesLatin1(b: Latin1Bytes): boolean {
  for (let at = b.indexOf('\\u00'); at >= 0; at = b.indexOf('\\u00', at + 4)) {
    const c = b[at + 4];
    // 8, 9, A–F, a–f
    if (c !== undefined && ((c >= 0x38 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return true;
  }
  return false;
}

/** A string read as Latin-1 with each run of UTF-8 bytes decoded (a run is a few bytes: quicker than the whole string). */
function decodedText(s: string): string {
  return HIGH.test(s) ? s.replace(HIGH_RUN, utf8Of) : s;
}

/** Characters U+0000–U+00FF as the bytes they stand for, decoded as UTF-8. */
function utf8Of(s: string): string {
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return utf8.decode(bytes);
}

/** The parsed value with every string (and key) decoded; fresh from JSON.parse, changed in place. */
function decoded(value: unknown): unknown {
  if (typeof value === 'string') return decodedText(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      const d = decoded(v);
      if (d !== v) value[i] = d;
    }
    return value;
  }
  const obj = value as Record<string, unknown>;
  let renamed = false;
  for (const k in obj) {
    const v = obj[k];
    const d = decoded(v);
    if (d !== v) obj[k] = d;
    if (HIGH.test(k)) renamed = true;
  }
  // A key with UTF-8 in it: the object again, keys decoded, in their order (as own properties).
  return renamed ? Object.fromEntries(Object.entries(obj).map(([k, v]) => [decodedText(k), v])) : obj;
}
