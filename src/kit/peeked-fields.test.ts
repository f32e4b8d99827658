import { describe, expect, it } from 'vitest';
import { ByteParts } from './http.ts';
import { peekJson } from './json-peek.ts';
import { objectStart, withLeadingField, withModelParts } from './peeked-fields.ts';

const enc = new TextEncoder();
const text = (b: ByteParts) => new TextDecoder().decode(b.join());

describe('a field put first in a body’s bytes', () => {
  it('goes after the opening brace, past leading whitespace', () => {
    const raw = ' \n{"model":"m","user":"u"}';
    const b = enc.encode(raw);
    expect(objectStart(b)).toBe(2);
    expect(JSON.parse(text(withLeadingField(b, objectStart(b), 'prompt_cache_key', 'k"1')))).toEqual({ prompt_cache_key: 'k"1', model: 'm', user: 'u' });
  });

  it('composes with a renamed model, over a body in pieces', () => {
    const raw = '{"messages":[],"model":"alias","stream":true}';
    const all = enc.encode(raw);
    const pieces = new ByteParts([all.subarray(0, 1), all.subarray(1, 20), all.subarray(20)]);
    const renamed = withModelParts(pieces, peekJson(all)!, 'gpt-5.1');
    const out = withLeadingField(renamed, objectStart(all), 'prompt_cache_key', 'abc');
    expect(JSON.parse(text(out))).toEqual({ prompt_cache_key: 'abc', messages: [], model: 'gpt-5.1', stream: true });
  });
});
