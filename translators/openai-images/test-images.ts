/**
 * Tiny image byte arrays for tests: only the headers the limits read (no pixel data is decoded).
 * Not imported by the translator itself.
 */

/** A PNG: signature, IHDR (width, height, colour type), optional tRNS, IDAT, IEND, padded to `size` bytes. */
export function png(width: number, height: number, opts: { colourType?: number; trns?: boolean; size?: number } = {}): Uint8Array {
  const chunks: number[][] = [
    chunk('IHDR', [...u32(width), ...u32(height), 8, opts.colourType ?? 6, 0, 0, 0]),
    ...(opts.trns ? [chunk('tRNS', [0, 0])] : []),
    chunk('IDAT', [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
    chunk('IEND', []),
  ];
  return pad([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunks.flat()], opts.size);
}

/** A baseline JPEG header: SOI, APP0 (JFIF), SOF0 with the dimensions. */
export function jpeg(width: number, height: number, size?: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return pad([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9], size);
}

/** An extended (VP8X) WebP header with the dimensions. */
export function webp(width: number, height: number, size?: number): Uint8Array {
  const body = [...ascii('WEBP'), ...ascii('VP8X'), 10, 0, 0, 0, 0x10, 0, 0, 0, ...u24(width - 1), ...u24(height - 1)];
  return pad([...ascii('RIFF'), ...u32le(body.length), ...body], size);
}

/** Bytes as a `File`, the way an SDK uploads them. */
export function file(bytes: Uint8Array, name: string, type = 'image/png'): File {
  return new File([bytes as Uint8Array<ArrayBuffer>], name, { type });
}

function chunk(type: string, data: number[]): number[] {
  return [...u32(data.length), ...ascii(type), ...data, 0, 0, 0, 0];
}

function pad(bytes: number[], size?: number): Uint8Array {
  const out = new Uint8Array(Math.max(bytes.length, size ?? 0));
  out.set(bytes);
  return out;
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

function u32(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function u32le(n: number): number[] {
  return u32(n).reverse();
}

function u24(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
}
