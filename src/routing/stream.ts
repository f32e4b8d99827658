/**
 * Piping an upstream SSE body to the caller, as byte steps (pipe.ts): bytes → SSE events
 * (eventsource-parser) → canonical events (upstream decoder) → caller frames (caller encoder) →
 * bytes, each upstream chunk translated and emitted before the next, so every event is flushed as
 * it arrives. Errors and idle timeouts become the caller dialect's error event and a proper close.
 */
import { ProxyError, type SseEvent, type StreamEvent, type StreamFrame, type StreamStep } from '../canonical/index.ts';
import { createSseChunkParser } from '../sse/parse.ts';
import { createTextSerializer, type Framing } from '../sse/serialize.ts';
import { jsonOrText } from './debug.ts';
import { idleTimer, type ByteStep, type Emit } from './pipe.ts';
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

/** Translate an upstream stream into the caller's dialect. */
export function translateStep(o: TranslateStreamOptions): ByteStep {
  const parser = createSseChunkParser(o.maxBufferSize);
  const serializer = createTextSerializer(o.framing);
  const { scope } = o;
  scope.streaming = true;
  // Wire dump only: what came in and what went out, dumped when the stream ends.
  const trace = scope.dump ? { upstream: [] as SseEvent[], caller: [] as StreamFrame[] } : undefined;
  let done = false;
  let stopped = false;
  const idle = idleTimer(o.idleMs, () => scope.abort(new ProxyError('timeout', `Upstream stream was idle for ${o.idleMs} ms.`)));

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
  const finish = (emit: Emit, frames: StreamFrame[], error?: ProxyError) => {
    if (done) return;
    done = true;
    idle.stop();
    if (error) encodeEvents([{ type: 'error', error }], frames);
    else encodeEvents(o.decoder.finish(), frames);
    for (const f of o.encoder.finish()) frames.push(f);
    trace?.caller.push(...frames);
    const text = serializer.push(frames);
    if (text) emit(text);
    const tail = serializer.finish();
    if (tail) emit(tail);
    ended(error);
  };

  return {
    get stopped() {
      return stopped;
    },
    start: () => idle.touch(),
    push(chunk, emit) {
      if (done) return;
      idle.touch();
      const frames: StreamFrame[] = [];
      decodeSse(parser.push(chunk), frames);
      if (parser.error) {
        stopped = true;
        return finish(emit, frames, new ProxyError('upstream', `Upstream stream frame too large: ${parser.error.message}`));
      }
      if (frames.length === 0) return;
      trace?.caller.push(...frames);
      const text = serializer.push(frames);
      if (text) {
        scope.markFirstByte();
        emit(text);
      }
    },
    end(emit) {
      const frames: StreamFrame[] = [];
      decodeSse(parser.finish(), frames);
      if (parser.eventCount === 0) {
        const msg = parser.sawBytes ? 'Upstream sent a stream with no events.' : 'Upstream closed the stream without sending anything.';
        return finish(emit, frames, new ProxyError('upstream', msg));
      }
      finish(emit, frames);
    },
    fail(e, emit) {
      finish(emit, [], asProxyError(e, scope));
    },
    cancel() {
      if (done) return;
      // The caller went away: stop the upstream at once.
      done = true;
      idle.stop();
      scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
      ended(new ProxyError('upstream', 'Caller disconnected.'));
    },
  };
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
 * Same dialect on both sides: the upstream bytes untouched, with the idle timeout and the
 * caller-disconnect abort still in force.
 */
export function passthroughStep(o: PassthroughOptions): ByteStep {
  const { scope, verify } = o;
  scope.streaming = true;
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
  let done = false;
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
  const over = () => {
    done = true;
    idle.stop();
    scope.streamEnded();
  };
  /** Close with the caller dialect's error frames (after ending any half-written frame). */
  const fail = (emit: Emit, error: ProxyError) => {
    if (done) return;
    if (verify && !upstreamReportedError) {
      const frames = [...verify.encoder.push({ type: 'error', error }), ...verify.encoder.finish()];
      const text = createTextSerializer('sse').push(frames);
      if (text) emit(text);
    }
    over();
  };

  return {
    stopped: false,
    start: () => idle.touch(),
    push(chunk, emit) {
      if (done) return;
      idle.touch();
      scope.markFirstByte();
      if (!parser) return emit(chunk);
      watch(parser.push(chunk));
      const whole = wholeFrames(chunk);
      if (whole) emit(whole);
    },
    end(emit) {
      if (done) return;
      if (parser && verify) {
        watch(parser.finish());
        const ended = verify.decoder.finish().find((e) => e.type === 'error');
        if (ended?.type === 'error' && !upstreamReportedError) return fail(emit, ended.error);
      }
      // A last frame the upstream did not end with a blank line is completed, so the
      // caller's SSE parser dispatches it too.
      if (held) emit(concat(held, FRAME_END));
      over();
    },
    fail(e, emit) {
      fail(emit, asProxyError(e, scope));
    },
    cancel() {
      if (done) return;
      scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
      over();
    },
  };
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
