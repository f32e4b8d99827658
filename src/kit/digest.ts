/** Bytes as lower-case hex, and the SHA-256 of text or bytes as hex (WebCrypto: Node and Workers alike). */

export function toHex(bytes: Uint8Array | ArrayBuffer): string {
  let out = '';
  for (const b of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) out += b.toString(16).padStart(2, '0');
  return out;
}

export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return toHex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}
