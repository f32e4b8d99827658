/**
 * Reading a JSON request body's top-level `model` and `stream` without parsing it, for requests
 * forwarded byte for byte to an upstream of the caller's own dialect, and renaming that one
 * `model` value in the bytes.
 *
 * The scan checks the body's whole structure — one top-level object, objects and arrays
 * balanced and well formed (keys, colons, commas), literals and numbers as JSON writes them, every
 * string closed, no deeper than MAX_JSON_DEPTH — but not what is inside strings (escapes, control
 * characters), which the upstream of the caller's own dialect checks. Strings, most of an agent's
 * body, are skipped with `indexOf` (memchr), so the cost is per token outside strings, not per
 * byte. When anything is unclear (a key written with escapes, `model` twice, a model that is not a
 * string) it answers undefined and the caller parses the body as usual, which also gives bad JSON
 * its usual 400.
 */
import { MAX_JSON_DEPTH } from './json.ts';

export interface PeekedJson {
  /** The top-level `model` string, and where its token (quotes included) lies in the bytes. */
  model?: { value: string; start: number; end: number };
  /** The top-level `stream` value when it is `true`, `false` or `null`; `'other'` otherwise. */
  stream?: boolean | null | 'other';
  /** Every top-level field and where its value lies, in order. */
  fields: Array<{ key: string; start: number; end: number }>;
}

const utf8 = new TextDecoder();
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const enum State {
  Value,
  ValueOrEnd,
  Key,
  KeyOrEnd,
  Colon,
  After,
}
const OBJECT = 1;
const ARRAY = 2;

const MODEL = [0x6d, 0x6f, 0x64, 0x65, 0x6c];
const STREAM = [0x73, 0x74, 0x72, 0x65, 0x61, 0x6d];

/** Index just past the string opening at `i`, or -1 when it never closes. */
function skipString(b: Uint8Array, i: number): number {
  // Short strings (keys, ids, types) by hand; a long one's end found by indexOf (memchr on Node).
  const stop = Math.min(b.length, i + 16);
  for (let k = i + 1; k < stop; k++) {
    const c = b[k];
    if (c === QUOTE) return k + 1;
    if (c === BACKSLASH) k++;
  }
  let from = stop;
  for (;;) {
    const q = b.indexOf(QUOTE, from);
    if (q < 0) return -1;
    let k = q - 1;
    while (b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** Characters of `true`, `false`, `null` and numbers. */
const isLiteral = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function same(b: Uint8Array, start: number, end: number, word: number[]): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[start + k] !== word[k]) return false;
  return true;
}

/** Short ASCII by hand (keys: a decoder call costs more than the key), anything else decoded. */
function text(b: Uint8Array, start: number, end: number): string {
  if (end - start > 32) return utf8.decode(b.subarray(start, end));
  let s = '';
  for (let k = start; k < end; k++) {
    const c = b[k]!;
    if (c >= 0x80) return utf8.decode(b.subarray(start, end));
    s += String.fromCharCode(c);
  }
  return s;
}

function latin1(b: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let k = start; k < end; k++) s += String.fromCharCode(b[k]!);
  return s;
}

/**
 * The scan's whole state at the start of an element of a top-level array (the conversation): a
 * scan of another body whose bytes up to `at` are the same can start here instead (`peekJson`'s
 * `from`) and give the same answer, since the scan reads nothing before where it stands. Agents
 * resend the conversation so far with every turn, so most of a body is the last one's.
 */
export interface PeekCheckpoint {
  readonly at: number;
  readonly stack: Uint8Array;
  readonly key: number;
  readonly models: number;
  readonly fieldKey: string;
  readonly valueStart: number;
  /** The top-level fields before this array (shared between checkpoints: never changed). */
  readonly fields: PeekedJson['fields'];
  readonly model?: PeekedJson['model'];
  readonly stream?: PeekedJson['stream'];
}

export interface PeekResume {
  /** Start from this checkpoint (of a body with the same bytes up to its `at`) instead of byte 0. */
  from?: PeekCheckpoint;
  /** Collect checkpoints after `from` into this list, one about every `every` bytes. */
  into?: PeekCheckpoint[];
  every?: number;
}

