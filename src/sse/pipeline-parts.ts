/**
 * The named parts of the stream pipeline (pipeline.ts): the deadlines that end a stream from
 * here, the frame splitter of a forwarded stream, the wire trace for the dump, and the terminal
 * hold (the caller's last frames kept back until the answer they carry is stored).
 */
import { ProxyError, type SseEvent, type StreamFrame } from '../canonical/index.ts';
import { jsonOrText } from '../observe/debug.ts';
import type { RequestScope } from '../observe/scope.ts';
import { idleTimer } from './byte-step.ts';

/**
 * Idle (per upstream body) and total deadlines. Either aborts the request (scope.setDeadline,
 * the idle timer here); the stream then ends from the pipeline (`timedOut`, after `wake`), not
 * when (or if) the upstream body gives up on the abort signal.
 */
export class Deadlines {
  private readonly idle: Array<{ touch(): void; stop(): void }>;
  private unwatch?: () => void;
  /** A deadline passed: the error to end with once the driver calls `flush`. */
  timedOut?: ProxyError;

  constructor(
    private readonly scope: RequestScope,
    lanes: number,
    idleMs: number,
  ) {
    const onIdle = () => scope.abort(new ProxyError('timeout', `Upstream stream was idle for ${idleMs} ms.`));
    this.idle = Array.from({ length: lanes }, () => idleTimer(idleMs, onIdle));
  }

  /** Reading begins; `wake` asks the driver to end the stream, unless it is `done` already. */
  start(wake: () => void, done: () => boolean): void {
    for (const t of this.idle) t.touch();
    const timeUp = () => {
      if (done() || this.timedOut) return;
      this.timedOut = this.scope.reason ?? new ProxyError('timeout', 'The request was aborted.');
      wake();
    };
    if (this.scope.aborted) queueMicrotask(timeUp);
    else this.unwatch = this.scope.onAbort(timeUp);
  }

  /** A chunk of body `lane` came. */
  touch(lane: number): void {
    this.idle[lane]!.touch();
  }

  /** Body `lane` ended. */
  stopLane(lane: number): void {
    this.idle[lane]!.stop();
  }

  /** The stream ended. */
  stop(): void {
    for (const t of this.idle) t.stop();
    this.unwatch?.();
  }
}

const FRAME_END = new Uint8Array([10, 10]);

/**
 * A forwarded body cut into whole SSE frames: the bytes of a frame not yet complete wait for the
 * next chunk.
 */
export class FrameSplitter {
  private rest?: Uint8Array;

  /** `chunk` after the waiting bytes of the frame it continues. */
  join(chunk: Uint8Array): Uint8Array {
    return this.rest ? concat(this.rest, chunk) : chunk;
  }

  /** Keep what follows `at` in `data` (an unfinished frame); its length. */
  keep(data: Uint8Array, at: number): number {
    this.rest = at < data.length ? data.slice(at) : undefined;
    return this.rest?.byteLength ?? 0;
  }

  /** The body ended: its unfinished last frame completed with a blank line; undefined if none. */
  completeLast(): Uint8Array | undefined {
    const rest = this.rest;
    this.rest = undefined;
    return rest && concat(rest, FRAME_END);
  }
}

/** Offset just past the first blank line (`\n\n` or `\n\r\n`) at or after `from`; 0 if none. */
export function nextFrameEnd(data: Uint8Array, from: number): number {
  for (let i = data.indexOf(10, from); i >= 0; i = data.indexOf(10, i + 1)) {
    const next = data[i + 1];
    if (next === 10) return i + 2;
    if (next === 13 && data[i + 2] === 10) return i + 3;
  }
  return 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * The wire dump's record of a stream: what came in and what we made, each with its clock
 * reading (the inspector's timeline), dumped when the stream ends. Made only when dumping is on.
 */
export class StreamTrace {
  private readonly upstream: SseEvent[] = [];
  private readonly upAt: number[] = [];
  private readonly caller: StreamFrame[] = [];
  private readonly callerAt: number[] = [];

  private constructor(
    private readonly scope: RequestScope,
    private readonly dump: NonNullable<RequestScope['dump']>,
  ) {}

  static of(scope: RequestScope): StreamTrace | undefined {
    return scope.dump ? new StreamTrace(scope, scope.dump) : undefined;
  }

  received(e: SseEvent): void {
    this.upstream.push(e);
    this.upAt.push(this.scope.now());
  }

  sent(frames: readonly StreamFrame[]): void {
    this.caller.push(...frames);
    const t = this.scope.now();
    for (let i = 0; i < frames.length; i++) this.callerAt.push(t);
  }

  /** At the end: both lists to the dump (`passthrough`: ours are only what was added to the forwarded stream). */
  flush(passthrough: boolean): void {
    const shown = (e: SseEvent | StreamFrame) => (e.event ? { event: e.event, data: jsonOrText(e.data) } : jsonOrText(e.data));
    this.dump('upstream events', this.upstream.map(shown), this.upAt);
    if (this.caller.length) this.dump(passthrough ? 'caller frames (added to the forwarded stream)' : 'caller frames', this.caller.map(shown), this.callerAt);
  }
}

/**
 * Hold the last frame until the answer is stored: a caller that sends its next turn the moment
 * it reads the terminal event (Responses `response.completed`) finds the answer kept (Redis, KV,
 * another instance), and on Workers the write finishes while the response is still open.
 */
export interface TerminalHold {
  /** The answer a caller frame carries (its terminal event), else undefined. Fresh per stream: it may collect. */
  answerOf(frame: StreamFrame): unknown;
  /** Keep the answer (what the encoder's `kept()` gives, when it has one): the frames from it on wait for this. */
  keep(answer: unknown): Promise<void>;
}

/** The hold at work on one stream: the caller's frames, up to the one that carries the answer. */
export class HeldFrames {
  private held?: { frames: StreamFrame[]; ready: Promise<void> };

  constructor(
    private readonly hold: TerminalHold,
    /** The encoder's fuller answer for the store (`CallerStreamEncoder.kept`). */
    private readonly kept: () => unknown,
  ) {}

  /** What of `frames` goes out now; from the answer's frame on, the rest is held. */
  pass(frames: StreamFrame[]): StreamFrame[] {
    if (this.held) {
      this.held.frames.push(...frames);
      return [];
    }
    for (let at = 0; at < frames.length; at++) {
      const answer = this.hold.answerOf(frames[at]!);
      if (answer === undefined) continue;
      this.held = { frames: frames.slice(at), ready: this.hold.keep(this.kept() ?? answer) };
      return frames.slice(0, at);
    }
    return frames;
  }

  /** The frames held and what they wait for; undefined when nothing is held. */
  taken(): { frames: StreamFrame[]; ready: Promise<void> } | undefined {
    return this.held;
  }
}
