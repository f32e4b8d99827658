/**
 * Thought signatures on the Gemini wire.
 *
 * A Gemini `thoughtSignature` is an opaque base64 value on the part (sibling of `text` /
 * `functionCall`). Through a Gemini *caller* we must also carry other vendors' signatures
 * (Anthropic thinking signatures, redacted thinking) so they come back on the next turn: those
 * are written with the canonical carrier `encodeSignature`: standard base64 like the field's own
 * values (`format: byte`), with the origin tag inside the bytes. The rule that keeps a raw Gemini
 * value from ever being read as a carrier is in src/canonical/carrier.ts (a carrier's bytes start
 * 0xFF `il1`, which no protobuf-encoded signature can). Carriers of the first format (`il1a.…`,
 * not base64) that callers echo from earlier turns are still read.
 *
 * Redacted thinking (`ReasoningPart.redacted`) has no Gemini field, so it rides in the same
 * carrier with its value prefixed by `redacted:` (Anthropic signatures are base64, never that).
 */
import { decodeSignature, encodeSignature, type Signature } from '../../src/canonical/index.ts';

const REDACTED = 'redacted:';

/** Signature → the `thoughtSignature` string a Gemini caller will echo back. */
export function signatureToWire(sig: Signature): string {
  return sig.origin === 'gemini' ? sig.value : encodeSignature(sig);
}

export function redactedToWire(sig: Signature): string {
  return encodeSignature({ origin: sig.origin, value: REDACTED + sig.value });
}

/** A caller's `thoughtSignature` → signature, or a redacted block carried by us. */
export function signatureFromWire(value: string): { signature?: Signature; redacted?: Signature } {
  const carried = decodeSignature(value);
  if (!carried) return { signature: { origin: 'gemini', value } };
  if (carried.origin !== 'gemini' && carried.value.startsWith(REDACTED)) {
    return { redacted: { origin: carried.origin, value: carried.value.slice(REDACTED.length) } };
  }
  return { signature: carried };
}

/**
 * Gemini 3 rejects a function-call step whose first `functionCall` part has no signature.
 * For calls that came from another vendor the API documents this bypass value
 * (https://ai.google.dev/gemini-api/docs/thought-signatures, FAQ).
 */
export const SKIP_SIGNATURE_VALIDATOR = 'skip_thought_signature_validator';

export function requiresCallSignatures(model: string): boolean {
  return /gemini-(?:[3-9]|\d{2,})/.test(model);
}
