import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LATIN1_FROM_BYTES, parseLatin1Json } from './latin1-json.ts';

/** `json` padded past the size where the Latin-1 road is taken (blanks inside the outer array). */
const big = (json: string): Buffer => Buffer.from(`[${' '.repeat(LATIN1_FROM_BYTES)}${json}]`);
const viaUtf8 = (b: Buffer): unknown => JSON.parse(b.toString('utf8'));

describe('parseLatin1Json', () => {
  it('is JSON.parse of the UTF-8 text, for any strings and keys', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), { maxLength: 8 }), fc.string({ unit: 'binary' }), (pairs, s) => {
        const b = big(JSON.stringify([Object.fromEntries(pairs), s, { [s]: s }]));
        expect(parseLatin1Json(b)).toEqual(viaUtf8(b));
      }),
      { numRuns: 300 },
    );
  });

  it('decodes each UTF-8 run, in keys too, and keeps the key order', () => {
    const b = big('{"a":"é","ключ":"значение 😀","z":["ü\\n\\"q\\"", {"ß":1}],"__proto__":{"x":"ñ"}}');
    const v = parseLatin1Json(b) as unknown[];
    const expected = viaUtf8(b) as unknown[];
    expect(v).toEqual(expected);
    expect(Object.keys(v[0] as object)).toEqual(['a', 'ключ', 'z', '__proto__']);
    expect(Object.getPrototypeOf(v[0])).toBe(Object.prototype);
  });

  it('turns invalid UTF-8 into U+FFFD exactly as a whole decode does', () => {
    for (const bad of [[0xc3], [0xe2, 0x82], [0xff, 0xfe], [0x80, 0x41, 0xc3, 0xa9], [0xf0, 0x9f, 0x98]]) {
      const b = Buffer.concat([Buffer.from(`[${' '.repeat(LATIN1_FROM_BYTES)}"x`), Buffer.from(bad), Buffer.from('y","'), Buffer.from(bad), Buffer.from('"]')]);
      expect(parseLatin1Json(b)).toEqual(viaUtf8(b));
    }
  });

  it('keeps ASCII escapes and escapes past U+00FF on this road', () => {
    const b = big('"\\u001b[31mred\\u0000 \\u2028 é \\ud83d\\ude00"');
    expect(parseLatin1Json(b)).toEqual(viaUtf8(b));
  });

  it('leaves to the UTF-8 road: a \\u0080–\\u00FF escape, a byte-order mark, bad JSON, too deep, too small, no latin1Slice', () => {
    expect(parseLatin1Json(big('"\\u00e9"'))).toBeUndefined();
    expect(parseLatin1Json(big('"\\u00C0"'))).toBeUndefined();
    expect(parseLatin1Json(big('"\\u0085"'))).toBeUndefined();
    expect(parseLatin1Json(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), big('1')]))).toBeUndefined();
    expect(parseLatin1Json(big('{"a":'))).toBeUndefined();
    expect(parseLatin1Json(big('['.repeat(300) + ']'.repeat(300)))).toBeUndefined();
    expect(parseLatin1Json(Buffer.from('{"a":"é"}'))).toBeUndefined();
    expect(parseLatin1Json(new Uint8Array(big('"é"')))).toBeUndefined();
    // The ASCII ones stay on this road.
    expect(parseLatin1Json(big('"\\u007f \\u0041"'))).toEqual(['\u007f A']);
    // Every hex digit that makes a \u0080–\u00FF escape, at its boundaries, and none that does not.
    for (const d of ['8', '9', 'a', 'f', 'A', 'F']) expect(parseLatin1Json(big(`"\\u00${d}0"`)), d).toBeUndefined();
    for (const d of ['0', '7']) expect(parseLatin1Json(big(`"\\u00${d}0"`)), d).toEqual([String.fromCharCode(Number.parseInt(`${d}0`, 16))]);
  });

  it('starts at LATIN1_FROM_BYTES', () => {
    const sized = (n: number) => Buffer.from(`["é${' '.repeat(n - 6)}"]`);
    expect(sized(LATIN1_FROM_BYTES).byteLength).toBe(LATIN1_FROM_BYTES);
    expect(parseLatin1Json(sized(LATIN1_FROM_BYTES))).toEqual(viaUtf8(sized(LATIN1_FROM_BYTES)));
    expect(parseLatin1Json(sized(LATIN1_FROM_BYTES - 1))).toBeUndefined();
  });

  it('takes this road for a body with no such escape, whatever its letters', () => {
    // Hex letters everywhere, at every alignment: only a real escape sends a body the other way.
    const b = big(`"${'abcdefABCDEF89'.repeat(50)} é", {"${'f'.repeat(9)}": "ü"}`);
    const v = parseLatin1Json(b);
    expect(v).toBeDefined();
    expect(v).toEqual(viaUtf8(b));
  });
});
