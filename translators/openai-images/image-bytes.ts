/**
 * What the limits need to know about an uploaded image, read from its bytes (never trusting the
 * declared content type): format by magic bytes, dimensions from the header, and for PNG whether
 * it can carry transparency (an alpha channel or a `tRNS` chunk).
 * PNG: https://www.w3.org/TR/png/#5PNG-file-signature · JPEG SOFn markers (ITU T.81 B.2.2) ·
 * WebP container: https://developers.google.com/speed/webp/docs/riff_container
 */

export interface ImageInfo {
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
  width?: number;
  height?: number;
  /** PNG only: colour type with alpha (4, 6) or a `tRNS` chunk before the image data. */
  hasAlpha?: boolean;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(bytes: Uint8Array): ImageInfo | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return pngInfo(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { mediaType: 'image/jpeg', ...jpegSize(bytes) };
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    return { mediaType: 'image/webp', ...webpSize(bytes) };
  }
  if (ascii(bytes, 0, 4) === 'GIF8') {
    return { mediaType: 'image/gif', width: u16le(bytes, 6), height: u16le(bytes, 8) };
  }
  return undefined;
}

function pngInfo(bytes: Uint8Array): ImageInfo {
  // Signature, then the IHDR chunk: length(4) "IHDR"(4) width(4) height(4) depth(1) colour(1).
  if (ascii(bytes, 12, 4) !== 'IHDR' || bytes.length < 26) return { mediaType: 'image/png' };
  const colourType = bytes[25];
  let hasAlpha = colourType === 4 || colourType === 6;
  for (let at = 8; !hasAlpha && at + 8 <= bytes.length; ) {
    const length = u32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    if (type === 'IDAT' || type === 'IEND' || length === undefined) break;
    if (type === 'tRNS') hasAlpha = true;
    at += 12 + length;
  }
  return { mediaType: 'image/png', width: u32be(bytes, 16), height: u32be(bytes, 20), hasAlpha };
}

function jpegSize(bytes: Uint8Array): { width?: number; height?: number } {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return {};
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Standalone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    const length = u16be(bytes, at + 2);
    if (length === undefined || length < 2) return {};
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    if (marker === 0xd9 || marker === 0xda) return {};
    at += 2 + length;
  }
  return {};
}

function webpSize(bytes: Uint8Array): { width?: number; height?: number } {
  switch (ascii(bytes, 12, 4)) {
    case 'VP8 ': {
      // Frame header: 3-byte tag, start code 9d 01 2a, then 14-bit width and height.
      const w = u16le(bytes, 26);
      const h = u16le(bytes, 28);
      return w === undefined || h === undefined ? {} : { width: w & 0x3fff, height: h & 0x3fff };
    }
    case 'VP8L': {
      // Signature 0x2f, then 14 bits width-1, 14 bits height-1 (little-endian bit order).
      const b = u32le(bytes, 21);
      return b === undefined ? {} : { width: (b & 0x3fff) + 1, height: ((b >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X': {
      const w = u24le(bytes, 24);
      const h = u24le(bytes, 27);
      return w === undefined || h === undefined ? {} : { width: w + 1, height: h + 1 };
    }
    default:
      return {};
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (at + length > bytes.length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function u16be(b: Uint8Array, at: number): number | undefined {
  return at + 2 <= b.length ? (b[at]! << 8) | b[at + 1]! : undefined;
}

function u16le(b: Uint8Array, at: number): number | undefined {
  return at + 2 <= b.length ? b[at]! | (b[at + 1]! << 8) : undefined;
}

function u24le(b: Uint8Array, at: number): number | undefined {
  return at + 3 <= b.length ? b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) : undefined;
}

function u32be(b: Uint8Array, at: number): number | undefined {
  return at + 4 <= b.length ? ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0 : undefined;
}

function u32le(b: Uint8Array, at: number): number | undefined {
  return at + 4 <= b.length ? (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0 : undefined;
}
