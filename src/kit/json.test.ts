import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonOrUndefined } from './json.ts';

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

describe('parseJsonOrUndefined', () => {
  it('parses what JSON.parse parses, blanks around included', () => {
    for (const t of ['{"a":[1,"x"]}', ' \n\t[1]\r', '"text"', '-1.5e3', '0', 'true', 'false', 'null', '  null  ']) {
      expect(parseJsonOrUndefined(t), t).toEqual(JSON.parse(t));
    }
  });

  it('is undefined where JSON.parse throws, whether or not the first character could start JSON', () => {
    for (const t of ['', '   ', 'import x from "y"', 'the result', 'nothing', 'trueish', '{"a":', '[1,]', '\uFEFF{}', "'a'", 'NaN', '1 file changed']) {
      expect(parseJsonOrUndefined(t), t).toBeUndefined();
    }
  });

  it('agrees with JSON.parse on any text (property)', () => {
    const texts = fc.oneof(fc.string(), fc.json(), fc.json().map((j) => ` ${j.slice(0, -1)}`), fc.constantFrom('t', 'f', 'n', 'tru', 'nul', 'fals'));
    fc.assert(fc.property(texts, (t) => {
        expect(parseJsonOrUndefined(t)).toEqual(parsed(t));
      }), { numRuns: 1000 });
  });
});
