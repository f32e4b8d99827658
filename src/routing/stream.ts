/**
 * Piping an upstream SSE body to the caller: bytes → SSE events (eventsource-parser) → canonical
 * events (upstream decoder) → caller frames (caller encoder) → bytes. One pull loop, no
 * intermediate TransformStreams: each upstream chunk is translated and enqueued before the next
 * read, so every event is flushed as it arrives. Errors and idle timeouts become the caller
 * dialect's error event followed by a proper close.
 */
import { ProxyError, type SseEvent, type StreamEvent, type StreamFrame, type StreamStep } from '../canonical/index.ts';
import { createSseChunkParser } from '../sse/parse.ts';
import { createSerializer, type Framing } from '../sse/serialize.ts';
import { asProxyError, type RequestScope } from './scope.ts';

export interface TranslateStreamOptions {
  decoder: StreamStep<SseEvent, StreamEvent>;
  encoder: StreamStep<StreamEvent, StreamFrame>;
  framing: Framing;
  maxBufferSize: number;
  idleMs: number;
  scope: RequestScope;
  /** Called once when the stream has ended, however it ended. */
  onEnd?: (error?: ProxyError) => void;
}

/** Watch canonical events as they pass (usage for logs and metrics). */
export type EventTap = (e: StreamEvent) => void;

export function translateStream(body: ReadableStream<Uint8Array>, o: TranslateStreamOptions): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const parser = createSseChunkParser(o.maxBufferSize);
  const serializer = createSerializer(o.framing);
  let done = false;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const encodeEvents = (events: StreamEvent[], frames: StreamFrame[]) => {
    for (const ev of events) for (const f of o.encoder.push(ev)) frames.push(f);
  };
  const decodeSse = (sse: SseEvent[], frames: StreamFrame[]) => {
    for (const e of sse) encodeEvents(o.decoder.push(e), frames);
  };

  const end = (controller: ReadableStreamDefaultController<Uint8Array>, frames: StreamFrame[], error?: ProxyError) => {
    done = true;
    clearTimeout(idle);
    if (error) encodeEvents([{ type: 'error', error }], frames);
    else encodeEvents(o.decoder.finish(), frames);
    for (const f of o.encoder.finish()) frames.push(f);
    const bytes = serializer.push(frames);
    if (bytes) controller.enqueue(bytes);
    const tail = serializer.finish();
    if (tail) controller.enqueue(tail);
    controller.close();
    o.onEnd?.(error);
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const frames: StreamFrame[] = [];
      while (!done && frames.length === 0) {
        clearTimeout(idle);
        idle = setTimeout(
          () => o.scope.abort(new ProxyError('timeout', `Upstream stream was idle for ${o.idleMs} ms.`)),
          o.idleMs,
        );
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (e) {
          return end(controller, frames, asProxyError(e, o.scope.upstreamAbort.signal));
        }
        if (chunk.done) {
          decodeSse(parser.finish(), frames);
          if (parser.eventCount === 0) {
            const msg = parser.sawBytes ? 'Upstream sent a stream with no events.' : 'Upstream closed the stream without sending anything.';
            return end(controller, frames, new ProxyError('upstream', msg));
          }
          return end(controller, frames);
        }
        decodeSse(parser.push(chunk.value), frames);
        if (parser.error) {
          await reader.cancel().catch(() => {});
          return end(controller, frames, new ProxyError('upstream', `Upstream stream frame too large: ${parser.error.message}`));
        }
      }
      if (done) return;
      const bytes = serializer.push(frames);
      if (bytes) {
        o.scope.markFirstByte();
        controller.enqueue(bytes);
      }
    },
    async cancel(reason) {
      // The caller went away: stop the upstream at once.
      done = true;
      clearTimeout(idle);
      o.scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
      await reader.cancel(reason).catch(() => {});
      o.onEnd?.(new ProxyError('upstream', 'Caller disconnected.'));
    },
  });
}

/**
 * Same dialect on both sides: pipe the upstream bytes untouched, with the idle timeout and the
 * caller-disconnect abort still in force.
 */
export function passthroughStream(body: ReadableStream<Uint8Array>, scope: RequestScope, idleMs: number, onEnd?: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let idle: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      clearTimeout(idle);
      idle = setTimeout(() => scope.abort(new ProxyError('timeout', 'Upstream stream idle.')), idleMs);
      try {
        const { done, value } = await reader.read();
        if (done) {
          clearTimeout(idle);
          controller.close();
          onEnd?.();
          return;
        }
        scope.markFirstByte();
        controller.enqueue(value);
      } catch {
        clearTimeout(idle);
        controller.close();
        onEnd?.();
      }
    },
    async cancel(reason) {
      clearTimeout(idle);
      scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
      await reader.cancel(reason).catch(() => {});
      onEnd?.();
    },
  });
}
