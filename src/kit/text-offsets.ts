/**
 * Offsets into text as vendors count them: UTF-16 code units (JavaScript strings, OpenAI and
 * Anthropic spans) or UTF-8 bytes (Gemini's grounding segments, Interactions' citations). The one
 * place where a span measured one way is measured the other.
 */
const utf8 = new TextEncoder();

/** The UTF-8 length of `text` in bytes. */
export function utf8Length(text: string): number {
  return utf8.encode(text).length;
}

/** The UTF-8 byte offset of a UTF-16 offset into `text` (clamped to the text). */
export function utf8Offset(text: string, units: number): number {
  return utf8Length(text.slice(0, Math.max(0, Math.min(text.length, units))));
}

/** The UTF-16 offset into `text` of a UTF-8 byte offset (clamped; a byte inside a character counts from its end). */
export function utf16Offset(text: string, bytes: number): number {
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    if (b >= bytes) return i;
    const c = text.codePointAt(i)!;
    b += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (c >= 0x10000) i++;
  }
  return text.length;
}