/** Where a scan resumes: the checkpoint's stack and what it had found so far. */
function restore(from: PeekCheckpoint, stack: Uint8Array, out: PeekedJson): void {
  stack.set(from.stack);
  out.fields = from.fields.slice();
  if (from.model) out.model = from.model;
  if (from.stream !== undefined) out.stream = from.stream;
}

/** A string token's value (quotes included in `raw`), or undefined when its escapes are not JSON. */
function stringValue(raw: Uint8Array): string | undefined {
  if (raw.indexOf(BACKSLASH) < 0) return utf8.decode(raw.subarray(1, -1));
  try {
    return JSON.parse(utf8.decode(raw)) as string;
  } catch {
    return undefined;
  }
}

/** Index just past the literal (`true`, `false`, `null`, a number as JSON writes it) at `i`, or -1. */
function literalEnd(b: Uint8Array, i: number): number {
  let end = i;
  while (end < b.length && isLiteral(b[end]!)) end++;
  if (end === i) return -1;
  const word = latin1(b, i, end);
  return word === 'true' || word === 'false' || word === 'null' || NUMBER.test(word) ? end : -1;
}

function streamValue(word: string): PeekedJson['stream'] {
  return word === 'true' ? true : word === 'false' ? false : word === 'null' ? null : 'other';
}

/** The top-level `model` and `stream` of a JSON object body, or undefined (see the module doc). */
export function peekJson(b: Uint8Array, resume?: PeekResume): PeekedJson | undefined {
  const n = b.length;
  const stack = new Uint8Array(MAX_JSON_DEPTH + 1);
  const out: PeekedJson = { fields: [] };
  const from = resume?.from;
  if (from) restore(from, stack, out);
  let depth = from ? from.stack.length - 1 : 0;
  let state = State.Value;
  /** The top-level key whose value comes next: 1 model, 2 stream, 0 another. */
  let key = from ? from.key : 0;
  let models = from ? from.models : 0;
  let fieldKey = from ? from.fieldKey : '';
  let valueStart = from ? from.valueStart : 0;
  /** A top-level value ended at `at`. */
  const field = (at: number) => out.fields.push({ key: fieldKey, start: valueStart, end: at });
  let i = from ? from.at : 0;
  const into = resume?.into;
  const every = resume?.every ?? 0;
  let lastCheckpoint = i;
  let shared: PeekedJson['fields'] | undefined;
  for (;;) {
    while (i < n && isWs(b[i]!)) i++;
    if (i >= n) break;
    const c = b[i]!;
    switch (state) {
      case State.ValueOrEnd:
      case State.Value: {
        if (c === 0x5d && state === State.ValueOrEnd) {
          depth--;
          i++;
          state = State.After;
          if (depth === 1) field(i);
          break;
        }
        const top = depth === 1;
        if (depth === 0 && c !== 0x7b) return undefined;
        if (top) valueStart = i;
        if (c === 0x7b || c === 0x5b) {
          if (depth >= MAX_JSON_DEPTH) return undefined;
          stack[++depth] = c === 0x7b ? OBJECT : ARRAY;
          if (top && key === 2) out.stream = 'other';
          i++;
          state = c === 0x7b ? State.KeyOrEnd : State.ValueOrEnd;
          break;
        }
        if (c === QUOTE) {
          const end = skipString(b, i);
          if (end < 0) return undefined;
          if (top && key === 1) {
            const value = stringValue(b.subarray(i, end));
            if (value === undefined) return undefined;
            out.model = { value, start: i, end };
          } else if (top && key === 2) out.stream = 'other';
          i = end;
          state = State.After;
          if (top) field(end);
          break;
        }
        const end = literalEnd(b, i);
        if (end < 0) return undefined;
        if (top && key === 1) return undefined; // a model that is not a string
        if (top && key === 2) out.stream = streamValue(latin1(b, i, end));
        i = end;
        state = State.After;
        if (top) field(end);
        break;
      }
      case State.KeyOrEnd:
      case State.Key: {
        if (c === 0x7d && state === State.KeyOrEnd) {
          depth--;
          i++;
          state = State.After;
          if (depth === 1) field(i);
          break;
        }
        if (c !== QUOTE) return undefined;
        const end = skipString(b, i);
        if (end < 0) return undefined;
        if (depth === 1) {
          // A key spelled with escapes could be `model` in disguise: parse instead.
          if (b.subarray(i, end).indexOf(BACKSLASH) >= 0) return undefined;
          key = same(b, i + 1, end - 1, MODEL) ? 1 : same(b, i + 1, end - 1, STREAM) ? 2 : 0;
          fieldKey = text(b, i + 1, end - 1);
          if (key === 1 && ++models > 1) return undefined;
        }
        i = end;
        state = State.Colon;
        break;
      }
      case State.Colon:
        if (c !== 0x3a) return undefined;
        i++;
        state = State.Value;
        break;
      case State.After: {
        if (depth === 0) return undefined; // something after the top-level object
        const kind = stack[depth];
        if (c === 0x2c) {
          state = kind === OBJECT ? State.Key : State.Value;
          if (depth === 1) key = 0;
          else if (into && depth === 2 && kind === ARRAY && i + 1 - lastCheckpoint >= every) {
            lastCheckpoint = i + 1;
            // (Until this array ends the top-level fields do not change: one copy for all its checkpoints.)
            if (!shared || shared.length !== out.fields.length) shared = out.fields.slice();
            into.push({ at: i + 1, stack: stack.slice(0, 3), key, models, fieldKey, valueStart, fields: shared, model: out.model, stream: out.stream });
          }
        } else if ((c === 0x7d && kind === OBJECT) || (c === 0x5d && kind === ARRAY)) {
          depth--;
          if (depth === 1) field(i + 1);
        } else return undefined;
        i++;
        break;
      }
    }
  }
  return depth === 0 && state === State.After ? out : undefined;
}

