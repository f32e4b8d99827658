import { describe, expect, it } from 'vitest';
import { sha256Hex, toHex } from './digest.ts';

describe('digest', () => {
  it('hex is two lower-case digits a byte, leading zeros kept', () => {
    expect(toHex(Uint8Array.from([0, 1, 15, 16, 171, 255]))).toBe('00010f10abff');
    expect(toHex(Uint8Array.from([10, 11]).buffer)).toBe('0a0b');
  });

  it('sha256Hex is SHA-256 (the FIPS 180-2 check value of "abc"), of text as UTF-8 or of bytes', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(await sha256Hex('abc'));
    expect(await sha256Hex('é')).not.toBe(await sha256Hex('e'));
  });
});
