/**
 * Base64 ⇄ bytes ⇄ text, with nothing but `btoa`/`atob` (every runtime has them; Node's Buffer is
 * not in Workers, and `Uint8Array.fromBase64` not in Node 20). The one home of these helpers.
 */

/** Bytes as a binary string, in slices small enough for `fromCharCode`'s argument limit. */
function toBinary(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return bin;
}

function fromBinary(bin: string): Uint8Array {
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  return btoa(toBinary(bytes));
}

/** Standard base64 (whitespace ignored) → bytes; `undefined` when it is not base64. */
export function base64ToBytes(b64: string): Uint8Array | undefined {
  try {
    return fromBinary(atob(b64.replace(/\s+/g, '')));
  } catch {
    return undefined;
  }
}

/** Base64url (no padding) ⇄ bytes. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64UrlToBytes(b64url: string): Uint8Array | undefined {
  const std = b64url.replace(/-/g, '+').replace(/_/g, '/');
  return base64ToBytes(std + '='.repeat((4 - (std.length % 4)) % 4));
}

/**
 * Base64 in either alphabet, padded or not → bytes; `undefined` for anything else. What a client
 * that decodes a bytes field and encodes it again sends back: Google's Python SDK echoes a
 * `thoughtSignature` URL-safe (`-`, `_`), whatever alphabet it was given.
 */
export function anyBase64ToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
  return base64UrlToBytes(text.replace(/=+$/, ''));
}

export function utf8ToBase64(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text));
}

/**
 * Base64 → UTF-8 text; `undefined` when it is not base64, or (with `fatal`) not valid UTF-8.
 * Without `fatal`, invalid sequences become U+FFFD.
 */
export function base64ToUtf8(b64: string, fatal = false): string | undefined {
  const bytes = base64ToBytes(b64);
  if (!bytes) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Split a `data:` URI into media type and base64 payload (`undefined` if not base64 data). */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s.exec(url);
  if (!m) return undefined;
  return { mediaType: m[1] || 'application/octet-stream', data: m[3]! };
}
