/**
 * The check a scanned body passes before it is forwarded, as its dialect declares it
 * (`ChatCaller.forward`, data): that the conversation is there, and that everything else passes
 * the dialect's own decoder, given every top-level field but the conversation, with one plain turn
 * standing in for it (the upstream, of the same dialect, checks the conversation itself).
 *
 * A pass is remembered (`CheckMemo`), so an agent's next turn does not pay for it again. Agents
 * resend the same system prompt, tool schemas and settings every turn; only the conversation
 * grows. The check (`passesCheck`: a pure function of the body's fields but the conversation and
 * of what `checkKey` names, the headers and route parameters the dialect `reads`) then gives the
 * same answer, and decoding 20 tool schemas and a 12 KB prompt to learn it again cost more per
 * 30 KB request than forwarding it (docs/performance.md, At agent scale). Only passes are kept; an
 * entry is the exact bytes of every field but the conversation, compared byte for byte (no hash to
 * collide), so a request is taken as checked only when everything the check reads is what a
 * checked request had. Bounded in entries and bytes; the oldest goes first.
 */
import { nativeCompare, parsedExcept, type PeekedJson } from '../../kit/index.ts';
import type { CallerInput, ChatCaller, ForwardSpec, TranslateContext } from '../../../translators/types.ts';

const utf8 = new TextDecoder();
/** Up to this size a body is parsed whole for its parameter check. */
const SMALL_BODY = 16 * 1024;

/**
 * Whether a scanned body (`bytes`, its top level `top`) is fit to forward as far as its dialect
 * checks it without the conversation: it holds one, and the rest passes the dialect's decoder
 * (remembered). False: the request is decoded whole, which gives any error its exact wording.
 */
export function fitToForward(caller: ChatCaller, input: CallerInput, body: { bytes: Uint8Array; top: PeekedJson }, ctx: TranslateContext): boolean {
  const spec = caller.forward!;
  // No conversation (or an empty one): decoded, so its dialect's decoder refuses it.
  if (!holdsConversation(body.bytes, body.top, spec.conversation)) return false;
  const key = `${caller.id}\n${checkKey(spec, input)}`;
  return checkMemo.passes(key, body.bytes, body.top, spec.conversation, () => passesCheck(caller, input, body, ctx));
}

/** Everything the check reads of the request but its body (the headers and route parameters the dialect names), as one string. */
export function checkKey(spec: ForwardSpec, input: CallerInput): string {
  const reads = spec.reads;
  if (!reads) return '';
  const values = [...(reads.headers ?? []).map((h) => input.headers[h]), ...(reads.params ?? []).map((p) => input.params[p])];
  return JSON.stringify(values);
}

/**
 * Whether the request passes its dialect's checks as far as its parameters go: all but the
 * conversation decoded (the upstream checks the conversation, in its own dialect). A pure
 * function of the body's fields but the conversation and of what `checkKey` names.
 */
export function passesCheck(caller: ChatCaller, input: CallerInput, body: { bytes: Uint8Array; top: PeekedJson }, ctx: TranslateContext): boolean {
  const spec = caller.forward!;
  return checkedExcept(body.bytes, body.top, spec.conversation, spec.standIn, (fields) => caller.decodeRequest({ ...bareInput(input), body: fields }, ctx));
}

/**
 * A request fit to forward without parsing, checked as far as its parameters go: the body's
 * top-level fields but the conversation (`conversation`, replaced by `standIn`, one plain turn)
 * given to `check` (the dialect's own decoder, which throws on what it refuses). False when
 * `check` throws: the request is then decoded whole, which gives the error its exact wording.
 */
export function checkedExcept(b: Uint8Array, peeked: PeekedJson, conversation: string, standIn: unknown, check: (body: Record<string, unknown>) => unknown): boolean {
  try {
    // A small body parsed whole is cheaper than field by field.
    const fields = b.length <= SMALL_BODY ? (JSON.parse(utf8.decode(b)) as Record<string, unknown>) : parsedExcept(b, peeked, conversation);
    check({ ...fields, [conversation]: standIn });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the body's `conversation` holds something: present, and every occurrence a non-empty
 * list, object or string. The forwarding path leaves what is inside the conversation to the
 * upstream, but never its absence: a body without one (`[]`, `""`, `null`, missing) is decoded,
 * and its dialect's decoder refuses it (or, where the dialect allows it, passes it on).
 */
export function holdsConversation(b: Uint8Array, peeked: PeekedJson, conversation: string): boolean {
  let found = false;
  for (const f of peeked.fields) {
    if (f.key !== conversation) continue;
    found = true;
    const open = b[f.start];
    let k = f.start + 1;
    // (Whitespace inside a list or an object; a string's is its content.)
    if (open !== 0x22) while (k < f.end && (b[k] === 0x20 || b[k] === 0x0a || b[k] === 0x0d || b[k] === 0x09)) k++;
    const close = open === 0x5b ? 0x5d : open === 0x7b ? 0x7d : open === 0x22 ? 0x22 : undefined;
    if (close === undefined || b[k] === close) return false;
  }
  return found;
}

/** A caller's input without its body (which forwarding must not read), to give a stand-in body. */
export function bareInput<I extends { headers: unknown; params: unknown; query: unknown }>(input: I): Pick<I, 'headers' | 'params' | 'query'> {
  return { headers: input.headers, params: input.params, query: input.query };
}

// The memo of passes.

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

/** The parameter checks this process has seen pass (one per process: a check is a pure function). */
const checkMemo = new CheckMemo();

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
