/**
 * The raw input of a freeform tool's call that an upstream made as a function call with
 * `{"input": "…"}` arguments (see custom-tools.ts): read whole, or incrementally as the arguments
 * stream in.
 */

/** The one parameter a lowered freeform tool takes. */
export const CUSTOM_INPUT_PARAM = 'input';

/**
 * The raw input in a lowered call's arguments: the `input` string of `{"input": …}`; the only
 * string member of an object; a JSON string; the JSON text of a non-string `input`; '' for `{}`;
 * and the arguments themselves otherwise (a model that wrote the raw text directly).
 */
export function customInputOf(args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  if (typeof parsed === 'string') return parsed;
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const obj = parsed as Record<string, unknown>;
    if (CUSTOM_INPUT_PARAM in obj) {
      const v = obj[CUSTOM_INPUT_PARAM];
      return typeof v === 'string' ? v : JSON.stringify(v);
    }
    const values = Object.values(obj);
    if (values.length === 0) return '';
    const strings = values.filter((v): v is string => typeof v === 'string');
    if (strings.length === 1) return strings[0]!;
  }
  return args;
}

type Mode = 'start' | 'key-or-end' | 'key' | 'colon' | 'value' | 'skip' | 'comma' | 'input' | 'done' | 'failed';

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
/** Keys longer than this cannot be `input`; only their length matters then. */
const MAX_KEY = 16;

/**
 * Reads streamed JSON arguments `{"input": "…"}` and yields the decoded characters of the
 * top-level `input` string as they arrive: escapes split across chunks, `\uXXXX` escapes and
 * surrogate pairs (a high surrogate is held until its low half comes, so no delta ever holds half
 * a character). Constant work per character; the raw chunks are kept (linearly) only for the
 * fallback when the arguments turn out not to have that shape.
 */
export class CustomInputExtractor {
  private mode: Mode = 'start';
  /** Inside a string: after a backslash. */
  private escape = false;
  /** Inside a `\u` escape: the hex digits so far. */
  private hex: string | undefined;
  /** A high surrogate waiting for its low half. */
  private high: number | undefined;
  private key = '';
  private keyLength = 0;
  /** The value being skipped: nesting depth, and whether inside one of its strings. */
  private depth = 0;
  private skipString = false;
  private skipEscape = false;
  private readonly chunks: string[] = [];
  private emitted = false;

  /** Feed one arguments delta; the input text it completes ('' when none). */
  push(delta: string): string {
    this.chunks.push(delta);
    let out = '';
    for (let i = 0; i < delta.length; i++) {
      if (this.mode === 'done' || this.mode === 'failed') break;
      if (this.mode === 'input') {
        // Fast path: a run of plain characters up to the next quote or backslash.
        if (!this.escape && this.hex === undefined) {
          let end = i;
          while (end < delta.length) {
            const c = delta.charCodeAt(end);
            if (c === 0x22 || c === 0x5c) break;
            end++;
          }
          if (end > i) {
            out += this.units(delta, i, end);
            i = end - 1;
            continue;
          }
        }
        out += this.stringChar(delta[i]!, true);
        continue;
      }
      this.structural(delta[i]!);
    }
    if (out) this.emitted = true;
    return out;
  }

  /** At the call's end: the whole input when nothing could be streamed ('' otherwise). */
  end(): string {
    if (this.emitted) return '';
    const all = this.chunks.join('');
    return all.trim() === '' ? '' : customInputOf(all);
  }

  /** Code units [from, to) of `s` as output, holding a trailing high surrogate. */
  private units(s: string, from: number, to: number): string {
    let out = '';
    let start = from;
    if (this.high !== undefined) {
      const c = s.charCodeAt(from);
      out += c >= 0xdc00 && c <= 0xdfff ? String.fromCharCode(this.high, c) : '\uFFFD';
      if (c >= 0xdc00 && c <= 0xdfff) start = from + 1;
      this.high = undefined;
    }
    let stop = to;
    const last = s.charCodeAt(to - 1);
    if (stop > start && last >= 0xd800 && last <= 0xdbff) {
      this.high = last;
      stop--;
    }
    return out + s.slice(start, stop);
  }

