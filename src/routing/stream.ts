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
import { jsonOrText } from './debug.ts';
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

/**
 * The idle deadline of a stream: `touch()` before each read, `stop()` at the end. One timer that
 * re-arms itself for the remainder when it fires early, instead of a new timer per chunk.
 */
function idleTimer(ms: number, onIdle: () => void): { touch(): void; stop(): void } {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const quiet = Date.now() - last;
    if (quiet >= ms) {
      timer = undefined;
      onIdle();
    } else timer = setTimeout(check, ms - quiet);
  };
  return {
    touch() {
      last = Date.now();
      timer ??= setTimeout(check, ms);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

export function translateStream(body: ReadableStream<Uint8Array>, o: TranslateStreamOptions): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const parser = createSseChunkParser(o.maxBufferSize);
  const serializer = createSerializer(o.framing);
  const { scope } = o;
  scope.streaming = true;
  // Wire dump only: what came in and what went out, dumped when the stream ends.
  const trace = scope.dump ? { upstream: [] as SseEvent[], caller: [] as StreamFrame[] } : undefined;
  let done = false;
  const idle = idleTimer(o.idleMs, () => o.scope.abort(new ProxyError('timeout', `Upstream stream was idle for ${o.idleMs} ms.`)));

  const encodeEvents = (events: StreamEvent[], frames: StreamFrame[]) => {
    for (const ev of events) {
      if (ev.type === 'usage') scope.usage(ev.usage.inputTokens, ev.usage.outputTokens);
      for (const f of o.encoder.push(ev)) frames.push(f);
    }
  };
  const decodeSse = (sse: SseEvent[], frames: StreamFrame[]) => {
    for (const e of sse) {
      trace?.upstream.push(e);
      encodeEvents(o.decoder.push(e), frames);
    }
  };
  const ended = (error?: ProxyError) => {
    if (trace) {
      scope.dump!('upstream events', trace.upstream.map((e) => (e.event ? { event: e.event, data: jsonOrText(e.data) } : jsonOrText(e.data))));
      scope.dump!('caller frames', trace.caller.map((f) => (f.event ? { event: f.event, data: jsonOrText(f.data) } : jsonOrText(f.data))));
    }
    o.onEnd?.(error);
    scope.streamEnded();
  };

  const end = (controller: ReadableStreamDefaultController<Uint8Array>, frames: StreamFrame[], error?: ProxyError) => {
    done = true;
    idle.stop();
    if (error) encodeEvents([{ type: 'error', error }], frames);
    else encodeEvents(o.decoder.finish(), frames);
    for (const f of o.encoder.finish()) frames.push(f);
    trace?.caller.push(...frames);
    const bytes = serializer.push(frames);
    if (bytes) controller.enqueue(bytes);
    const tail = serializer.finish();
    if (tail) controller.enqueue(tail);
    controller.close();
    ended(error);
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const frames: StreamFrame[] = [];
      while (!done && frames.length === 0) {
        idle.touch();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (e) {
          return end(controller, frames, asProxyError(e, o.scope));
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
      trace?.caller.push(...frames);
      const bytes = serializer.push(frames);
      if (bytes) {
        o.scope.markFirstByte();
        controller.enqueue(bytes);
      }
    },
    async cancel(reason) {
      // The caller went away: stop the upstream at once.
      done = true;
      idle.stop();
      o.scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
      await reader.cancel(reason).catch(() => {});
      ended(new ProxyError('upstream', 'Caller disconnected.'));
    },
  });
}

export interface PassthroughOptions {
  scope: RequestScope;
  idleMs: number;
  /**
   * Parse the forwarded events alongside (SSE framing only): when the upstream breaks, stalls or
   * ends without its terminator, the caller gets its dialect's error event and a proper close.
   */
  verify?: {
    decoder: StreamStep<SseEvent, StreamEvent>;
    encoder: StreamStep<StreamEvent, StreamFrame>;
    maxBufferSize: number;
  };
}

/**
 * Same dialect on both sides: pipe the upstream bytes untouched, with the idle timeout and the
 * caller-disconnect abort still in force.
 */
export function passthroughStream(body: ReadableStream<Uint8Array>, o: PassthroughOptions): ReadableStream<Uint8Array> {
  const { scope, verify } = o;
  scope.streaming = true;
  const reader = body.getReader();
  const parser = verify && createSseChunkParser(verify.maxBufferSize);
  // With verification, only whole frames are forwarded: a frame cut by a broken upstream is
  // dropped instead of reaching the caller's SSE parser half-written.
  let held: Uint8Array | undefined;
  const wholeFrames = (chunk: Uint8Array): Uint8Array | undefined => {
    const data = held ? concat(held, chunk) : chunk;
    const end = lastFrameEnd(data);
    held = end < data.length ? data.slice(end) : undefined;
    return end > 0 ? data.subarray(0, end) : undefined;
  };
  let upstreamReportedError = false;
  const idle = idleTimer(o.idleMs, () => scope.abort(new ProxyError('timeout', `Upstream stream was idle for ${o.idleMs} ms.`)));

  const watch = (events: SseEvent[]) => {
    if (!verify) return;
    for (const e of events) {
      for (const out of verify.decoder.push(e)) {
        if (out.type === 'error') upstreamReportedError = true;
        else if (out.type === 'usage') scope.usage(out.usage.inputTokens, out.usage.outputTokens);
      }
    }
  };
  /** Close with the caller dialect's error frames (after ending any half-written frame). */
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: ProxyError) => {
    if (verify && !upstreamReportedError) {
      const frames = [...verify.encoder.push({ type: 'error', error }), ...verify.encoder.finish()];
      const bytes = createSerializer('sse').push(frames);
      if (bytes) controller.enqueue(bytes);
    }
    controller.close();
    scope.streamEnded();
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Keep reading until something is enqueued: a pull that enqueues nothing is not repeated.
      for (;;) {
        idle.touch();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (e) {
          idle.stop();
          return fail(controller, asProxyError(e, scope));
        }
        if (chunk.done) {
          idle.stop();
          if (parser && verify) {
            watch(parser.finish());
            const ended = verify.decoder.finish().find((e) => e.type === 'error');
            if (ended?.type === 'error' && !upstreamReportedError) return fail(controller, ended.error);
          }
          // A last frame the upstream did not end with a blank line is completed, so the
          // caller's SSE parser dispatches it too.
          if (held) controller.enqueue(concat(held, FRAME_END));
          controller.close();
          scope.streamEnded();
          return;
        }
        scope.markFirstByte();
        if (!parser) return controller.enqueue(chunk.value);
        watch(parser.push(chunk.value));
        const whole = wholeFrames(chunk.value);
        if (whole) return controller.enqueue(whole);
      }
    },
    async cancel(reason) {
      idle.stop();
      scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
      await reader.cancel(reason).catch(() => {});
      scope.streamEnded();
    },
  });
}

const FRAME_END = new Uint8Array([10, 10]);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Offset just past the last blank line (`\n\n` or `\n\r\n`), 0 if none. */
function lastFrameEnd(data: Uint8Array): number {
  for (let i = data.length - 1; i > 0; i--) {
    if (data[i] !== 10) continue;
    if (data[i - 1] === 10) return i + 1;
    if (data[i - 1] === 13 && i > 1 && data[i - 2] === 10) return i + 1;
  }
  return 0;
}
