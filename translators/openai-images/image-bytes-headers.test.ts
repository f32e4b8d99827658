/**
 * sniffImage on the headers real encoders write and on damaged files: a format is recognised
 * only by its full signature, dimensions come from the right segment, and a header cut short
 * yields no dimensions rather than wrong ones (the edit limits compare them).
 */
import { describe, expect, it } from 'vitest';
import { sniffImage } from './image-bytes.ts';
import { jpeg, png } from './test-images.ts';

const bytes = (...parts: Array<number | string | number[]>): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : Array.isArray(p) ? p : [p])));
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number) => u32be(n).reverse();
const chunk = (type: string, data: number[]) => [...u32be(data.length), ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** An opaque (RGB) PNG with the given chunks after IHDR. */
const rgbPng = (...after: number[][]) => bytes(PNG_SIG, chunk('IHDR', [...u32be(64), ...u32be(32), 8, 2, 0, 0, 0]), ...after);
const IDAT = chunk('IDAT', [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
const TRNS = chunk('tRNS', [0, 0]);
const IEND = chunk('IEND', []);

/** SOI, then the given segments, then a baseline SOF0 for 640x480. */
const SOF0 = [0xff, 0xc0, 0x00, 0x11, 8, 0x01, 0xe0, 0x02, 0x80, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
const jpegWith = (...segments: number[][]) => bytes([0xff, 0xd8], ...segments, SOF0, [0xff, 0xd9]);
const APP0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0];
const JPEG_640x480 = { mediaType: 'image/jpeg', width: 640, height: 480 };

/** A lossless (VP8L) WebP header: signature 0x2f, then 14 bits width-1 and 14 bits height-1. */
const vp8l = (w: number, h: number) => {
  const body = bytes('WEBP', 'VP8L', u32le(5), 0x2f, u32le((w - 1) | ((h - 1) << 14)));
  return bytes('RIFF', u32le(body.length), [...body]);
};
/** A lossy (VP8) WebP header: frame tag, start code, 14-bit width and height. */
const vp8 = (w: number, h: number) => {
  const body = bytes('WEBP', 'VP8 ', u32le(10), [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a], w & 0xff, w >> 8, h & 0xff, h >> 8);
  return bytes('RIFF', u32le(body.length), [...body]);
};
const vp8x = (w: number, h: number) =>
  bytes('RIFF', u32le(22), 'WEBP', 'VP8X', u32le(10), [0x10, 0, 0, 0], [(w - 1) & 0xff, (w - 1) >> 8, 0], [(h - 1) & 0xff, (h - 1) >> 8, 0]);

describe('signatures', () => {
  it('needs the whole PNG signature, and an 8-byte signature alone is a PNG without size', () => {
    expect(sniffImage(bytes(PNG_SIG))).toEqual({ mediaType: 'image/png' });
    expect(sniffImage(bytes(0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))).toBeUndefined();
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00, 0, 0, 0, 0))).toBeUndefined();
  });

  it('needs all three JPEG start bytes', () => {
    expect(sniffImage(bytes(0xff, 0xd8, 0xff))).toEqual({ mediaType: 'image/jpeg' });
    for (const near of [[0x00, 0xd8, 0xff], [0xff, 0x00, 0xff], [0xff, 0xd8, 0x00], [0xff, 0xd8]]) {
      expect(sniffImage(bytes(near)), near.join(' ')).toBeUndefined();
    }
  });

  it('needs both RIFF and WEBP for a WebP', () => {
    expect(sniffImage(bytes('RIFF', u32le(4), 'AVI LIST'))).toBeUndefined();
    expect(sniffImage(bytes('RIFX', u32le(4), 'WEBPVP8X'))).toBeUndefined();
    // A WebP with a chunk it does not know: the format, no size.
    expect(sniffImage(bytes('RIFF', u32le(12), 'WEBP', 'VP9 ', u32le(0)))).toEqual({ mediaType: 'image/webp' });
  });

  it('recognises a GIF signature even when the size is cut off', () => {
    expect(sniffImage(bytes('GIF8'))).toEqual({ mediaType: 'image/gif' });
    expect(sniffImage(bytes('GIF89a', 2, 0))).toEqual({ mediaType: 'image/gif', width: 2 });
  });
});

describe('PNG', () => {
  it('reads the size from a complete IHDR, and nothing from a short or missing one', () => {
    expect(sniffImage(png(10, 20).subarray(0, 26))).toEqual({ mediaType: 'image/png', width: 10, height: 20, hasAlpha: true });
    expect(sniffImage(png(10, 20).subarray(0, 25))).toEqual({ mediaType: 'image/png' });
    expect(sniffImage(bytes(PNG_SIG, chunk('tEXt', [...'Comment'].map((c) => c.charCodeAt(0)).concat(0, 0x41, 0x42))))).toEqual({
      mediaType: 'image/png',
    });
  });

  it('counts only a tRNS chunk before the image data as transparency', () => {
    expect(sniffImage(rgbPng(TRNS, IDAT, IEND))?.hasAlpha).toBe(true);
    expect(sniffImage(rgbPng(IDAT, TRNS, IEND))?.hasAlpha).toBe(false);
    expect(sniffImage(rgbPng(IEND, TRNS))?.hasAlpha).toBe(false);
    expect(sniffImage(rgbPng(IDAT, IEND))).toEqual({ mediaType: 'image/png', width: 64, height: 32, hasAlpha: false });
    // A tRNS chunk header right at the end of the bytes still counts.
    expect(sniffImage(rgbPng(chunk('tRNS', []).slice(0, 8)))?.hasAlpha).toBe(true);
  });
});

