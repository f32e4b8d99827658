import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayCarrySignatureBytes, mayCarrySignatures } from '../canonical/carrier.ts';
import { modelAndStream, parsedExcept, peekJson, type PeekCheckpoint } from './json-peek.ts';

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
      '{"model":"m","a":[1}}',
      '{"model":"m","a":{"b":1]}',
      '{"model":"m","a":[[1]}]}',
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

describe('peekJson resumed from a checkpoint', () => {
  const turn = fc.record({ role: fc.constantFrom('user', 'assistant', 'tool'), content: fc.oneof(fc.string({ maxLength: 40 }), fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 })) });
  /** A body: fields before and after the conversation (model and stream on either side), its turns in between. */
  const body = (turns: unknown[], before: Record<string, unknown>, after: Record<string, unknown>) => `{${[JSON.stringify(before).slice(1, -1), `"messages":${JSON.stringify(turns)}`, JSON.stringify(after).slice(1, -1)].filter(Boolean).join(',')}}`;
  // Around the conversation: model and stream, an object of several keys, another array (tools): a
  // checkpoint is only ever at an element of an array at the top level, with the fields before it.
  const sides = fc.record(
    {
      model: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      stream: fc.option(fc.boolean(), { nil: undefined }),
      meta: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { minKeys: 2, maxKeys: 4 }),
      tools: fc.array(fc.record({ name: fc.string({ maxLength: 6 }) }), { minLength: 2, maxLength: 4 }),
      n: fc.option(fc.integer(), { nil: undefined }),
    },
    { requiredKeys: [] },
  );

  it('leaves a checkpoint about every `every` bytes at the conversation\'s element boundaries, each one at the start of an element', () => {
    const turns = Array.from({ length: 40 }, (_, i) => ({ role: 'user', content: `turn ${i} ${'x'.repeat(50)}` }));
    const b = bytes(body(turns, { model: 'm' }, { stream: true }));
    const into: PeekCheckpoint[] = [];
    const whole = peekJson(b, { into, every: 200 });
    expect(whole).toEqual(peekJson(b));
    expect(into.length).toBeGreaterThan(10);
    for (let k = 0; k < into.length; k++) {
      expect(text(b.subarray(into[k]!.at, into[k]!.at + 9))).toBe('{"role":"');
      expect(b[into[k]!.at - 1]).toBe(0x2c);
      if (k > 0) expect(into[k]!.at - into[k - 1]!.at).toBeGreaterThanOrEqual(200);
    }
    // The fields before the conversation are shared, not copied per checkpoint.
    expect(into[1]!.fields).toBe(into[0]!.fields);
  });

  it('gives what a whole scan gives, for any body sharing the bytes up to the checkpoint', () => {
    fc.assert(
      fc.property(fc.array(turn, { minLength: 2, maxLength: 12 }), fc.array(turn, { maxLength: 6 }), sides, sides, sides, fc.nat(), fc.nat(20), (turns, more, before, after, after2, pick, every) => {
        const first = bytes(body(turns, before, after));
        const into: PeekCheckpoint[] = [];
        expect(peekJson(first, { into, every })).toEqual(peekJson(first));
        if (into.length === 0) return;
        const cp = into[pick % into.length]!;
        // The next turn: the same bytes up to the checkpoint, then anything (more turns, other fields after).
        const next = bytes(body([...turns, ...more], before, after2));
        fc.pre(text(next.subarray(0, cp.at)) === text(first.subarray(0, cp.at)));
        const again: PeekCheckpoint[] = [];
        expect(peekJson(next, { from: cp, into: again, every })).toEqual(peekJson(next));
        for (const c of again) expect(c.at).toBeGreaterThan(cp.at);
        // A checkpoint is not changed by a scan resumed from it: it serves the next one the same.
        expect(peekJson(next, { from: cp })).toEqual(peekJson(next));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses from a checkpoint what it refuses whole: bad JSON after the shared bytes', () => {
    const turns = Array.from({ length: 20 }, (_, i) => ({ role: 'user', content: `t${i}` }));
    const good = body(turns, { model: 'm' }, {});
    const into: PeekCheckpoint[] = [];
    peekJson(bytes(good), { into, every: 1 });
    const cp = into[into.length - 1]!;
    for (const bad of [good.slice(0, -2), `${good.slice(0, cp.at)}{"role":}]}`, `${good.slice(0, cp.at)}{"role":"user"}],"model":"again"}`, `${good.slice(0, -1)},}`]) {
      expect(peekJson(bytes(bad), { from: cp })).toBeUndefined();
      expect(peekJson(bytes(bad))).toBeUndefined();
    }
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
