/**
 * The one place outgoing stream frames become bytes: SSE (`event:`/`data:` lines) or the JSON
 * array framing Gemini's streamGenerateContent uses without `alt=sse`.
 */
import type { StreamFrame } from '../canonical/index.ts';

export type Framing = 'sse' | 'json-array';

const encoder = new TextEncoder();

export interface FrameSerializer {
  /** Bytes for these frames (may be empty). */
  push(frames: StreamFrame[]): Uint8Array | undefined;
  /** Closing bytes, if the framing has any. */
  finish(): Uint8Array | undefined;
}

function sseText(frame: StreamFrame): string {
  const head = frame.event ? `event: ${frame.event}\n` : '';
  // JSON never holds a raw newline; anything else multi-line becomes several data lines.
  const data = frame.data.includes('\n') ? frame.data.split('\n').join('\ndata: ') : frame.data;
  return `${head}data: ${data}\n\n`;
}

export function createSerializer(framing: Framing): FrameSerializer {
  if (framing === 'sse') {
    return {
      push(frames) {
        if (frames.length === 0) return undefined;
        let text = '';
        for (const f of frames) text += sseText(f);
        return encoder.encode(text);
      },
      finish: () => undefined,
    };
  }
  let started = false;
  return {
    push(frames) {
      if (frames.length === 0) return undefined;
      let text = '';
      for (const f of frames) {
        text += started ? `,\r\n${f.data}` : `[${f.data}`;
        started = true;
      }
      return encoder.encode(text);
    },
    finish: () => encoder.encode(started ? ']' : '[]'),
  };
}

export function contentTypeOf(framing: Framing): string {
  return framing === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8';
}
