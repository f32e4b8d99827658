/**
 * Incremental SSE parsing of an upstream body with eventsource-parser. One parser and one
 * streaming TextDecoder per stream, fed chunk by chunk: events come out as soon as their frame
 * is complete, and a frame larger than `maxBufferSize` is an error, not unbounded memory —
 * however it arrived: buffered across chunks (the library's cap) or whole in one chunk (measured
 * here). After that error the parser takes no more bytes and gives no more events.
 * test/conformance/stream-parsers.test.ts holds every parser to this contract.
 */
import { createParser, ParseError, type EventSourceParser } from 'eventsource-parser';
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
  return new ChunkParser(maxBufferSize);
}

/**
 * A class, not an object literal with getters: each evaluation of a literal's `get` makes new
 * closures, so every stream would get hidden classes of its own, kept in the old generation until
 * a full GC and holding the parser through every scavenge (docs/performance.md, the 30 KB fixed
 * cost, found for the request's call).
 */
class ChunkParser implements SseChunkParser {
  sawBytes = false;
  eventCount = 0;
  error: ParseError | undefined;
  #out: SseEvent[] = [];
  readonly #decoder = new TextDecoder();
  readonly #parser: EventSourceParser;

  constructor(maxBufferSize: number) {
    this.#parser = createParser({
      maxBufferSize,
      onEvent: (e) => {
        if (this.error) return;
        if (e.data.length > maxBufferSize) {
          this.error = new ParseError(`A frame of ${e.data.length} characters is over the ${maxBufferSize} limit.`, { type: 'max-buffer-size-exceeded' });
          return;
        }
        this.eventCount++;
        this.#out.push(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data });
      },
      onError: (e) => {
        if (e.type === 'max-buffer-size-exceeded') this.error = e;
      },
    });
  }

  push(chunk: Uint8Array): SseEvent[] {
    if (chunk.byteLength > 0) this.sawBytes = true;
    if (!this.error) this.#parser.feed(this.#decoder.decode(chunk, { stream: true }));
    return this.#take();
  }

  finish(): SseEvent[] {
    if (this.error) return this.#take();
    const rest = this.#decoder.decode();
    if (rest) this.#parser.feed(rest);
    // Dispatch a last frame that lacks its blank line; if it was cut mid-JSON, the dialect's
    // decoder sees unparsable data and reports an upstream error.
    this.#parser.feed('\n\n');
    return this.#take();
  }

  #take(): SseEvent[] {
    const events = this.#out;
    this.#out = [];
    return events;
  }
}
