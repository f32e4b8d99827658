import { describe, expect, it } from 'vitest';
import { ByteParts } from './http.ts';
import { peekJson } from './json-peek.ts';
import { objectStart, withLeadingField, withModelParts } from './json-splice.ts';

const enc = new TextEncoder();
const text = (b: ByteParts | Uint8Array) => new TextDecoder().decode(b instanceof ByteParts ? b.join() : b);
const bytes = (s: string) => enc.encode(s);

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

describe('withModelParts', () => {
  it('replaces the top-level model token only, every other byte as it was', () => {
    const body = '{"messages":[{"model":"inner","content":"é \\"model\\": x"}],  "model" : "alias-1" ,"stream":true}';
    const b = bytes(body);
    const out = text(withModelParts(b, peekJson(b)!, 'claude-sonnet-4-5').join());
    expect(out).toBe(body.replace('"alias-1"', '"claude-sonnet-4-5"'));
    expect(JSON.parse(out)).toEqual({ ...JSON.parse(body), model: 'claude-sonnet-4-5' });
  });

  it('writes a model that needs escaping as JSON', () => {
    const b = bytes('{"model":"a"}');
    expect(text(withModelParts(b, peekJson(b)!, 'we"ird\\né').join())).toBe('{"model":"we\\"ird\\\\né"}');
  });

  it('as parts: views of the body around the new token, nothing of the body copied', () => {
    const body = '{"model":"alias-1","messages":[{"role":"user","content":"x"}]}';
    const b = bytes(body);
    const parts = withModelParts(b, peekJson(b)!, 'real-2');
    expect(parts.parts.map(text)).toEqual(['{"model":', '"real-2"', ',"messages":[{"role":"user","content":"x"}]}']);
    expect(parts.byteLength).toBe(body.length - 1);
    expect(text(parts.join())).toBe(body.replace('alias-1', 'real-2'));
    const [head, , tail] = parts.parts;
    expect(head!.buffer).toBe(b.buffer);
    expect(tail!.buffer).toBe(b.buffer);
    expect(tail!.byteOffset).toBe(b.byteOffset + body.indexOf(',"messages"'));
  });
});