/**
 * The body's first top-level value when its first key is `model` and the value a plain string (no
 * escapes), read from the first bytes only; undefined otherwise. Enough to tell, before scanning
 * a body, that its route goes to another dialect (it is then decoded anyway).
 */
export function leadingModel(b: Uint8Array): string | undefined {
  let i = 0;
  const ws = () => {
    while (i < b.length && isWs(b[i]!)) i++;
  };
  ws();
  if (b[i++] !== 0x7b) return undefined;
  ws();
  if (b[i] !== QUOTE || !same(b, i + 1, i + 6, MODEL) || b[i + 6] !== QUOTE) return undefined;
  i += 7;
  ws();
  if (b[i++] !== 0x3a) return undefined;
  ws();
  if (b[i] !== QUOTE) return undefined;
  const end = b.indexOf(QUOTE, i + 1);
  if (end < 0 || end - i > 512) return undefined;
  const raw = b.subarray(i + 1, end);
  return raw.indexOf(BACKSLASH) >= 0 ? undefined : utf8.decode(raw);
}

/**
 * The body's top-level fields, parsed, but for `except` (the conversation, most of the bytes):
 * enough to check a request's parameters without parsing all of it.
 */
export function parsedExcept(b: Uint8Array, peeked: PeekedJson, except: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of peeked.fields) {
    if (f.key === except) continue;
    // As JSON.parse does: an own property even when it is called `__proto__`.
    Object.defineProperty(out, f.key, { value: JSON.parse(utf8.decode(b.subarray(f.start, f.end))), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The body's top-level fields of these `names`, parsed (the first of a name given twice; one whose
 * value does not parse is left out): a few small fields read without parsing the rest.
 */
export function parsedFields(b: Uint8Array, peeked: PeekedJson, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const f = peeked.fields.find((x) => x.key === name);
    if (!f) continue;
    try {
      Object.defineProperty(out, name, { value: JSON.parse(utf8.decode(b.subarray(f.start, f.end))), enumerable: true, writable: true, configurable: true });
    } catch {
      // (Not JSON: as if absent.)
    }
  }
  return out;
}

/** A request's model and stream flag from its body's top level, when plainly there (a string model, a boolean or no stream). */
export function modelAndStream(top: PeekedJson): { model: string; stream: boolean } | undefined {
  if (!top.model?.value || top.stream === 'other') return undefined;
  return { model: top.model.value, stream: top.stream === true };
}
