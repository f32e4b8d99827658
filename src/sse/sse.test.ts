import { describe, expect, it } from 'vitest';
import { createSseChunkParser } from './parse.ts';
import { createSerializer } from './serialize.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

describe('SSE parsing', () => {
  const body = 'event: a\ndata: {"x":1}\n\n: comment\ndata: {"y":"é"}\r\n\r\ndata: [DONE]\n\n';

  it('yields identical events under any byte split', () => {
    const bytes = enc.encode(body);
    const whole = createSseChunkParser(1 << 20);
    const expected = [...whole.push(bytes), ...whole.finish()];
    expect(expected).toEqual([{ event: 'a', data: '{"x":1}' }, { data: '{"y":"é"}' }, { data: '[DONE]' }]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const p = createSseChunkParser(1 << 20);
      const got = [...p.push(bytes.subarray(0, cut)), ...p.push(bytes.subarray(cut)), ...p.finish()];
      expect(got).toEqual(expected);
    }
  });

  it('dispatches a last frame without its blank line, and flags an oversized frame', () => {
    const p = createSseChunkParser(1 << 20);
    expect([...p.push(enc.encode('data: {"a":1}')), ...p.finish()]).toEqual([{ data: '{"a":1}' }]);
    const small = createSseChunkParser(16);
    small.push(enc.encode('data: ' + 'x'.repeat(100)));
    expect(small.error?.type).toBe('max-buffer-size-exceeded');
  });
});

describe('SSE serializing', () => {
  it('writes event and data lines', () => {
    const s = createSerializer('sse');
    expect(dec.decode(s.push([{ event: 'ping', data: '{}' }, { data: '[DONE]' }]))).toBe('event: ping\ndata: {}\n\ndata: [DONE]\n\n');
    expect(s.push([])).toBeUndefined();
  });

  it('writes a JSON array for json-array framing', () => {
    const s = createSerializer('json-array');
    const out = dec.decode(s.push([{ data: '{"a":1}' }])) + dec.decode(s.push([{ data: '{"b":2}' }])) + dec.decode(s.finish()!);
    expect(JSON.parse(out)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(dec.decode(createSerializer('json-array').finish()!)).toBe('[]');
  });
});
