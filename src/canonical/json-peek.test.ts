import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayCarrySignatureBytes, mayCarrySignatures } from './carrier.ts';
import { checkedExcept, modelAndStream, parsedExcept, peekJson, withModelParts } from './json-peek.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const peek = (s: string) => peekJson(bytes(s));

describe('peekJson', () => {
  it('finds the top-level model and stream, wherever they are, and where the model token lies', () => {
    const body = '{"messages":[{"role":"user","content":"hi"}],"model":"gpt-4o","stream":true}';
    const p = peek(body)!;
    expect(p.model!.value).toBe('gpt-4o');
    expect(body.slice(p.model!.start, p.model!.end)).toBe('"gpt-4o"');
    expect(p.stream).toBe(true);
    const spaced = '{ "stream" : false ,\n\t"model" :"m" }';
    expect(peek(spaced)).toMatchObject({ model: { value: 'm', start: spaced.indexOf('"m"'), end: spaced.indexOf('"m"') + 3 }, stream: false });
    expect(peek('{"model":"m","stream":null}')!.stream).toBeNull();
    expect(peek('{"model":"m","stream":"yes"}')!.stream).toBe('other');
    expect(peek('{"model":"m","stream":{"a":1}}')!.stream).toBe('other');
    expect(peek('{"model":"m"}')!.stream).toBeUndefined();
    expect(peek('{}')).toEqual({ fields: [] });
  });

  it('is not confused by a model key inside nested content or inside a string', () => {
    const nested = '{"messages":[{"model":"inner","content":[{"model":"deeper"}]}],"meta":{"model":"x","stream":true},"model":"outer"}';
    expect(peek(nested)).toMatchObject({ model: { value: 'outer', start: nested.lastIndexOf('"outer"'), end: nested.lastIndexOf('"outer"') + 7 } });
    expect(peek(nested)!.stream).toBeUndefined();
    const inString = JSON.stringify({ messages: [{ role: 'user', content: '{"model":"fake","stream":true}' }], model: 'real' });
    expect(peek(inString)!.model!.value).toBe('real');
    expect(peek(inString)!.stream).toBeUndefined();
    // Only nested: no top-level model.
    expect(peek('{"a":{"model":"x"}}')!.model).toBeUndefined();
  });

  it('skips strings with escaped quotes and backslashes, short and long', () => {
    for (const content of ['a\\"b', 'ends with a backslash\\', '\\\\\\"', '"quoted"', 'x'.repeat(100) + '\\"' + 'y'.repeat(100) + '\\', 'é → ü 😀 "q"']) {
      const body = JSON.stringify({ system: content, messages: [{ content }], model: 'm', stream: true });
      expect(peek(body)).toMatchObject({ model: { value: 'm' }, stream: true });
    }
  });

  it('decodes a model written with escapes; refuses a key written with escapes', () => {
    expect(peek('{"model":"caf\\u00e9\\/x"}')!.model!.value).toBe('café/x');
    expect(peek('{"model":"naïve"}')!.model!.value).toBe('naïve');
    expect(peek('{"mod\\u0065l":"m"}')).toBeUndefined();
    expect(peek('{"model":"bad \\x escape"}')).toBeUndefined();
  });

  it('refuses what it cannot be sure of: model twice, a model that is not a string', () => {
    expect(peek('{"model":"a","model":"b"}')).toBeUndefined();
    expect(peek('{"model":1}')).toBeUndefined();
    expect(peek('{"model":null}')).toBeUndefined();
    expect(modelAndStream(peek('{"model":{"id":"m"}}')!)).toBeUndefined();
    expect(modelAndStream(peek('{"model":""}')!)).toBeUndefined();
    expect(modelAndStream(peek('{"model":"m","stream":"true"}')!)).toBeUndefined();
    // A repeated stream: the last one counts, as for JSON.parse.
    expect(modelAndStream(peek('{"stream":true,"model":"m","stream":false}')!)).toEqual({ model: 'm', stream: false });
  });

  it('refuses malformed JSON', () => {
    for (const bad of [
      '',
      '   ',
      'not json',
      '[{"model":"m"}]',
      '"model"',
      '{"model":"m"',
      '{"model":"m"}}',
      '{"model":"m"} x',
      '{"model":"m",}',
      '{"model":"m",,"a":1}',
      '{"model" "m"}',
      '{"model":"m" "a":1}',
      '{"model":"m","a":tru}',
      '{"model":"m","a":[1,]}',
      '{"model":"m","a":[1 2]}',
      '{"model":"m","a":01}',
      '{"model":"m","a":1.}',
      '{"model":"m","a":-}',
      '{"model":"m","a":"unterminated}',
      '{"model":"m","a":[}',
      '{"model":"m","a":{]}',
      '{model:"m"}',
      "{'model':'m'}",
      '\uFEFF{"model":"m"}',
    ]) {
      expect(peek(bad), bad).toBeUndefined();
    }
  });

  it('refuses nesting deeper than the limit JSON.parse is held to', () => {
    expect(peek(`{"a":${'['.repeat(255)}${']'.repeat(255)}}`)!.fields).toHaveLength(1);
    expect(peek(`{"a":${'['.repeat(256)}${']'.repeat(256)}}`)).toBeUndefined();
  });

  it('agrees with JSON.parse on any JSON object (model and stream at the top level)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), fc.jsonValue()), fc.option(fc.string()), fc.option(fc.boolean()), (rest, model, stream) => {
        const obj: Record<string, unknown> = { ...rest };
        if (model !== null) obj.model = model;
        if (stream !== null) obj.stream = stream;
        const body = JSON.stringify(obj, null, model !== null && model.length % 2 ? 1 : undefined);
        const p = peek(body);
        const parsed = JSON.parse(body) as Record<string, unknown>;
        if (typeof parsed.model !== 'string' && parsed.model !== undefined) return p === undefined || p.model === undefined;
        if (!p) return Object.keys(parsed).some((k) => JSON.stringify(k).includes('\\')); // only keys written with escapes are refused
        expect(p.model?.value).toBe(parsed.model);
        expect(parsedExcept(bytes(body), p, '\u0000none')).toEqual(parsed);
        if (typeof parsed.stream === 'boolean' || parsed.stream === null) expect(p.stream).toBe(parsed.stream);
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts a body JSON.parse refuses, among truncations and one-byte edits of valid ones', () => {
    const valid = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'a "b" \\ c' }] }], n: -1.5e3, ok: [true, false, null] });
    fc.assert(
      fc.property(fc.nat(valid.length), fc.nat(valid.length), fc.constantFrom(...'{}[],:"\\ 0a-.'), (cut, at, ch) => {
        for (const body of [valid.slice(0, cut), valid.slice(0, at) + ch + valid.slice(at + 1)]) {
          let ok = true;
          try {
            JSON.parse(body);
          } catch {
            ok = false;
          }
          if (!ok && peek(body) !== undefined) {
            // Only string contents are left unchecked: a bad escape inside a string.
            expect(body).toMatch(/\\[^"\\/bfnrtu]|\\u(?![0-9a-fA-F]{4})/);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('fields and parsedExcept', () => {
  it('spans every top-level value; parses all of them but the one left out', () => {
    const body = '{"model":"m", "messages":[{"role":"user","content":"a \\"]"}] ,"temperature":0.5,"tools":[],"meta":{"a":{}},"stop":null,"s":"x"}';
    const b = bytes(body);
    const p = peekJson(b)!;
    expect(p.fields.map((f) => [f.key, body.slice(f.start, f.end)])).toEqual([
      ['model', '"m"'],
      ['messages', '[{"role":"user","content":"a \\"]"}]'],
      ['temperature', '0.5'],
      ['tools', '[]'],
      ['meta', '{"a":{}}'],
      ['stop', 'null'],
      ['s', '"x"'],
    ]);
    const { messages: _m, ...rest } = JSON.parse(body) as Record<string, unknown>;
    expect(parsedExcept(b, p, 'messages')).toEqual(rest);
  });

  it('checkedExcept hands the check the fields with the conversation replaced, and says whether it passed', () => {
    const b = bytes('{"model":"m","messages":[1,2,3],"temperature":3}');
    const seen: unknown[] = [];
    expect(checkedExcept(b, peekJson(b)!, 'messages', ['.'], (body) => seen.push(body))).toBe(true);
    expect(seen).toEqual([{ model: 'm', messages: ['.'], temperature: 3 }]);
    expect(checkedExcept(b, peekJson(b)!, 'messages', [], (body) => {
      if ((body as { temperature: number }).temperature > 2) throw new Error('temperature');
    })).toBe(false);
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

describe('mayCarrySignatureBytes', () => {
  it('agrees with mayCarrySignatures', () => {
    const cases = [
      '{"tool_call_id":"call_1__il1gAbC"}',
      '{"thoughtSignature":"/2lsMWabc"}',
      '{"thoughtSignature":"\\/2lsMmabc"}',
      '{"thoughtSignature":"\\u002f2lsMWabc"}',
      '{"thoughtSignature":"\\u002F2lsMWabc"}',
      '{"signature":"il1a.RXFR"}',
      '{"signature":"il1o.x"}',
      '{"signature":"il1x.RXFR","text":"the il1 library, /2ls, 2lsM"}',
      '{"text":"a/2lsMW not at a string start, xil1a."}',
      '{"a":"1","b":"M"}',
      '',
    ];
    // Plain byte arrays (Workers) and Node Buffers (searched natively) alike.
    for (const c of cases) {
      expect(mayCarrySignatureBytes(bytes(c)), c).toBe(mayCarrySignatures(c));
      expect(mayCarrySignatureBytes(Buffer.from(c)), c).toBe(mayCarrySignatures(c));
    }
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'"/\\il1ogaM2sWm._u002fF') }), (s) => {
        expect(mayCarrySignatureBytes(bytes(s))).toBe(mayCarrySignatures(s));
        expect(mayCarrySignatureBytes(Buffer.from(s))).toBe(mayCarrySignatures(s));
      }),
    );
  });
});
