import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteParts, SCRATCH_MAX_BYTES, flatBytes, jsCompare, splicedParts } from './http.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
/** `text` cut into pieces at `cuts` (views of one buffer, as a socket's chunks would be). */
function pieces(text: string, cuts: number[]): ByteParts {
  const all = enc.encode(text);
  const at = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, all.length]) {
    out.push(all.subarray(from, c));
    from = c;
  }
  return new ByteParts(out);
}

describe('splicedParts: a range replaced by a token, the body’s own pieces around it', () => {
  it('equals the bytes with the range replaced, however the body was cut, and copies none of it', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 6 }), fc.nat(), fc.nat(), fc.string(), (text, cuts, a, b, token) => {
        const body = pieces(text, cuts);
        const n = body.byteLength;
        const start = a % (n + 1);
        const end = start + (b % (n - start + 1));
        const flat = body.join();
        const out = splicedParts(body, start, end, enc.encode(token));
        const want = new Uint8Array([...flat.subarray(0, start), ...enc.encode(token), ...flat.subarray(end)]);
        expect(out.join()).toEqual(want);
        // Every piece but the token is a view of the caller's buffer.
        const buffer = body.parts[0]!.buffer;
        expect(out.parts.filter((p) => p.buffer !== buffer)).toHaveLength(1);
      }),
    );
  });

  it('takes a whole array as one piece', () => {
    const out = splicedParts(enc.encode('{"model":"a","x":1}'), 9, 12, enc.encode('"bb"'));
    expect(dec.decode(out.join())).toBe('{"model":"bb","x":1}');
  });
});

describe('flatBytes: one contiguous array, only for the call', () => {
  it('a whole array (or one piece) is given as it is', () => {
    const one = enc.encode('abc');
    expect(flatBytes(one, (f) => f)).toBe(one);
    expect(flatBytes(new ByteParts([one]), (f) => f)).toBe(one);
  });

  it('pieces are copied into one scratch buffer, reused by the next call and grown for a bigger body', () => {
    const a = flatBytes(pieces('hello world', [3, 7]), (f) => ({ text: dec.decode(f), buffer: f.buffer }));
    expect(a.text).toBe('hello world');
    const b = flatBytes(pieces('HELLO', [2]), (f) => ({ text: dec.decode(f), buffer: f.buffer }));
    expect(b.text).toBe('HELLO');
    expect(b.buffer).toBe(a.buffer);
    const big = 'x'.repeat(a.buffer.byteLength + 10);
    expect(flatBytes(pieces(big, [5]), (f) => dec.decode(f))).toBe(big);
  });

  it('a call inside another gets its own copy: the outer view is not overwritten', () => {
    const seen = flatBytes(pieces('outer body', [4]), (outer) => {
      const inner = flatBytes(pieces('INNER-BODY', [2]), (f) => dec.decode(f));
      return [dec.decode(outer), inner];
    });
    expect(seen).toEqual(['outer body', 'INNER-BODY']);
  });

  it('the scratch buffer is free again after a call that threw', () => {
    expect(() => flatBytes(pieces('boom', [1]), () => { throw new Error('x'); })).toThrow('x');
    const first = flatBytes(pieces('ab', [1]), (f) => f.buffer);
    expect(flatBytes(pieces('cd', [1]), (f) => f.buffer)).toBe(first);
  });
});

describe('flatBytes on Node', () => {
  it('copies pieces into a Buffer, which the scans search natively', () => {
    const kind = flatBytes(pieces('hello world', [3, 7]), (f) => Buffer.isBuffer(f));
    expect(kind).toBe(true);
  });
});

describe('flatBytes keeps at most SCRATCH_MAX_BYTES', () => {
  it('a body past it gets a buffer of its own; the scratch buffer stays as it was', () => {
    const small = flatBytes(pieces('ab', [1]), (f) => f.buffer);
    const big = new ByteParts([new Uint8Array(SCRATCH_MAX_BYTES), new Uint8Array(1)]);
    const seen = flatBytes(big, (f) => ({ buffer: f.buffer, length: f.byteLength }));
    expect(seen.length).toBe(SCRATCH_MAX_BYTES + 1);
    expect(seen.buffer).not.toBe(small);
    expect(flatBytes(pieces('cd', [1]), (f) => f.buffer)).toBe(small);
  });
});

describe('jsCompare (Workers: no Buffer)', () => {
  it('answers as Buffer#compare does, whatever the ranges and their alignment', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    const base = new Uint8Array(4096).map(() => rnd(4));
    for (let i = 0; i < 2000; i++) {
      const other = new Uint8Array(base);
      if (rnd(2)) other[rnd(other.length)] = rnd(256);
      const ss = rnd(300);
      const ts = rnd(2) ? ss : rnd(300);
      const len = rnd(3000);
      const a = base.subarray(rnd(3));
      const b = other.subarray(rnd(3));
      const want = Math.sign(Buffer.prototype.compare.call(a, b, ts, Math.min(b.length, ts + len), ss, Math.min(a.length, ss + len)));
      expect(Math.sign(jsCompare.call(a, b, ts, Math.min(b.length, ts + len), ss, Math.min(a.length, ss + len)))).toBe(want);
    }
  });
});
