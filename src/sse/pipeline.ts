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
 * The pipeline is a few named parts (pipeline-parts.ts): the deadlines, the frame splitter of a
 * forwarded stream, the wire trace for the dump, and, as one option, the terminal hold (`hold`:
 * the caller's last frames wait until the answer they carry is stored, then go out as the
 * step's `tail`).
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
import { asProxyError, type RequestScope } from '../observe/scope.ts';
import type { ByteStep, Emit } from './byte-step.ts';
import { FanIn } from './fan-in.ts';
import { createSseChunkParser, type SseChunkParser } from './parse.ts';
import { Deadlines, FrameSplitter, HeldFrames, nextFrameEnd, StreamTrace, type TerminalHold } from './pipeline-parts.ts';
import { createTextSerializer, type FrameSerializer, type Framing } from './serialize.ts';

export type { TerminalHold } from './pipeline-parts.ts';

/** The caller's encoder as the pipeline drives it (`CallerStreamEncoder` in translators/types.ts). */
export interface PipelineEncoder extends StreamStep<StreamEvent, StreamFrame> {
  /** Passthrough: a frame of the upstream's own stream went to the caller as it was. */
  forwarded?(frame: SseEvent): void;
  /** Once the terminal frame is out: the answer as the store keeps it (see `hold`). */
  kept?(): unknown;
}

export interface StreamPipelineOptions {
  scope: RequestScope;
  /** One decoder per upstream body; several merge into choices (fan-out). */
  decoders: ReadonlyArray<StreamStep<SseEvent, StreamEvent>>;
  /** Per lane, a parser for a host's own framing (else SSE, eventsource-parser). */
  parsers?: ReadonlyArray<SseChunkParser | undefined>;
  /** The caller's encoder: every frame when translating, only the closing error when forwarding. */
  encoder: PipelineEncoder;
  framing: Framing;
  /** Same dialect both sides: forward the upstream's frames byte for byte once checked. */
  passthrough?: boolean;
  /** Largest SSE frame accepted from the upstream (`limits.maxSseBufferBytes`). */
  maxFrameBytes: number;
  /** Longest silence of an upstream body. */
  idleMs: number;
  /** Hold the caller's last frames until the answer they carry is stored (a kept Responses answer). */
  hold?: TerminalHold;
}

interface Lane {
  parser: SseChunkParser;
  decoder: StreamStep<SseEvent, StreamEvent>;
  open: boolean;
  /** Passthrough: the bytes of a frame not yet complete wait here. */
  frames: FrameSplitter;
  /**
   * Passthrough: the upstream's own error, in a frame forwarded as it was (`upstreamFrame`); the
   * rest of its stream is forwarded frame for frame, and nothing of ours is added.
   */
  failed?: ProxyError;
}

export function streamPipeline(o: StreamPipelineOptions): ByteStep {
  return new StreamPipeline(o);
}

class StreamPipeline implements ByteStep {
  private readonly scope: RequestScope;
  private readonly serializer: FrameSerializer<string>;
  private readonly fanIn?: FanIn;
  private readonly trace?: StreamTrace;
  private readonly deadlines: Deadlines;
  private readonly lanes: Lane[];
  private readonly held?: HeldFrames;
  private closed = false;
  /** The reply's last text, once what the hold waits for is done. */
  private last?: Promise<string | undefined>;

  constructor(private readonly o: StreamPipelineOptions) {
    this.scope = o.scope;
    this.scope.streaming = true;
    this.serializer = createTextSerializer(o.framing);
    if (o.decoders.length > 1) this.fanIn = new FanIn();
    this.trace = StreamTrace.of(this.scope);
    this.deadlines = new Deadlines(this.scope, o.decoders.length, o.idleMs);
    this.lanes = o.decoders.map((decoder, i) => ({
      parser: o.parsers?.[i] ?? createSseChunkParser(o.maxFrameBytes),
      decoder,
      open: true,
      frames: new FrameSplitter(),
    }));
    if (o.hold) this.held = new HeldFrames(o.hold, () => o.encoder.kept?.());
  }

  // ---- the byte step ----------------------------------------------------------------------------

  get done(): boolean {
    return this.closed;
  }

  tail(): Promise<string | undefined> | undefined {
    const t = this.last;
    this.last = undefined;
    return t;
  }

  start(wake: () => void): void {
    this.deadlines.start(wake, () => this.closed);
  }

  flush(emit: Emit): void {
    const timedOut = this.deadlines.timedOut;
    if (timedOut) this.close(emit, [], timedOut);
  }

  push(lane: number, chunk: Uint8Array, emit: Emit): void {
    if (this.closed) return;
    this.deadlines.touch(lane);
    if (this.o.passthrough) this.forwardPush(lane, chunk, emit);
    else this.translatePush(lane, chunk, emit);
  }

  end(lane: number, emit: Emit): void {
    if (this.closed || !this.lanes[lane]!.open) return;
    this.endLane(lane, emit);
  }

  fail(_lane: number, e: unknown, emit: Emit): void {
    this.close(emit, [], asProxyError(e, this.scope, 'stream'));
  }

  cancel(): void {
    if (this.closed) return;
    // The caller went away: stop the upstreams at once.
    this.closed = true;
    const gone = new ProxyError('upstream', 'Caller disconnected.');
    this.scope.abort(gone);
    this.ended(gone);
  }

  // ---- the caller's side ------------------------------------------------------------------------

  /** The encoder's frames for `e`, as far as the hold lets them out now. */
  private encode(e: StreamEvent): StreamFrame[] {
    const frames = this.o.encoder.push(e);
    return this.held ? this.held.pass(frames) : frames;
  }

  private encodeFinish(): StreamFrame[] {
    const frames = this.o.encoder.finish();
    return this.held ? this.held.pass(frames) : frames;
  }

  private send(frames: StreamFrame[], emit: Emit): void {
    if (frames.length === 0) return;
    this.trace?.sent(frames);
    const text = this.serializer.push(frames);
    if (text) {
      this.scope.markFirstByte();
      emit(text);
    }
  }

  private ended(error?: ProxyError): void {
    this.deadlines.stop();
    this.trace?.flush(!!this.o.passthrough);
    this.scope.streamEnded(error);
  }

  /**
   * End the reply: the error event (or, translating, the summed usage) and the encoder's close.
   * A forwarded stream whose upstream already sent its own error frame gets nothing more.
   */
  private close(emit: Emit, frames: StreamFrame[], given?: ProxyError): void {
    if (this.closed) return;
    this.closed = true;
    const said = this.lanes.find((l) => l.failed)?.failed;
    const error = said ? undefined : given;
    // Every error names a request id (Anthropic's schema requires one): the upstream's, else ours.
    if (error) frames.push(...this.encode({ type: 'error', error: error.requestId ? error : error.with({ requestId: this.scope.requestId }) }));
    else if (this.fanIn) {
      const usage = this.fanIn.usage();
      if (usage) {
        this.scope.usage(usage);
        frames.push(...this.encode({ type: 'usage', usage }));
      }
    }
    if (error || !this.o.passthrough) frames.push(...this.encodeFinish());
    this.send(frames, emit);
    const held = this.held?.taken();
    if (held) {
      this.last = held.ready.then(() => {
        this.trace?.sent(held.frames);
        const text = (this.serializer.push(held.frames) ?? '') + (this.serializer.finish() ?? '');
        if (text) this.scope.markFirstByte();
        this.ended(error ?? said);
        return text || undefined;
      });
      return;
    }
    const last = this.serializer.finish();
    if (last) emit(last);
    this.ended(error ?? said);
  }

  // ---- the upstream's side ----------------------------------------------------------------------

  /**
   * Hand decoded events on (translating: to the encoder). Returns false once the stream has
   * closed on an error event.
   */
  private deliver(lane: number, events: StreamEvent[], frames: StreamFrame[], emit: Emit): boolean {
    const otel = this.scope.trace;
    for (const ev of events) {
      otel?.streamEvent(ev);
      if (ev.type === 'error' && this.o.passthrough && ev.upstreamFrame) {
        // The upstream's own error frame: forwarded as it is, with whatever the upstream sends after it.
        this.lanes[lane]!.failed = ev.error;
        return true;
      }
      if (ev.type === 'error') {
        this.close(emit, frames, ev.error);
        return false;
      }
      this.count(ev);
      if (this.o.passthrough) continue;
      const out = this.fanIn ? this.fanIn.route(lane, ev) : ev;
      if (out) frames.push(...this.encode(out));
    }
    return true;
  }

  /** What the request's scope learns from an event. */
  private count(ev: StreamEvent): void {
    const scope = this.scope;
    if (ev.type === 'usage' && !this.fanIn) scope.usage(ev.usage);
    // What the upstream has said so far: the estimate of a stream cut before its usage (docs/team.md).
    else if (ev.type === 'text-delta' || ev.type === 'reasoning-delta' || ev.type === 'refusal-delta') scope.streamedChars += ev.text.length;
    else if (ev.type === 'tool-call-delta') scope.streamedChars += ev.argumentsDelta.length;
    else if (ev.type === 'web-search') scope.searched();
  }

  /** Decode the events a parser produced; false once closed. */
  private decode(lane: number, events: SseEvent[], frames: StreamFrame[], emit: Emit): boolean {
    const l = this.lanes[lane]!;
    for (const e of events) {
      this.trace?.received(e);
      if (!l.failed && !this.deliver(lane, l.decoder.push(e), frames, emit)) return false;
      // Forwarding: the frame is checked and goes to the caller as it is.
      if (this.o.passthrough) this.o.encoder.forwarded?.(e);
    }
    // Every parser refuses a frame over the limit, however it arrived (the stream-parser suite).
    if (l.parser.error) {
      this.close(emit, frames, new ProxyError('upstream', `Upstream stream frame too large: ${l.parser.error.message}`));
      return false;
    }
    return true;
  }

  private translatePush(lane: number, chunk: Uint8Array, emit: Emit): void {
    const frames: StreamFrame[] = [];
    if (this.decode(lane, this.lanes[lane]!.parser.push(chunk), frames, emit)) this.send(frames, emit);
  }

  /** Forward whole frames that decode; a frame that does not closes the stream with an error. */
  private forwardPush(lane: number, chunk: Uint8Array, emit: Emit): void {
    const l = this.lanes[lane]!;
    const data = l.frames.join(chunk);
    let at = 0;
    let sent = 0;
    const flush = () => {
      if (at > sent) {
        this.scope.markFirstByte();
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
      if (!this.decode(lane, l.parser.push(data.subarray(at, end)), [], flushThenEmit)) return;
      at = end;
    }
    const waiting = l.frames.keep(data, at);
    flush();
    if (waiting > this.o.maxFrameBytes) {
      this.close(emit, [], new ProxyError('upstream', `Upstream stream frame too large: over ${this.o.maxFrameBytes} bytes.`));
    }
  }

  private endLane(lane: number, emit: Emit): void {
    const l = this.lanes[lane]!;
    l.open = false;
    this.deadlines.stopLane(lane);
    const frames: StreamFrame[] = [];
    // A last frame the upstream did not end with a blank line is completed, so the caller's SSE
    // parser dispatches it too — once it is known to decode. One cut before its data (an `event:`
    // line and nothing more) is no frame: never forwarded, the stream ends after the last whole
    // frame (with an error when the answer was not complete: the decoder's finish).
    let completed = this.o.passthrough ? l.frames.completeLast() : undefined;
    if (completed) {
      const events = l.parser.push(completed);
      if (events.length === 0) completed = undefined;
      if (!this.decode(lane, events, frames, emit)) return;
    }
    if (!this.decode(lane, l.parser.finish(), frames, emit)) return;
    if (completed) emit(completed);
    if (l.parser.eventCount === 0) {
      const msg = l.parser.sawBytes ? 'Upstream sent a stream with no events.' : 'Upstream closed the stream without sending anything.';
      return this.close(emit, frames, new ProxyError('upstream', msg));
    }
    if (!l.failed && !this.deliver(lane, l.decoder.finish(), frames, emit)) return;
    if (this.lanes.every((x) => !x.open)) this.close(emit, frames);
    else this.send(frames, emit);
  }
}