describe('JPEG', () => {
  it('finds the frame header after other segments, skipping fill bytes and standalone markers', () => {
    expect(sniffImage(jpegWith(APP0))).toEqual(JPEG_640x480);
    expect(sniffImage(jpegWith(APP0, [0xff, 0xff, 0xff]))).toEqual(JPEG_640x480);
    for (const marker of [0x01, 0xd0, 0xd7, 0xd8]) {
      expect(sniffImage(jpegWith(APP0, [0xff, marker])), marker.toString(16)).toEqual(JPEG_640x480);
    }
    // An empty segment (length 2) is valid.
    expect(sniffImage(jpegWith([0xff, 0xe1, 0x00, 0x02]))).toEqual(JPEG_640x480);
  });

  it('does not take Huffman, arithmetic-coding or reserved tables for the frame header', () => {
    for (const marker of [0xc4, 0xc8, 0xcc]) {
      const table = [0xff, marker, 0x00, 0x08, 0, 0x7f, 0x7f, 0x7f, 0x7f, 0];
      expect(sniffImage(jpegWith(APP0, table)), marker.toString(16)).toEqual(JPEG_640x480);
    }
  });

  it('reads every frame type, up to SOF15', () => {
    const sof15 = [0xff, 0xcf, 0x00, 0x0b, 8, 0x00, 0x20, 0x00, 0x40, 1, 1, 0x11, 0];
    expect(sniffImage(bytes([0xff, 0xd8], APP0, sof15))).toEqual({ mediaType: 'image/jpeg', width: 64, height: 32 });
  });

  it('gives no size once the scan or the end comes first, or the structure breaks', () => {
    expect(sniffImage(bytes([0xff, 0xd8], [0xff, 0xda, 0x00, 0x02], SOF0))).toEqual({ mediaType: 'image/jpeg' });
    expect(sniffImage(bytes([0xff, 0xd8], [0xff, 0xd9, 0x00, 0x02], SOF0))).toEqual({ mediaType: 'image/jpeg' });
    // Garbage where the next marker should be.
    expect(sniffImage(bytes([0xff, 0xd8], APP0, [0x00], SOF0.slice(1)))).toEqual({ mediaType: 'image/jpeg' });
  });

  it('takes no size from a frame header whose length is shorter than its own length field', () => {
    for (const length of [0, 1]) {
      const sof = [0xff, 0xc0, 0x00, length, 8, 0x01, 0xe0, 0x02, 0x80, 3];
      expect(sniffImage(bytes([0xff, 0xd8], APP0, sof)), String(length)).toEqual({ mediaType: 'image/jpeg' });
    }
  });

  it('skips segments below the frame-header range (0xff02–0xffbf) as the tables they are', () => {
    for (const marker of [0x02, 0x80, 0xbf]) {
      const segment = [0xff, marker, 0x00, 0x08, 0, 0x7f, 0x7f, 0x7f, 0x7f, 0];
      expect(sniffImage(jpegWith(APP0, segment)), marker.toString(16)).toEqual(JPEG_640x480);
    }
  });

  it('gives no size from a frame header cut short', () => {
    const full = jpeg(640, 480);
    const sofAt = full.indexOf(0xc0) - 1;
    expect(sniffImage(full.subarray(0, sofAt + 6))).toEqual({ mediaType: 'image/jpeg' });
    expect(sniffImage(full.subarray(0, sofAt + 7))).toEqual({ mediaType: 'image/jpeg', height: 480 });
    expect(sniffImage(full.subarray(0, sofAt + 9))).toEqual(JPEG_640x480);
  });
});

describe('WebP', () => {
  it('reads lossless and lossy sizes', () => {
    expect(sniffImage(vp8l(1000, 16000))).toEqual({ mediaType: 'image/webp', width: 1000, height: 16000 });
    expect(sniffImage(vp8(300, 200))).toEqual({ mediaType: 'image/webp', width: 300, height: 200 });
    expect(sniffImage(vp8x(1536, 1024))).toEqual({ mediaType: 'image/webp', width: 1536, height: 1024 });
  });

  it('gives no size from a header cut short', () => {
    expect(sniffImage(vp8l(1000, 16000).subarray(0, 24))).toEqual({ mediaType: 'image/webp' });
    expect(sniffImage(vp8(300, 200).subarray(0, 29))).toEqual({ mediaType: 'image/webp' });
    expect(sniffImage(vp8(300, 200).subarray(0, 27))).toEqual({ mediaType: 'image/webp' });
    expect(sniffImage(vp8x(1536, 1024).subarray(0, 29))).toEqual({ mediaType: 'image/webp' });
    expect(sniffImage(vp8x(1536, 1024).subarray(0, 26))).toEqual({ mediaType: 'image/webp' });
  });
});
