import { describe, expect, it } from 'vitest';
import { createSerializer } from './serialize.ts';

// Parsing (every parser, every framing) is test/conformance/stream-parsers.test.ts.
const dec = new TextDecoder();

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
