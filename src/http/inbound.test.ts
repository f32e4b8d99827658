import { describe, expect, it } from 'vitest';
import { ByteParts, MAX_JSON_DEPTH, nestsDeeperThan } from '../kit/index.ts';
import { chatCallOf, parseJsonBody, publicOrigin, webCallerRequest } from './inbound.ts';

const nested = (depth: number, make: (inner: unknown) => unknown): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = make(v);
  return v;
};

describe('nestsDeeperThan', () => {
  it('counts objects and arrays alike, and allows exactly the limit', () => {
    for (const make of [(x: unknown) => ({ a: x }), (x: unknown) => [x], (x: unknown) => [1, { b: x }][1]]) {
      expect(nestsDeeperThan(nested(4, make), 4)).toBe(false);
      expect(nestsDeeperThan(nested(5, make), 4)).toBe(true);
    }
  });

  it('finds the one deep branch among shallow ones, and ignores scalars', () => {
    const value = { a: 1, b: [1, 2, { c: 'x' }], d: { e: { f: { g: {} } } } };
    expect(nestsDeeperThan(value, 5)).toBe(false);
    expect(nestsDeeperThan(value, 4)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
  });

  it('refuses a body nested past MAX_JSON_DEPTH without overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => parseJsonBody(deep)).toThrow(/nests deeper than 256/);
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(parseJsonBody(ok)).toBeInstanceOf(Array);
  });
});

describe('publicOrigin', () => {
  it('is the request URL, or the forwarded proto/host when present and well-formed', () => {
    const at = (url: string, headers?: Record<string, string>) => publicOrigin(webCallerRequest(new Request(url, { headers })));
    expect(at('http://127.0.0.1:8787/v1/images/generations')).toBe('http://127.0.0.1:8787');
    expect(at('http://10.0.0.2:8787/x', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'img.example.com' })).toBe('https://img.example.com');
    expect(at('http://a:1/x', { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil/path' })).toBe('http://a:1');
  });
});

describe('chatCallOf: a body in pieces reads as the same body whole', () => {
  const caller = { id: 'openai-chat' } as never;
  const inbound = { headers: {}, query: {} };
  const cut = (b: Buffer, at: number[]) => new ByteParts([0, ...at].map((from, i) => b.subarray(from, at[i] ?? b.length)));
  it('characters cut across pieces decode whole; the text and the parsed body equal the whole buffer’s', () => {
    const whole = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'é ☃ 😀 "q"' }] }));
    const emoji = whole.indexOf(Buffer.from('😀'));
    const call = chatCallOf(caller, inbound, cut(whole, [emoji + 1, emoji + 3]));
    expect(call.rawBody).toBe(whole.toString('utf8'));
    expect(call.input.body).toEqual(chatCallOf(caller, inbound, whole).input.body);
  });

  it('a byte-order mark is kept, as Node decodes a whole Buffer: both are the same 400', () => {
    const whole = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"model":"m"}')]);
    const inPieces = chatCallOf(caller, inbound, cut(whole, [2, 6]));
    expect(inPieces.rawBody).toBe(whole.toString('utf8'));
    expect(() => inPieces.input.body).toThrow(/could not parse the JSON body/);
    expect(() => chatCallOf(caller, inbound, whole).input.body).toThrow(/could not parse the JSON body/);
  });
});

describe('chatCallOf: what it keeps', () => {
  const inbound = { headers: {}, query: {} } as unknown as Parameters<typeof chatCallOf>[1];
  const caller = {} as Parameters<typeof chatCallOf>[0];
  const body = { model: 'm', messages: [{ role: 'user', content: 'é "hi"' }] };

  it('parses once and gives the same object until released; then parses again from the bytes, equal', () => {
    const call = chatCallOf(caller, inbound, new ByteParts([Buffer.from(JSON.stringify(body).slice(0, 10)), Buffer.from(JSON.stringify(body).slice(10))]));
    const first = call.input.body;
    expect(first).toEqual(body);
    expect(call.input.body).toBe(first);
    call.release!();
    const again = call.input.body;
    expect(again).toEqual(body);
    expect(again).not.toBe(first);
    expect(call.rawBody).toBe(JSON.stringify(body));
  });

  it('released whole (a translated request, planned), lets go of the bytes; a read after that is an error of ours, never a body', () => {
    const bytes = Buffer.from(JSON.stringify(body));
    const call = chatCallOf(caller, inbound, bytes);
    expect(call.input.body).toEqual(body);
    expect(call.rawBytes).toBe(bytes);
    call.release!(true);
    expect(call.rawBytes).toBeUndefined();
    expect(() => call.input.body).toThrow(/read after it was released/);
    expect(() => call.rawBody).toThrow(/read after it was released/);
  });

  it('keeps the text only for what asks for the text, not for the parse', () => {
    const bytes = Buffer.from(JSON.stringify(body));
    const call = chatCallOf(caller, inbound, bytes);
    expect(call.input.body).toEqual(body);
    // Changing the bytes now shows whether the text was kept: a kept text would not change.
    bytes.write('M', bytes.indexOf('"m"') + 1);
    expect(call.rawBody).toBe(JSON.stringify({ ...body, model: 'M' }));
    bytes.write('X', bytes.indexOf('"M"') + 1);
    expect(call.rawBody).toBe(JSON.stringify({ ...body, model: 'M' }));
  });

  it('reads its body and text through getters every call shares (not hidden classes of its own, which V8 keeps until a full GC)', () => {
    const [a, b] = [chatCallOf(caller, inbound, Buffer.from(JSON.stringify(body))), chatCallOf(caller, inbound, Buffer.from('{}'))];
    // A getter of an object literal is a new closure each time, and gives each call maps of its own.
    for (const [o, key] of [[a, 'rawBody'], [a.input, 'body']] as const) {
      expect(Object.getOwnPropertyDescriptor(o, key)).toBeUndefined();
      expect(typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(o), key)?.get).toBe('function');
    }
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(Object.getPrototypeOf(a.input)).toBe(Object.getPrototypeOf(b.input));
    expect([a.input.body, b.input.body, b.rawBody]).toEqual([body, {}, '{}']);
    // What a spread of the input carries (state.ts): its headers, parameters and query.
    expect({ ...a.input, body: 1 }).toEqual({ headers: {}, params: {}, query: {}, body: 1 });
  });
});
