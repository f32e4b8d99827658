import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../../test/support/fixtures.ts';
import { sniffImage } from './image-bytes.ts';
import { jpeg, png, webp } from './test-images.ts';
import { imageExtension } from '../../src/kit/index.ts';

const fromBase64 = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64'));

describe('sniffImage', () => {
  it('reads PNG dimensions and alpha from the IHDR chunk', () => {
    expect(sniffImage(png(300, 200))).toEqual({ mediaType: 'image/png', width: 300, height: 200, hasAlpha: true });
    expect(sniffImage(png(64, 64, { colourType: 2 }))).toMatchObject({ width: 64, height: 64, hasAlpha: false });
    expect(sniffImage(png(64, 64, { colourType: 4 }))?.hasAlpha).toBe(true);
    expect(sniffImage(png(64, 64, { colourType: 2, trns: true }))?.hasAlpha).toBe(true);
    expect(sniffImage(png(70000, 1))).toMatchObject({ width: 70000, height: 1 });
  });

  it('reads a real 8x8 JPEG (the gemini image-input fixture)', () => {
    const req = fixtureJson('gemini', 'image-input.request.json');
    const data = JSON.stringify(req).match(/"data":"([^"]+)"/)![1]!;
    expect(sniffImage(fromBase64(data))).toEqual({ mediaType: 'image/jpeg', width: 8, height: 8 });
    expect(sniffImage(jpeg(640, 480))).toEqual({ mediaType: 'image/jpeg', width: 640, height: 480 });
  });

  it('reads the three WebP variants (lossy VP8, lossless VP8L, extended VP8X)', () => {
    expect(sniffImage(fromBase64('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA'))).toEqual({
      mediaType: 'image/webp', width: 1, height: 1,
    });
    expect(sniffImage(fromBase64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='))).toEqual({
      mediaType: 'image/webp', width: 1, height: 1,
    });
    expect(
      sniffImage(fromBase64('UklGRkoAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAwAAAARBxAR/Q9ERP8DAABWUDggGAAAABQBAJ0BKgEAAQAAAP4AAA3AAP7mtQAAAA==')),
    ).toEqual({ mediaType: 'image/webp', width: 1, height: 1 });
    expect(sniffImage(webp(1536, 1024))).toEqual({ mediaType: 'image/webp', width: 1536, height: 1024 });
  });

  it('recognises GIF and rejects everything else without throwing', () => {
    expect(sniffImage(new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 2, 0, 3, 0]))).toEqual({
      mediaType: 'image/gif', width: 2, height: 3,
    });
    expect(sniffImage(new Uint8Array([]))).toBeUndefined();
    expect(sniffImage(new TextEncoder().encode('hello world'))).toBeUndefined();
    // Truncated headers: the format is known, the size is not.
    expect(sniffImage(png(10, 10).subarray(0, 12))).toEqual({ mediaType: 'image/png' });
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toEqual({ mediaType: 'image/jpeg' });
  });

  it('names file extensions', () => {
    expect(['image/png', 'image/jpeg', 'image/webp', 'x/y'].map(imageExtension)).toEqual(['png', 'jpg', 'webp', 'png']);
  });
});
