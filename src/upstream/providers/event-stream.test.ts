import { describe, expect, it } from 'vitest';
import { concatBytes, encodeFrame } from '../../../test/support/aws.ts';
import { crc32, EventStreamDecoder, type EventStreamMessage } from './event-stream.ts';

const text = (m: EventStreamMessage) => new TextDecoder().decode(m.payload);

const frames = [
  encodeFrame({ ':event-type': 'chunk', ':message-type': 'event', ':content-type': 'application/json' }, '{"bytes":"eyJ0eXBlIjoicGluZyJ9"}'),
  encodeFrame({ ':message-type': 'event', ':event-type': 'chunk' }, 'second ✓ payload'),
  encodeFrame({}, ''),
  encodeFrame({ ':exception-type': 'throttlingException', ':message-type': 'exception' }, '{"message":"Too many requests"}'),
];
const stream = concatBytes(frames);

function decodeAll(chunks: Uint8Array[], max = 1 << 20): { messages: EventStreamMessage[]; decoder: EventStreamDecoder } {
  const decoder = new EventStreamDecoder(max);
  const messages = chunks.flatMap((c) => decoder.push(c));
  return { messages, decoder };
}

/** A frame with one header of each value type (types 0–9), encoded by hand. */
function typedHeadersFrame(): Uint8Array {
  const parts: number[] = [];
  const name = (n: string) => parts.push(n.length, ...new TextEncoder().encode(n));
  const be = (value: bigint, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) parts.push(Number((value >> BigInt(8 * i)) & 0xffn));
  };
  name('t'), parts.push(0);
  name('f'), parts.push(1);
  name('b'), parts.push(2), be(0xffn, 1); // -1
  name('s'), parts.push(3), be(0x1234n, 2);
  name('i'), parts.push(4), be(0xfffffffen, 4); // -2
  name('l'), parts.push(5), be(1n << 40n, 8);
  name('y'), parts.push(6), be(3n, 2), parts.push(1, 2, 3);
  name('str'), parts.push(7), be(2n, 2), parts.push(0x68, 0x69);
  name('ts'), parts.push(8), be(1_700_000_000_000n, 8);
  name('u'), parts.push(9), parts.push(...Array.from({ length: 16 }, (_, i) => i));
  const headers = Uint8Array.from(parts);
  const total = 16 + headers.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headers.length);
  view.setUint32(8, crc32(out, 0, 8));
  out.set(headers, 12);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}

describe('crc32', () => {
  it('is CRC-32/IEEE (the check value of "123456789")', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});

describe('EventStreamDecoder', () => {
  it('decodes frames into headers and payloads', () => {
    const { messages, decoder } = decodeAll([stream]);
    expect(messages).toHaveLength(4);
    expect(messages[0]!.headers).toEqual({ ':event-type': 'chunk', ':message-type': 'event', ':content-type': 'application/json' });
    expect(text(messages[0]!)).toBe('{"bytes":"eyJ0eXBlIjoicGluZyJ9"}');
    expect(text(messages[1]!)).toBe('second ✓ payload');
    expect(messages[2]).toEqual({ headers: {}, payload: new Uint8Array(0) });
    expect(messages[3]!.headers[':exception-type']).toBe('throttlingException');
    expect(decoder.failure).toBeUndefined();
    expect(decoder.pending).toBe(0);
  });

  it('gives the same messages however the bytes are split: at every byte boundary, and byte by byte', () => {
    const whole = decodeAll([stream]).messages;
    for (let i = 0; i <= stream.length; i++) {
      const { messages, decoder } = decodeAll([stream.subarray(0, i), stream.subarray(i)]);
      expect(messages, `split at ${i}`).toEqual(whole);
      expect(decoder.failure).toBeUndefined();
    }
    for (let i = 1; i < stream.length; i++) {
      for (const j of [i + 1, i + 7, i + 31]) {
        if (j >= stream.length) continue;
        expect(decodeAll([stream.subarray(0, i), stream.subarray(i, j), stream.subarray(j)]).messages, `split at ${i}, ${j}`).toEqual(whole);
      }
    }
    const bytes = Array.from(stream, (b) => Uint8Array.of(b));
    expect(decodeAll(bytes).messages).toEqual(whole);
  });

  it('hands out each message as soon as its last byte arrives', () => {
    const decoder = new EventStreamDecoder(1 << 20);
    const first = frames[0]!;
    expect(decoder.push(first.subarray(0, first.length - 1))).toEqual([]);
    expect(decoder.pending).toBe(first.length - 1);
    expect(decoder.push(first.subarray(first.length - 1))).toHaveLength(1);
    expect(decoder.pending).toBe(0);
  });

  it('reads every header value type', () => {
    const [m] = decodeAll([typedHeadersFrame()]).messages;
    expect(m!.headers).toEqual({
      t: true,
      f: false,
      b: -1,
      s: 0x1234,
      i: -2,
      l: 1n << 40n,
      y: Uint8Array.of(1, 2, 3),
      str: 'hi',
      ts: new Date(1_700_000_000_000),
      u: Uint8Array.from({ length: 16 }, (_, i) => i),
    });
  });

  it('a bad prelude checksum is a failure, at any split, and nothing after it is read', () => {
    const bad = stream.slice();
    const second = frames[0]!.length;
    bad[second + 8] = bad[second + 8]! ^ 0xff; // the second frame's prelude CRC
    for (let i = 0; i <= bad.length; i += 3) {
      const { messages, decoder } = decodeAll([bad.subarray(0, i), bad.subarray(i)]);
      expect(messages, `split at ${i}`).toHaveLength(1);
      expect(decoder.failure).toEqual({ type: 'corrupt', message: 'prelude checksum mismatch' });
    }
    const decoder = new EventStreamDecoder(1 << 20);
    decoder.push(bad);
    expect(decoder.push(frames[0]!)).toEqual([]);
  });

  it('a bad message checksum (a flipped payload byte) is a failure', () => {
    const bad = stream.slice();
    const at = frames[0]!.length - 10; // inside the first frame's payload
    bad[at] = bad[at]! ^ 0x01;
    const { messages, decoder } = decodeAll([bad]);
    expect(messages).toEqual([]);
    expect(decoder.failure).toEqual({ type: 'corrupt', message: 'message checksum mismatch' });
  });

  it('a frame over the limit fails as too large from its prelude, before its bytes are buffered', () => {
    const big = encodeFrame({ ':message-type': 'event' }, 'x'.repeat(5000));
    const decoder = new EventStreamDecoder(4096);
    expect(decoder.push(big.subarray(0, 12))).toEqual([]);
    expect(decoder.failure).toEqual({ type: 'too-large', message: `frame of ${big.length} bytes is over 4096 bytes` });
  });

  it('impossible lengths and headers that run past their frame are failures', () => {
    const short = new Uint8Array(16);
    const view = new DataView(short.buffer);
    view.setUint32(0, 8); // shorter than a prelude plus checksum
    view.setUint32(8, crc32(short, 0, 8));
    expect(decodeAll([short]).decoder.failure?.message).toMatch(/impossible frame lengths/);

    const f = encodeFrame({ abc: 'value' }, 'payload').slice();
    f[12] = 200; // the header name length now runs past the headers
    const view2 = new DataView(f.buffer);
    view2.setUint32(f.length - 4, crc32(f, 0, f.length - 4));
    expect(decodeAll([f]).decoder.failure).toEqual({ type: 'corrupt', message: 'a header name runs past the headers' });
  });
});
