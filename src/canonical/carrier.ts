/**
 * Stateless carriers for vendor-issued opaque values (reasoning signatures, redacted thinking,
 * Gemini thought signatures) through a caller dialect that has no field for them.
 *
 * The proxy keeps no state, so whatever must come back on the next turn rides inside something
 * the caller echoes unchanged: a tool-call id, or a string field on the assistant message. Every
 * carried value is tagged with its origin vendor so it is only ever replayed to that vendor.
 *
 * Formats: a message field holds `il1` + origin letter + `.` + base64url(utf-8 value); a tool-call
 * id holds `<original id>__il1` + origin letter + base64url(value), so it stays `[A-Za-z0-9_-]`.
 */
import type { Signature, Vendor } from './parts.ts';

const letterOf: Record<Vendor, string> = { openai: 'o', anthropic: 'a', gemini: 'g' };
const vendorOf: Record<string, Vendor> = { o: 'openai', a: 'anthropic', g: 'gemini' };

const ID_MARK = '__il1';

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(b64: string): string | undefined {
  try {
    const std = b64.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(std + '='.repeat((4 - (std.length % 4)) % 4));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** `il1a.<b64url>`: a signature as a self-describing string (for a message field). */
export function encodeSignature(sig: Signature): string {
  return `il1${letterOf[sig.origin]}.${toBase64Url(sig.value)}`;
}

/** The inverse of `encodeSignature`; `undefined` for anything that is not a carrier. */
export function decodeSignature(text: string): Signature | undefined {
  if (!text.startsWith('il1') || text[4] !== '.') return undefined;
  const origin = vendorOf[text[3]!];
  const value = origin && fromBase64Url(text.slice(5));
  return origin && value !== undefined ? { origin, value } : undefined;
}

/** A tool-call id that also carries a signature; the plain id when there is none. */
export function encodeToolCallId(id: string, sig?: Signature): string {
  if (!sig) return id;
  return `${id}${ID_MARK}${letterOf[sig.origin]}${toBase64Url(sig.value)}`;
}

/** Split a (possibly carrier-bearing) tool-call id into the plain id and its signature. */
export function decodeToolCallId(wireId: string): { id: string; signature?: Signature } {
  const at = wireId.lastIndexOf(ID_MARK);
  if (at < 0) return { id: wireId };
  const rest = wireId.slice(at + ID_MARK.length);
  const origin = vendorOf[rest[0] ?? ''];
  const value = origin && fromBase64Url(rest.slice(1));
  if (!origin || value === undefined) return { id: wireId };
  return { id: wireId.slice(0, at), signature: { origin, value } };
}

/**
 * Whether a raw wire body may hold a carried value (a carrier tool-call id, or an `il1…`
 * string value). A cheap scan, so same-dialect passthrough can hand such bodies to translation,
 * which strips what the upstream did not issue, instead of forwarding them byte for byte.
 */
export function mayCarrySignatures(wireText: string): boolean {
  return wireText.includes(ID_MARK) || /"il1[oag]\./.test(wireText);
}

/** Keep a signature only when it goes back to the vendor that issued it. */
export function signatureFor(sig: Signature | undefined, target: Vendor): Signature | undefined {
  return sig && sig.origin === target ? sig : undefined;
}
