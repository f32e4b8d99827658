/**
 * The AWS event-stream framing (`application/vnd.amazon.eventstream`), decoded incrementally:
 * bytes go in as they arrive, whole messages come out as soon as their last byte is in.
 * https://docs.aws.amazon.com/transcribe/latest/dg/streaming-setting-up.html (the frame layout)
 * and https://smithy.io/2.0/aws/amazon-eventstream.html (header types):
 *
 *   total length (u32) · headers length (u32) · prelude CRC32 (of the 8 bytes before it)
 *   · headers · payload · message CRC32 (of everything before it)
 *
 * Integers are big-endian. A header is a name (u8 length + UTF-8), a type byte and a value:
 * 0/1 true/false, 2 int8, 3 int16, 4 int32, 5 int64, 6 bytes (u16 length), 7 string (u16 length),
 * 8 timestamp (int64 ms), 9 UUID (16 bytes). Both checksums are CRC-32 (IEEE, as zlib).
 *
 * A bad checksum, an impossible length or a header that runs past its frame is a `failure`: the
 * framing is lost, nothing after it can be trusted, and the decoder takes no more bytes.
 */

export type HeaderValue = string | number | boolean | bigint | Uint8Array | Date;

export interface EventStreamMessage {
  headers: Record<string, HeaderValue>;
  payload: Uint8Array;
}

export interface EventStreamFailure {
  /** `too-large`: a frame over the size limit (not read); `corrupt`: the framing is broken. */
  type: 'too-large' | 'corrupt';
  message: string;
}

/** Prelude (12 bytes) plus the message CRC: the smallest frame there is. */
const MIN_FRAME = 16;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3, reflected, as zlib's `crc32`). */
export function crc32(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Header bytes → name/value pairs; a string saying what is wrong when they do not parse. */
function decodeHeaders(view: DataView, bytes: Uint8Array, start: number, end: number): Record<string, HeaderValue> | string {
  const headers: Record<string, HeaderValue> = {};
  let at = start;
  const need = (n: number) => at + n <= end;
  try {
    while (at < end) {
      const nameLength = bytes[at]!;
      at += 1;
      if (nameLength === 0 || !need(nameLength + 1)) return 'a header name runs past the headers';
      const name = utf8.decode(bytes.subarray(at, at + nameLength));
      at += nameLength;
      const type = bytes[at]!;
      at += 1;
      let value: HeaderValue;
      switch (type) {
        case 0:
        case 1:
          value = type === 0;
          break;
        case 2:
          if (!need(1)) return `header ${name} runs past the headers`;
          value = view.getInt8(at);
          at += 1;
          break;
        case 3:
          if (!need(2)) return `header ${name} runs past the headers`;
          value = view.getInt16(at);
          at += 2;
          break;
        case 4:
          if (!need(4)) return `header ${name} runs past the headers`;
          value = view.getInt32(at);
          at += 4;
          break;
        case 5:
        case 8:
          if (!need(8)) return `header ${name} runs past the headers`;
          value = type === 5 ? view.getBigInt64(at) : new Date(Number(view.getBigInt64(at)));
          at += 8;
          break;
        case 6:
        case 7: {
          if (!need(2)) return `header ${name} runs past the headers`;
          const length = view.getUint16(at);
          at += 2;
          if (!need(length)) return `header ${name} runs past the headers`;
          const raw = bytes.subarray(at, at + length);
          value = type === 7 ? utf8.decode(raw) : raw.slice();
          at += length;
          break;
        }
        case 9:
          if (!need(16)) return `header ${name} runs past the headers`;
          value = bytes.slice(at, at + 16);
          at += 16;
          break;
        default:
          return `header ${name} has unknown value type ${type}`;
      }
      headers[name] = value;
    }
  } catch {
    return 'a header is not valid UTF-8';
  }
  return headers;
}

/**
 * One decoder per stream. `push` returns the messages the bytes completed; after a failure it
 * returns none and `failure` says why. `pending` is the count of bytes of an unfinished frame.
 */
export class EventStreamDecoder {
  private buf = new Uint8Array(0);
  private start = 0;
  private end = 0;
  private failed: EventStreamFailure | undefined;

  constructor(private readonly maxFrameBytes: number) {}

  get failure(): EventStreamFailure | undefined {
    return this.failed;
  }

  get pending(): number {
    return this.end - this.start;
  }

  push(chunk: Uint8Array): EventStreamMessage[] {
    if (this.failed) return [];
    this.append(chunk);
    const out: EventStreamMessage[] = [];
    for (;;) {
      const message = this.next();
      if (!message) break;
      out.push(message);
    }
    if (this.start === this.end) this.start = this.end = 0;
    return out;
  }

  private append(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    if (this.end + chunk.byteLength > this.buf.byteLength) {
      const live = this.end - this.start;
      const need = live + chunk.byteLength;
      // Move the live bytes to the front when that makes room; else grow (doubling).
      if (need <= this.buf.byteLength) this.buf.copyWithin(0, this.start, this.end);
      else {
        const next = new Uint8Array(Math.max(need, this.buf.byteLength * 2, 1024));
        next.set(this.buf.subarray(this.start, this.end));
        this.buf = next;
      }
      this.start = 0;
      this.end = live;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.byteLength;
  }

  private fail(type: EventStreamFailure['type'], message: string): undefined {
    this.failed = { type, message };
    this.buf = new Uint8Array(0);
    this.start = this.end = 0;
    return undefined;
  }

  /** The next whole message in the buffer, if there is one. */
  private next(): EventStreamMessage | undefined {
    const available = this.end - this.start;
    if (available < 12) return undefined;
    const bytes = this.buf;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = this.start;
    const total = view.getUint32(at);
    const headersLength = view.getUint32(at + 4);
    if (crc32(bytes, at, at + 8) !== view.getUint32(at + 8)) return this.fail('corrupt', 'prelude checksum mismatch');
    if (total < MIN_FRAME || headersLength > total - MIN_FRAME) return this.fail('corrupt', `impossible frame lengths (total ${total}, headers ${headersLength})`);
    if (total > this.maxFrameBytes) return this.fail('too-large', `frame of ${total} bytes is over ${this.maxFrameBytes} bytes`);
    if (available < total) return undefined;
    if (crc32(bytes, at, at + total - 4) !== view.getUint32(at + total - 4)) return this.fail('corrupt', 'message checksum mismatch');
    const headers = decodeHeaders(view, bytes, at + 12, at + 12 + headersLength);
    if (typeof headers === 'string') return this.fail('corrupt', headers);
    const payload = bytes.slice(at + 12 + headersLength, at + total - 4);
    this.start += total;
    return { headers, payload };
  }
}

