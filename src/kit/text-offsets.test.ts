import { describe, expect, it } from 'vitest';
import { utf16Offset, utf8Length, utf8Offset } from './text-offsets.ts';

describe('text offsets: UTF-16 units ⇄ UTF-8 bytes', () => {
  const text = 'aé€𝄞b'; // 1, 2, 3 and 4 bytes; 𝄞 is two UTF-16 units

  it('measures bytes', () => {
    expect(utf8Length(text)).toBe(1 + 2 + 3 + 4 + 1);
    expect(utf8Length('')).toBe(0);
  });

  it('each character boundary both ways', () => {
    const units = [0, 1, 2, 3, 5, 6];
    const bytes = [0, 1, 3, 6, 10, 11];
    units.forEach((u, i) => {
      expect(utf8Offset(text, u)).toBe(bytes[i]);
      expect(utf16Offset(text, bytes[i]!)).toBe(u);
    });
  });

  it('clamps outside the text; a byte inside a character counts from its end', () => {
    expect(utf8Offset(text, 99)).toBe(11);
    expect(utf8Offset(text, -3)).toBe(0);
    expect(utf16Offset(text, 99)).toBe(text.length);
    expect(utf16Offset(text, 2)).toBe(2); // inside é
    expect(utf16Offset(text, 7)).toBe(5); // inside 𝄞
  });
});
