/**
 * Remembering which forwarded requests passed their dialect's parameter check, so an agent's next
 * turn does not pay for it again. Agents resend the same system prompt, tool schemas and settings
 * every turn; only the conversation grows. The check (`passesCheck`, spec.ts: a pure function of
 * the body's fields but the conversation and of what `checkKey` names, the headers and route
 * parameters the dialect `reads`) then gives the same answer, and decoding 20 tool schemas and a
 * 12 KB prompt to learn it again cost more per 30 KB request than forwarding it
 * (docs/performance.md, At agent scale).
 *
 * Only passes are kept; an entry is the exact bytes of every field but the conversation, compared
 * byte for byte (no hash to collide), so a request is taken as checked only when everything the
 * check reads is what a checked request had. Bounded in entries and bytes; the oldest goes first.
 */
import { nativeCompare, type PeekedJson } from '../../kit/index.ts';

interface Entry {
  scope: string;
  keys: string[];
  /** The fields' value bytes, one after another, in the body's order. */
  bytes: Uint8Array;
}

/** How many passes are kept, and the most bytes one may hold (larger ones are checked each time). */
const MAX_ENTRIES = 64;
const MAX_ENTRY_BYTES = 256 * 1024;

export class CheckMemo {
  private entries: Entry[] = [];

  /**
   * Whether the request passes: remembered, or `check()` run (and a pass remembered). `scope` is
   * the dialect and whatever else the check reads besides the fields (`checkKey`).
   */
  passes(scope: string, bytes: Uint8Array, top: PeekedJson, conversation: string, check: () => boolean): boolean {
    const fields = top.fields.filter((f) => f.key !== conversation);
    let size = 0;
    for (const f of fields) size += f.end - f.start;
    if (size > MAX_ENTRY_BYTES) return check();
    const hit = this.entries.findIndex((e) => e.bytes.byteLength === size && e.scope === scope && sameFields(e, fields, bytes));
    if (hit >= 0) {
      // Most recent last: the oldest is the one dropped.
      if (hit !== this.entries.length - 1) this.entries.push(this.entries.splice(hit, 1)[0]!);
      return true;
    }
    if (!check()) return false;
    const kept = new Uint8Array(size);
    let at = 0;
    for (const f of fields) {
      kept.set(bytes.subarray(f.start, f.end), at);
      at += f.end - f.start;
    }
    this.entries.push({ scope, keys: fields.map((f) => f.key), bytes: kept });
    if (this.entries.length > MAX_ENTRIES) this.entries.shift();
    return true;
  }

  /** How many passes are kept (for tests). */
  get size(): number {
    return this.entries.length;
  }
}

function sameFields(e: Entry, fields: PeekedJson['fields'], bytes: Uint8Array): boolean {
  if (e.keys.length !== fields.length) return false;
  const compare = nativeCompare();
  let at = 0;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (e.keys[i] !== f.key) return false;
    const len = f.end - f.start;
    if (compare) {
      if (compare.call(bytes, e.bytes, at, at + len, f.start, f.end) !== 0) return false;
      at += len;
    } else {
      for (let k = f.start; k < f.end; k++) if (bytes[k] !== e.bytes[at++]) return false;
    }
  }
  return true;
}