  /** One decoded UTF-16 code unit as output (pairs completed, lone halves replaced). */
  private unit(code: number): string {
    let out = '';
    if (this.high !== undefined) {
      if (code >= 0xdc00 && code <= 0xdfff) {
        out = String.fromCharCode(this.high, code);
        this.high = undefined;
        return out;
      }
      out = '\uFFFD';
      this.high = undefined;
    }
    if (code >= 0xd800 && code <= 0xdbff) this.high = code;
    else if (code >= 0xdc00 && code <= 0xdfff) out += '\uFFFD';
    else out += String.fromCharCode(code);
    return out;
  }

  /**
   * One character inside a key or the `input` string: the text it decodes to ('' while an escape
   * is incomplete). At the closing quote the string ends.
   */
  private stringChar(ch: string, emit: boolean): string {
    if (this.hex !== undefined) {
      if (!/[0-9a-fA-F]/.test(ch)) return this.fail();
      this.hex += ch;
      if (this.hex.length < 4) return '';
      const code = parseInt(this.hex, 16);
      this.hex = undefined;
      return this.decoded(emit, code);
    }
    if (this.escape) {
      this.escape = false;
      if (ch === 'u') {
        this.hex = '';
        return '';
      }
      const simple = SIMPLE_ESCAPES[ch];
      return simple === undefined ? this.fail() : this.decoded(emit, simple.charCodeAt(0));
    }
    if (ch === '\\') {
      this.escape = true;
      return '';
    }
    if (ch === '"') {
      if (emit) {
        const held = this.high !== undefined ? '\uFFFD' : '';
        this.high = undefined;
        this.mode = 'done';
        return held;
      }
      this.mode = 'colon';
      return '';
    }
    return this.decoded(emit, ch.charCodeAt(0));
  }

  private decoded(emit: boolean, code: number): string {
    if (emit) return this.unit(code);
    if (this.keyLength++ < MAX_KEY) this.key += String.fromCharCode(code);
    return '';
  }

  private fail(): string {
    this.mode = 'failed';
    return '';
  }

  /** One character outside the `input` string. */
  private structural(ch: string): void {
    switch (this.mode) {
      case 'start':
        if (ch === '{') this.mode = 'key-or-end';
        else if (!WHITESPACE.has(ch)) this.fail();
        return;
      case 'key-or-end':
        if (ch === '"') {
          this.mode = 'key';
          this.key = '';
          this.keyLength = 0;
        } else if (ch === '}') this.fail();
        else if (!WHITESPACE.has(ch) && ch !== ',') this.fail();
        return;
      case 'key':
        this.stringChar(ch, false);
        return;
      case 'colon':
        if (ch === ':') this.mode = 'value';
        else if (!WHITESPACE.has(ch)) this.fail();
        return;
      case 'value':
        if (WHITESPACE.has(ch)) return;
        if (ch === '"' && this.key === CUSTOM_INPUT_PARAM && this.keyLength === CUSTOM_INPUT_PARAM.length) {
          this.mode = 'input';
          return;
        }
        if (this.key === CUSTOM_INPUT_PARAM && this.keyLength === CUSTOM_INPUT_PARAM.length) {
          // `input` is not a string: only the fallback can make text of it.
          this.fail();
          return;
        }
        this.mode = 'skip';
        this.depth = 0;
        this.skipString = false;
        this.skipEscape = false;
        this.skipChar(ch);
        return;
      case 'skip':
        this.skipChar(ch);
        return;
      case 'comma':
        if (ch === ',') this.mode = 'key-or-end';
        else if (ch === '}') this.fail();
        else if (!WHITESPACE.has(ch)) this.fail();
        return;
      default:
        return;
    }
  }

  /** One character of a value that is not `input`: strings, nesting and scalars skipped. */
  private skipChar(ch: string): void {
    if (this.skipString) {
      if (this.skipEscape) this.skipEscape = false;
      else if (ch === '\\') this.skipEscape = true;
      else if (ch === '"') {
        this.skipString = false;
        if (this.depth === 0) this.mode = 'comma';
      }
      return;
    }
    if (ch === '"') this.skipString = true;
    else if (ch === '{' || ch === '[') this.depth++;
    else if (ch === '}' || ch === ']') {
      if (this.depth === 0) {
        // A scalar ended by the object's close: no `input` came.
        this.fail();
        return;
      }
      this.depth--;
      if (this.depth === 0) this.mode = 'comma';
    } else if (ch === ',' && this.depth === 0) this.mode = 'key-or-end';
  }
}
