/**
 * THE stream pipeline: every streamed reply — translated, same-dialect passthrough, and `n > 1`
 * fan-out merged from several upstream streams — goes through this one byte step (byte-step.ts),
 * with one set of checks:
 *
 *   upstream bytes → SSE events (eventsource-parser, frame size capped) → canonical events (the
 *   upstream dialect's decoder) → [fan-in] → the caller's frames (the caller dialect's encoder)
 *   → text out, each upstream chunk handled and emitted before the next.
 *
 * Passthrough (same dialect) forwards the upstream's own bytes, whole frames only, each frame
 * decoded first so that nothing unchecked reaches the caller; nothing well-formed is re-serialised.
 *
 * Every stream ends either the way its dialect ends a complete answer, because the upstream
 * completed, or with the caller dialect's error event and a proper close: an oversized frame, a
 * frame that does not decode (half-written, invalid JSON, wrong shape), an in-stream error object,
 * an upstream that stops before its terminator (decoders report that at `finish()`), a stream
 * with no events, idle and total deadlines, and network failures. A deadline ends the stream from
 * here (the step wakes its driver, which stops reading and cancels the upstream bodies): it does
 * not wait for an upstream body to honour the abort signal.
 *
 * A same-dialect error ending continues the stream the caller already has: the encoder is shown
 * each forwarded frame (`forwarded`), so that, say, a Responses stream fails with the upstream's
 * own response id and the next sequence numbers, not with a second response. A same-dialect
 * stream the upstream fails itself, in a well-formed frame (an error event, a failed response:
 * the decoder's `upstreamFrame`), is not ended by us at all: that frame and whatever follows it
 * go to the caller as the upstream sent them, frame for frame. A frame cut before its data (an
 * `event:` line, then the end of the body) is never forwarded.
 */
import { ProxyError, type SseEvent, type StreamEvent, type StreamFrame, type StreamStep } from '../canonical/index.ts';
import { jsonOrText } from '../observe/debug.ts';
import { asProxyError, type RequestScope } from '../observe/scope.ts';
import { idleTimer, type ByteStep, type Emit } from './byte-step.ts';
import { FanIn } from './fan-in.ts';
import { createSseChunkParser, type SseChunkParser } from './parse.ts';
import { createTextSerializer, type Framing } from './serialize.ts';

/**
 * A caller encoder that holds its last frames back until something asynchronous is done (a
 * Responses answer kept in the state store before its terminal event goes out: src/flows/state.ts).
 */
export interface HoldingStep extends StreamStep<StreamEvent, StreamFrame> {
  /** The frames held and what they wait for; undefined when nothing is held. */
  held?(): { frames: StreamFrame[]; ready: Promise<void> } | undefined;
}

/** The caller's encoder as the pipeline drives it (`CallerStreamEncoder` in translators/types.ts). */
export interface PipelineEncoder extends StreamStep<StreamEvent, StreamFrame> {
  /** Passthrough: a frame of the upstream's own stream went to the caller as it was. */
  forwarded?(frame: SseEvent): void;
}

export interface StreamPipelineOptions {
  scope: RequestScope;
  /** One decoder per upstream body; several merge into choices (fan-out). */
  decoders: ReadonlyArray<StreamStep<SseEvent, StreamEvent>>;
  /** Per lane, a parser for a host's own framing (else SSE, eventsource-parser). */
  parsers?: ReadonlyArray<SseChunkParser | undefined>;
  /** The caller's encoder: every frame when translating, only the closing error when forwarding. */
  encoder: HoldingStep & PipelineEncoder;
  framing: Framing;
  /** Same dialect both sides: forward the upstream's frames byte for byte once checked. */
  passthrough?: boolean;
  /** Largest SSE frame accepted from the upstream (`limits.maxSseBufferBytes`). */
  maxFrameBytes: number;
  /** Longest silence of an upstream body. */
  idleMs: number;
}

interface Lane {
  parser: SseChunkParser;
  decoder: StreamStep<SseEvent, StreamEvent>;
  idle: { touch(): void; stop(): void };
  open: boolean;
  /** Passthrough: bytes of a frame not yet complete. */
  held?: Uint8Array;
  /**
   * Passthrough: the upstream's own error, in a frame forwarded as it was (`upstreamFrame`); the
   * rest of its stream is forwarded frame for frame, and nothing of ours is added.
   */
  failed?: ProxyError;
}

const FRAME_END = new Uint8Array([10, 10]);

