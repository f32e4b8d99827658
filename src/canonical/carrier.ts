/**
 * Stateless carriers for vendor-issued opaque values (reasoning signatures, redacted thinking,
 * Gemini thought signatures) through a caller dialect that has no field for them.
 *
 * The proxy keeps no state, so whatever must come back on the next turn rides inside something
 * the caller echoes unchanged: a tool-call id, or a string field on the assistant message. Every
 * carried value is tagged with its origin vendor so it is only ever replayed to that vendor.
 *
 * Message-field carrier (`encodeSignature`): STANDARD base64 (RFC 4648 §4, padded) of
 *   0xFF 'i' 'l' '1' <origin letter o|a|g> <utf-8 bytes of the value>
 * so it is valid wherever the field is typed as bytes (Gemini `Part.thoughtSignature` is
 * `format: byte`; Python's pydantic and Go's `[]byte` reject anything but base64). It always starts
 * with `/2lsMW`. Such clients decode the field to bytes and send their own encoding back
 * (google-genai for Python: URL-safe, `_2lsMW…`), so a carrier is read in either alphabet, padded
 * or not.
 *
 * Why a genuine vendor value is never read as a carrier: a carrier's first byte is 0xFF, and
 * its next four are `il1` and a known origin letter (40 fixed bits), the rest valid UTF-8. Vendor
 * signatures are base64 of serialized protocol buffers (Gemini thought signatures start 0x12 or
 * 0x0A, Anthropic thinking signatures 0x12 or 0x08, Vertex's observed ones 0x01): no protobuf
 * message can start with 0xFF, whose low three bits name wire type 7, which does not exist; nor
 * can UTF-8 text, in which 0xFF never occurs. So a vendor value of either kind can never match,
 * and opaque bytes of some future format would match only by a 1-in-2^40 chance. Anything that
 * does not match is the vendor's own (raw) value.
 *
 * Read as well, never written: the first format, `il1` + origin letter + `.` + base64url(value),
 * which callers may still echo from earlier turns.
 *
 * Reasoning carrier (`encodeReasoning`), for a field that holds one opaque string per reasoning
 * block (Responses `encrypted_content`): the same header with version `2` (`/2lsMm…`), then the
 * block whole as UTF-8 JSON `{"t": text, "s": signature}` or `{"t": text, "r": redacted data}`.
 * Anthropic signs its thinking text, and a redacted block is another block type, so a signature
 * alone could not rebuild either when the caller holds no summary of the text.
 *
 * Compaction carrier (`encodeCompaction`), for a compaction the proxy made (Responses
 * `compaction.encrypted_content`): the same header with version `3` (`/2lsM2…`), the origin letter
 * of the vendor whose model wrote the summary, then the summary as UTF-8. Unlike a signature it
 * is not opaque: any upstream is sent the summary itself in its place, never the carrier, and an
 * OpenAI upstream never sees it as if it were one of its own compaction items.
 *
 * Tool-call id carrier (`encodeToolCallId`): `<original id>__il1` + origin letter +
 * base64url(value), so the id stays `[A-Za-z0-9_-]` (ids are strings in every dialect).
 */
import { anyBase64ToBytes, base64UrlToBytes, bytesToBase64, bytesToBase64Url } from '../kit/base64.ts';
import { asciiFinder } from '../kit/http.ts';
import type { ChatRequest, Converted, Warning } from './chat.ts';
import type { ProxyError } from './errors.ts';
import type { Vendor } from './dialects.ts';
import type { Part, Signature } from './parts.ts';

const letterOf: Record<Vendor, string> = { openai: 'o', anthropic: 'a', gemini: 'g' };
const vendorOf: Record<string, Vendor> = { o: 'openai', a: 'anthropic', g: 'gemini' };

const ID_MARK = '__il1';
/** 0xFF `i` `l` `1`: the header of a message-field carrier, before the origin letter. */
const HEADER = [0xff, 0x69, 0x6c, 0x31] as const;
/** Every carrier's base64 starts so: 0xFF `i` `l` → `/2ls`, then `1` + letter → `MW…`. */
const B64_PREFIX = '/2lsMW';
/** The reasoning carrier's header: version `2` instead of `1`. */
const HEADER_2 = [0xff, 0x69, 0x6c, 0x32] as const;
/** 0xFF `i` `l` → `/2ls`, then `2` + letter → `Mm…`. */
const B64_PREFIX_2 = '/2lsMm';
/** The compaction carrier's header: version `3`. */
const HEADER_3 = [0xff, 0x69, 0x6c, 0x33] as const;
/** 0xFF `i` `l` → `/2ls`, then `3` + letter → `M2…`. */
const B64_PREFIX_3 = '/2lsM2';

