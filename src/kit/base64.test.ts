import { describe, expect, it } from 'vitest';
import { base64ToBytes, base64ToUtf8, base64UrlToBytes, bytesToBase64, bytesToBase64Url, parseDataUrl, utf8ToBase64 } from './base64.ts';

describe('base64', () => {
  it('round-trips bytes, large ones included, standard and url-safe', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);
    expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
    expect(bytesToBase64(new Uint8Array([251, 255]))).toBe('+/8=');
    expect(bytesToBase64Url(new Uint8Array([251, 255]))).toBe('-_8');
    expect(base64UrlToBytes('-_8')).toEqual(new Uint8Array([251, 255]));
  });

  it('ignores whitespace, refuses what is not base64', () => {
    expect(base64ToBytes('AA\nEC')).toEqual(new Uint8Array([0, 1, 2]));
    expect(base64ToBytes('...')).toBeUndefined();
  });

  it('text through UTF-8, strict on request', () => {
    expect(base64ToUtf8(utf8ToBase64('città ✓'))).toBe('città ✓');
    expect(base64ToUtf8(bytesToBase64(new Uint8Array([0xff])))).toBe('\uFFFD');
    expect(base64ToUtf8(bytesToBase64(new Uint8Array([0xff])), true)).toBeUndefined();
  });

  it('data URLs', () => {
    expect(parseDataUrl('data:image/png;base64,iVBOR')).toEqual({ mediaType: 'image/png', data: 'iVBOR' });
    expect(parseDataUrl('data:;base64,AAAA')).toEqual({ mediaType: 'application/octet-stream', data: 'AAAA' });
    expect(parseDataUrl('data:text/plain,hello')).toBeUndefined();
    expect(parseDataUrl('https://x/y.png')).toBeUndefined();
  });
});
