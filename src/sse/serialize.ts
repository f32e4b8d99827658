/**
 * The one place outgoing stream frames become bytes: SSE (`event:`/`data:` lines) or the JSON
 * array framing Gemini's streamGenerateContent uses without `alt=sse`.
 */
import type { StreamFrame } from '../canonical/index.ts';

export type Framing = 'sse' | 'json-array';

const encoder = new TextEncoder();

export interface FrameSerializer<T = Uint8Array> {
  /** The wire form of these frames (undefined when there are none). */
  push(frames: StreamFrame[]): T | undefined;
  /** Closing bytes, if the framing has any. */
  finish(): T | undefined;
}

function sseText(frame: StreamFrame): string {
  const head = frame.event ? `event: ${frame.event}\n` : '';
  // JSON never holds a raw newline; anything else multi-line becomes several data lines.
  const data = frame.data.includes('\n') ? frame.data.split('\n').join('\ndata: ') : frame.data;
  return `${head}data: ${data}\n\n`;
}

/**
 * Frames as text: what a runtime that writes strings to its socket (Node) takes as it is, without
 * an encoding pass and a byte array per event.
 */
export function createTextSerializer(framing: Framing): FrameSerializer<string> {
  if (framing === 'sse') {
    return {
      push(frames) {
        if (frames.length === 0) return undefined;
        let text = '';
        for (const f of frames) text += sseText(f);
        return text;
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
      return text;
    },
    finish: () => (started ? ']' : '[]'),
  };
}

/** Frames as UTF-8 bytes. */
export function createSerializer(framing: Framing): FrameSerializer {
  const text = createTextSerializer(framing);
  const bytes = (t: string | undefined) => (t === undefined ? undefined : encoder.encode(t));
  return { push: (frames) => bytes(text.push(frames)), finish: () => bytes(text.finish()) };
}

export function contentTypeOf(framing: Framing): string {
  return framing === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8';
}
