/** UTF-8 text ↔ standard base64 (plain-text document sources travel as base64 in canonical). */

export function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!);
  return btoa(bin);
}

/** `undefined` when `b64` is not valid base64. Invalid UTF-8 sequences become U+FFFD. */
export function base64ToUtf8(b64: string): string | undefined {
  try {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder('utf-8').decode(bytes);
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