function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function utf8Text(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Whether `text` opens with a carrier's base64 prefix (`/2ls…`) in either alphabet: a client that
 * decodes the field to bytes and encodes it again may send it back URL-safe (`_2ls…`, as
 * google-genai for Python does), with or without padding; the bytes are the same.
 */
function opensWith(text: string, prefix: string): boolean {
  return text.startsWith(prefix) || (text[0] === '_' && text.startsWith(prefix.slice(1), 1));
}

/** A signature as standard base64 bytes, self-describing (see the header comment). */
export function encodeSignature(sig: Signature): string {
  const value = utf8Bytes(sig.value);
  const bytes = new Uint8Array(HEADER.length + 1 + value.length);
  bytes.set(HEADER, 0);
  bytes[HEADER.length] = letterOf[sig.origin].charCodeAt(0);
  bytes.set(value, HEADER.length + 1);
  return bytesToBase64(bytes);
}

function decodeCarrierBytes(text: string): Signature | undefined {
  if (!opensWith(text, B64_PREFIX)) return undefined;
  const bytes = anyBase64ToBytes(text);
  if (!bytes) return undefined;
  if (bytes.length <= HEADER.length || HEADER.some((b, i) => bytes[i] !== b)) return undefined;
  const origin = vendorOf[String.fromCharCode(bytes[HEADER.length]!)];
  const value = origin && utf8Text(bytes.subarray(HEADER.length + 1));
  return origin && value !== undefined ? { origin, value } : undefined;
}

function decodeFirstFormat(text: string): Signature | undefined {
  if (!text.startsWith('il1') || text[4] !== '.') return undefined;
  const origin = vendorOf[text[3]!];
  const value = origin && utf8Text(base64UrlToBytes(text.slice(5)));
  return origin && value !== undefined ? { origin, value } : undefined;
}

/** A reasoning block as the reasoning carrier holds it. */
export interface CarriedReasoning {
  text: string;
  signature?: Signature;
  /** Anthropic `redacted_thinking.data`. */
  redacted?: Signature;
}

/** A reasoning block whole (its text and its signature or redacted data), origin-tagged. */
export function encodeReasoning(r: CarriedReasoning & ({ signature: Signature } | { redacted: Signature })): string {
  const sig = r.redacted ?? r.signature!;
  const json = utf8Bytes(JSON.stringify(r.redacted ? { t: r.text, r: r.redacted.value } : { t: r.text, s: sig.value }));
  const bytes = new Uint8Array(HEADER_2.length + 1 + json.length);
  bytes.set(HEADER_2, 0);
  bytes[HEADER_2.length] = letterOf[sig.origin].charCodeAt(0);
  bytes.set(json, HEADER_2.length + 1);
  return bytesToBase64(bytes);
}

/**
 * The inverse of `encodeReasoning`; a signature-only carrier (`encodeSignature`, either format)
 * reads as a block with an empty text. `undefined` for anything else (a vendor's own value).
 */
export function decodeReasoning(text: string): CarriedReasoning | undefined {
  if (!opensWith(text, B64_PREFIX_2)) {
    const signature = decodeSignature(text);
    return signature ? { text: '', signature } : undefined;
  }
  const bytes = anyBase64ToBytes(text);
  if (!bytes || bytes.length <= HEADER_2.length || HEADER_2.some((b, i) => bytes[i] !== b)) return undefined;
  const origin = vendorOf[String.fromCharCode(bytes[HEADER_2.length]!)];
  const json = utf8Text(bytes.subarray(HEADER_2.length + 1));
  if (!origin || json === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  const { t, s: sig, r } = v as { t?: unknown; s?: unknown; r?: unknown };
  if (typeof t !== 'string') return undefined;
  if (typeof r === 'string') return { text: t, redacted: { origin, value: r } };
  if (typeof sig === 'string') return { text: t, signature: { origin, value: sig } };
  return undefined;
}

/** A summary the proxy made of a conversation, as a compaction item's `encrypted_content`. */
export interface CarriedCompaction {
  summary: string;
  /** The vendor whose model wrote it. */
  origin: Vendor;
}

/** A compaction summary, origin-tagged (see the header comment). */
export function encodeCompaction(c: CarriedCompaction): string {
  const text = utf8Bytes(c.summary);
  const bytes = new Uint8Array(HEADER_3.length + 1 + text.length);
  bytes.set(HEADER_3, 0);
  bytes[HEADER_3.length] = letterOf[c.origin].charCodeAt(0);
  bytes.set(text, HEADER_3.length + 1);
  return bytesToBase64(bytes);
}

/** The inverse of `encodeCompaction`; `undefined` for anything else (a vendor's own compaction). */
export function decodeCompaction(text: string): CarriedCompaction | undefined {
  if (!opensWith(text, B64_PREFIX_3)) return undefined;
  const bytes = anyBase64ToBytes(text);
  if (!bytes || bytes.length <= HEADER_3.length || HEADER_3.some((b, i) => bytes[i] !== b)) return undefined;
  const origin = vendorOf[String.fromCharCode(bytes[HEADER_3.length]!)];
  const summary = origin && utf8Text(bytes.subarray(HEADER_3.length + 1));
  return origin && summary !== undefined ? { summary, origin } : undefined;
}

/** The inverse of `encodeSignature` (also reads the first `il1a.<b64url>` format); `undefined` for anything else. */
export function decodeSignature(text: string): Signature | undefined {
  return decodeCarrierBytes(text) ?? decodeFirstFormat(text);
}

/** A tool-call id that also carries a signature; the plain id when there is none. */
export function encodeToolCallId(id: string, sig?: Signature): string {
  if (!sig) return id;
  return `${id}${ID_MARK}${letterOf[sig.origin]}${bytesToBase64Url(utf8Bytes(sig.value))}`;
}

/** Split a (possibly carrier-bearing) tool-call id into the plain id and its signature. */
export function decodeToolCallId(wireId: string): { id: string; signature?: Signature } {
  const at = wireId.lastIndexOf(ID_MARK);
  if (at < 0) return { id: wireId };
  const rest = wireId.slice(at + ID_MARK.length);
  const origin = vendorOf[rest[0] ?? ''];
  const value = origin && utf8Text(base64UrlToBytes(rest.slice(1)));
  if (!origin || value === undefined) return { id: wireId };
  return { id: wireId.slice(0, at), signature: { origin, value } };
}

/**
 * Whether a raw wire body may hold a carried value: a carrier tool-call id, a string value
 * starting with a carrier's base64 prefix (signature, reasoning or compaction) (`/` possibly JSON-escaped as `\/` or `\u002f`), or a
 * first-format `il1…` string. A cheap scan, so same-dialect passthrough can hand such bodies to
 * translation, which strips what the upstream did not issue, instead of forwarding them byte for
 * byte. False positives only cost the passthrough.
 */
export function mayCarrySignatures(wireText: string): boolean {
  return (
    wireText.includes(ID_MARK) ||
    /"(?:\/|\\\/|\\u002[fF]|_)2lsM[Wm2]/.test(wireText) ||
    /"il1[oag]\./.test(wireText)
  );
}

/** `mayCarrySignatures` on the body's bytes (UTF-8), for bodies forwarded without decoding. */
export function mayCarrySignatureBytes(b: Uint8Array): boolean {
  const at = (k: number, text: string) => {
    for (let j = 0; j < text.length; j++) if (b[k + j] !== text.charCodeAt(j)) return false;
    return true;
  };
  const find = asciiFinder(b);
  // `__il1` anywhere, or a string that starts with `il1` + o|a|g + `.`.
  if (find('__il1', 0) >= 0) return true;
  for (let k = find('"il1', 0); k >= 0; k = find('"il1', k + 1)) {
    if ((b[k + 4] === 0x6f || b[k + 4] === 0x61 || b[k + 4] === 0x67) && b[k + 5] === 0x2e) return true;
  }
  // A string that starts with `/2lsM` + W|m|2, its slash maybe escaped (`\/`, `\u002f`), or URL-safe (`_`).
  for (let k = find('2lsM', 0); k >= 0; k = find('2lsM', k + 1)) {
    if (b[k + 4] !== 0x57 && b[k + 4] !== 0x6d && b[k + 4] !== 0x32) continue;
    if (at(k - 2, '"/') || at(k - 2, '"_') || at(k - 3, '"\\/') || at(k - 7, '"\\u002f') || at(k - 7, '"\\u002F')) return true;
  }
  return false;
}

/** Keep a signature only when it goes back to the vendor that issued it. */
export function signatureFor(sig: Signature | undefined, target: Vendor): Signature | undefined {
  return sig && sig.origin === target ? sig : undefined;
}

/**
 * Whether an upstream's 400 is its refusal of a replayed reasoning signature (a conversation
 * moved between models of one vendor: Anthropic "Invalid `signature` in `thinking` block", Gemini
 * "Thought signature is not valid" / "Corrupted thought signature", OpenAI "encrypted content …
 * could not be verified").
 */
export function isSignatureRefusal(err: ProxyError): boolean {
  if (err.kind !== 'invalid-request') return false;
  return /signature|encrypted[ _]content/i.test(`${err.message} ${err.code ?? ''} ${err.param ?? ''}`);
}

/**
 * The request without what carries a reasoning signature: reasoning parts that have one (or are
 * redacted) dropped, signatures on text and tool-call parts removed. One warning per message.
 */
export function withoutSignatures(req: ChatRequest): Converted<ChatRequest> {
  const warnings: Warning[] = [];
  const messages = req.messages.map((m, i) => {
    let changed = false;
    const content: Part[] = [];
    for (const p of m.content) {
      if (p.type === 'reasoning' && (p.signature || p.redacted)) {
        changed = true;
        continue;
      }
      if ((p.type === 'text' || p.type === 'tool-call') && p.signature) {
        const { signature: _dropped, ...rest } = p;
        content.push(rest);
        changed = true;
        continue;
      }
      content.push(p);
    }
    if (changed) warnings.push({ code: 'dropped', path: `messages[${i}].reasoning`, detail: 'signature-refused', lossy: true });
    return changed ? { ...m, content } : m;
  });
  return { value: warnings.length > 0 ? { ...req, messages } : req, warnings };
}