export function streamPipeline(o: StreamPipelineOptions): ByteStep {
  const { scope, encoder } = o;
  scope.streaming = true;
  const serializer = createTextSerializer(o.framing);
  const fanIn = o.decoders.length > 1 ? new FanIn() : undefined;
  // Wire dump only: what came in and what we made, dumped when the stream ends.
  // With the clock reading of each, for the inspector's timeline.
  const trace = scope.dump ? { upstream: [] as SseEvent[], upAt: [] as number[], caller: [] as StreamFrame[], callerAt: [] as number[] } : undefined;
  const stamp = (list: number[], n: number) => {
    const t = scope.now();
    for (let i = 0; i < n; i++) list.push(t);
  };
  const onIdle = () => scope.abort(new ProxyError('timeout', `Upstream stream was idle for ${o.idleMs} ms.`));
  const lanes: Lane[] = o.decoders.map((decoder, i) => ({
    parser: o.parsers?.[i] ?? createSseChunkParser(o.maxFrameBytes),
    decoder,
    idle: idleTimer(o.idleMs, onIdle),
    open: true,
  }));
  let done = false;
  /** The reply's last text, once what the encoder held its frames for is done. */
  let tail: Promise<string | undefined> | undefined;
  /** A deadline passed: the error to end with once the driver calls `flush`. */
  let timedOut: ProxyError | undefined;
  let unwatch: (() => void) | undefined;

  const send = (frames: StreamFrame[], emit: Emit) => {
    if (frames.length === 0) return;
    if (trace) {
      trace.caller.push(...frames);
      stamp(trace.callerAt, frames.length);
    }
    const text = serializer.push(frames);
    if (text) {
      scope.markFirstByte();
      emit(text);
    }
  };

  const ended = (error?: ProxyError) => {
    for (const l of lanes) l.idle.stop();
    unwatch?.();
    if (trace) {
      scope.dump!('upstream events', trace.upstream.map((e) => (e.event ? { event: e.event, data: jsonOrText(e.data) } : jsonOrText(e.data))), trace.upAt);
      if (trace.caller.length) scope.dump!(o.passthrough ? 'caller frames (added to the forwarded stream)' : 'caller frames', trace.caller.map((f) => (f.event ? { event: f.event, data: jsonOrText(f.data) } : jsonOrText(f.data))), trace.callerAt);
    }
    scope.streamEnded(error);
  };

  /** The upstream's own error a forwarded stream ended on (see `Lane.failed`). */
  const forwardedError = () => lanes.find((l) => l.failed)?.failed;

  /**
   * End the reply: the error event (or, translating, the summed usage) and the encoder's close.
   * A forwarded stream whose upstream already sent its own error frame gets nothing more.
   */
  const close = (emit: Emit, frames: StreamFrame[], given?: ProxyError) => {
    if (done) return;
    done = true;
    const said = forwardedError();
    const error = said ? undefined : given;
    // Every error names a request id (Anthropic's schema requires one): the upstream's, else ours.
    if (error) frames.push(...encoder.push({ type: 'error', error: error.requestId ? error : error.with({ requestId: scope.requestId }) }));
    else if (fanIn) {
      const usage = fanIn.usage();
      if (usage) {
        scope.usage(usage);
        frames.push(...encoder.push({ type: 'usage', usage }));
      }
    }
    if (error || !o.passthrough) frames.push(...encoder.finish());
    send(frames, emit);
    const held = encoder.held?.();
    if (held) {
      tail = held.ready.then(() => {
        if (trace) {
          trace.caller.push(...held.frames);
          stamp(trace.callerAt, held.frames.length);
        }
        const text = (serializer.push(held.frames) ?? '') + (serializer.finish() ?? '');
        if (text) scope.markFirstByte();
        ended(error ?? said);
        return text || undefined;
      });
      return;
    }
    const last = serializer.finish();
    if (last) emit(last);
    ended(error ?? said);
  };

  /**
   * Hand decoded events on (translating: to the encoder). Returns false once the stream has
   * closed on an error event.
   */
  const deliver = (lane: number, events: StreamEvent[], frames: StreamFrame[], emit: Emit): boolean => {
    const otel = scope.trace;
    for (const ev of events) {
      otel?.streamEvent(ev);
      if (ev.type === 'error' && o.passthrough && ev.upstreamFrame) {
        // The upstream's own error frame: forwarded as it is, with whatever the upstream sends after it.
        lanes[lane]!.failed = ev.error;
        return true;
      }
      if (ev.type === 'error') {
        close(emit, frames, ev.error);
        return false;
      }
      if (ev.type === 'usage' && !fanIn) scope.usage(ev.usage);
      // What the upstream has said so far: the estimate of a stream cut before its usage (docs/team.md).
      else if (ev.type === 'text-delta' || ev.type === 'reasoning-delta' || ev.type === 'refusal-delta') scope.streamedChars += ev.text.length;
      else if (ev.type === 'tool-call-delta') scope.streamedChars += ev.argumentsDelta.length;
      else if (ev.type === 'web-search') scope.searched();
      if (o.passthrough) continue;
      const out = fanIn ? fanIn.route(lane, ev) : ev;
      if (out) frames.push(...encoder.push(out));
    }
    return true;
  };

  /** Decode the events a parser produced; false once closed. */
  const decode = (lane: number, events: SseEvent[], frames: StreamFrame[], emit: Emit): boolean => {
    const l = lanes[lane]!;
    for (const e of events) {
      if (trace) {
        trace.upstream.push(e);
        trace.upAt.push(scope.now());
      }
      if (!l.failed && !deliver(lane, l.decoder.push(e), frames, emit)) return false;
      // Forwarding: the frame is checked and goes to the caller as it is.
      if (o.passthrough) encoder.forwarded?.(e);
    }
    // Every parser refuses a frame over the limit, however it arrived (the stream-parser suite).
    if (l.parser.error) {
      close(emit, frames, new ProxyError('upstream', `Upstream stream frame too large: ${l.parser.error.message}`));
      return false;
    }
    return true;
  };

  const translatePush = (lane: number, chunk: Uint8Array, emit: Emit) => {
    const frames: StreamFrame[] = [];
    if (decode(lane, lanes[lane]!.parser.push(chunk), frames, emit)) send(frames, emit);
  };

  /** Forward whole frames that decode; a frame that does not closes the stream with an error. */
  const forwardPush = (lane: number, chunk: Uint8Array, emit: Emit) => {
    const l = lanes[lane]!;
    const data = l.held ? concat(l.held, chunk) : chunk;
    let at = 0;
    let sent = 0;
    const flush = () => {
      if (at > sent) {
        scope.markFirstByte();
        emit(data.subarray(sent, at));
        sent = at;
      }
    };
    // Closing on a bad frame: the good frames before it go out first, then the error.
    const flushThenEmit: Emit = (text) => {
      flush();
      emit(text);
    };
    for (let end = nextFrameEnd(data, 0); end > 0; end = nextFrameEnd(data, at)) {
      if (!decode(lane, l.parser.push(data.subarray(at, end)), [], flushThenEmit)) return;
      at = end;
    }
    l.held = at < data.length ? data.slice(at) : undefined;
    flush();
    if (l.held && l.held.byteLength > o.maxFrameBytes) {
      close(emit, [], new ProxyError('upstream', `Upstream stream frame too large: over ${o.maxFrameBytes} bytes.`));
    }
  };

  const endLane = (lane: number, emit: Emit) => {
    const l = lanes[lane]!;
    l.open = false;
    l.idle.stop();
    const frames: StreamFrame[] = [];
    let completed: Uint8Array | undefined;
    if (o.passthrough && l.held) {
      // A last frame the upstream did not end with a blank line is completed, so the caller's
      // SSE parser dispatches it too — once it is known to decode. One cut before its data (an
      // `event:` line and nothing more) is no frame: never forwarded, the stream ends after the
      // last whole frame (with an error when the answer was not complete: the decoder's finish).
      completed = concat(l.held, FRAME_END);
      l.held = undefined;
      const events = l.parser.push(completed);
      if (events.length === 0) completed = undefined;
      if (!decode(lane, events, frames, emit)) return;
    }
    if (!decode(lane, l.parser.finish(), frames, emit)) return;
    if (completed) emit(completed);
    if (l.parser.eventCount === 0) {
      const msg = l.parser.sawBytes ? 'Upstream sent a stream with no events.' : 'Upstream closed the stream without sending anything.';
      return close(emit, frames, new ProxyError('upstream', msg));
    }
    if (!l.failed && !deliver(lane, l.decoder.finish(), frames, emit)) return;
    if (lanes.every((x) => !x.open)) close(emit, frames);
    else send(frames, emit);
  };

  return {
    get done() {
      return done;
    },
    tail() {
      const t = tail;
      tail = undefined;
      return t;
    },
    start(wake) {
      for (const l of lanes) l.idle.touch();
      // Idle and total deadlines abort the request (scope.setDeadline, onIdle above); the stream
      // ends here on it, not when (or if) the upstream body gives up on the abort signal.
      const timeUp = () => {
        if (done || timedOut) return;
        timedOut = scope.reason ?? new ProxyError('timeout', 'The request was aborted.');
        wake();
      };
      if (scope.aborted) queueMicrotask(timeUp);
      else unwatch = scope.onAbort(timeUp);
    },
    flush(emit) {
      if (timedOut) close(emit, [], timedOut);
    },
    push(lane, chunk, emit) {
      if (done) return;
      lanes[lane]!.idle.touch();
      if (o.passthrough) forwardPush(lane, chunk, emit);
      else translatePush(lane, chunk, emit);
    },
    end(lane, emit) {
      if (done || !lanes[lane]!.open) return;
      endLane(lane, emit);
    },
    fail(_lane, e, emit) {
      close(emit, [], asProxyError(e, scope, 'stream'));
    },
    cancel() {
      if (done) return;
      // The caller went away: stop the upstreams at once.
      done = true;
      const gone = new ProxyError('upstream', 'Caller disconnected.');
      scope.abort(gone);
      ended(gone);
    },
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Offset just past the first blank line (`\n\n` or `\n\r\n`) at or after `from`; 0 if none. */
function nextFrameEnd(data: Uint8Array, from: number): number {
  for (let i = data.indexOf(10, from); i >= 0; i = data.indexOf(10, i + 1)) {
    const next = data[i + 1];
    if (next === 10) return i + 2;
    if (next === 13 && data[i + 2] === 10) return i + 3;
  }
  return 0;
}
