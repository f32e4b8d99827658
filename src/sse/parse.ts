/**
 * Incremental SSE parsing of an upstream body with eventsource-parser. One parser and one
 * streaming TextDecoder per stream, fed chunk by chunk: events come out as soon as their frame
 * is complete, and a frame larger than `maxBufferSize` is an error, not unbounded memory —
 * however it arrived: buffered across chunks (the library's cap) or whole in one chunk (measured
 * here). After that error the parser takes no more bytes and gives no more events.
 * test/conformance/stream-parsers.test.ts holds every parser to this contract.
 */
import { createParser, ParseError } from 'eventsource-parser';
import type { SseEvent } from '../canonical/index.ts';

export interface SseChunkParser {
  /** Events completed by this chunk of bytes. */
  push(chunk: Uint8Array): SseEvent[];
  /** Events completed by the end of the body (a last frame without its blank line). */
  finish(): SseEvent[];
  /** Bytes received that held no event so far (garbage detection). */
  readonly sawBytes: boolean;
  readonly eventCount: number;
  /** Set when the parser gave up (buffer limit). */
  readonly error?: ParseError;
}

export function createSseChunkParser(maxBufferSize: number): SseChunkParser {
  const decoder = new TextDecoder();
  let out: SseEvent[] = [];
  let sawBytes = false;
  let eventCount = 0;
  let error: ParseError | undefined;
  const parser = createParser({
    maxBufferSize,
    onEvent(e) {
      if (error) return;
      if (e.data.length > maxBufferSize) {
        error = new ParseError(`A frame of ${e.data.length} characters is over the ${maxBufferSize} limit.`, { type: 'max-buffer-size-exceeded' });
        return;
      }
      eventCount++;
      out.push(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data });
    },
    onError(e) {
      if (e.type === 'max-buffer-size-exceeded') error = e;
    },
  });
  const take = () => {
    const events = out;
    out = [];
    return events;
  };
  return {
    push(chunk) {
      if (chunk.byteLength > 0) sawBytes = true;
      if (!error) parser.feed(decoder.decode(chunk, { stream: true }));
      return take();
    },
    finish() {
      if (error) return take();
      const rest = decoder.decode();
      if (rest) parser.feed(rest);
      // Dispatch a last frame that lacks its blank line; if it was cut mid-JSON, the dialect's
      // decoder sees unparsable data and reports an upstream error.
      parser.feed('\n\n');
      return take();
    },
    get sawBytes() {
      return sawBytes;
    },
    get eventCount() {
      return eventCount;
    },
    get error() {
      return error;
    },
  };
}
