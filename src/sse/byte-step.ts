/**
 * Streamed replies as a synchronous byte step between the upstream bodies and the caller: each
 * upstream chunk goes in, the caller's bytes come out at once (`emit`), with no stream object of
 * its own in between. A reply may read several upstream bodies at once (`n > 1` fan-out), each a
 * numbered lane. A runtime drives the step from whatever its upstream bodies are: Web
 * `ReadableStream`s (`PipeBody.toStream`, everywhere), or on Node the sockets' own data events
 * straight into the caller's socket (runtime/node-server.ts).
 */
/** Caller output: bytes as forwarded, or text (translated frames; encoded by whoever needs bytes). */
export type Emit = (chunk: Uint8Array | string) => void;

const encoder = new TextEncoder();

export interface ByteStep {
  /**
   * Reading begins (starts the idle deadlines). `wake` is how the step asks to end on its own,
   * between upstream chunks (a deadline passed, whether or not the upstream body honours the
   * abort): the driver then calls `flush` with an emit, stops reading and ends the reply.
   */
  start(wake: () => void): void;
  /** Emit what the step ends with after it called `wake` (the error ending); nothing otherwise. */
  flush(emit: Emit): void;
  /** One chunk of upstream body `lane`. */
  push(lane: number, chunk: Uint8Array, emit: Emit): void;
  /** Upstream body `lane` ended. */
  end(lane: number, emit: Emit): void;
  /** Upstream body `lane` failed (a network error, or the request's abort reason). */
  fail(lane: number, error: unknown, emit: Emit): void;
  /** The caller went away: stop the upstreams, emit nothing more. */
  cancel(): void;
  /** The reply is complete (or ended with an error): stop reading every lane, end the reply. */
  readonly done: boolean;
  /**
   * Once the upstreams are done: what the reply still ends with after something asynchronous
   * finished (a kept Responses answer's terminal event goes out only once it is stored), or
   * undefined when nothing is held. Called once; the runtime writes the text, then ends the reply.
   */
  tail?(): Promise<string | undefined> | undefined;
}

/** A streamed reply body: the upstream responses (one per lane) and the step their bytes go through. */
export class PipeBody {
  constructor(
    readonly upstreams: readonly Response[],
    readonly step: ByteStep,
  ) {}

  /** As a Web stream (Hono, Workers): read the upstream bodies in a pull loop. */
  toStream(): ReadableStream<Uint8Array> {
    return webPipe(
      this.upstreams.map((r) => r.body!),
      this.step,
    );
  }
}

type Read = { lane: number; result?: ReadableStreamReadResult<Uint8Array>; error?: unknown; failed?: boolean };

/** What a pull waits on besides the reads: the step asking to end (lane -1). */
const WOKEN: Read = { lane: -1 };

/** Drive `step` from Web streams: one read outstanding per open lane, handled as each completes. */
export function webPipe(bodies: readonly ReadableStream<Uint8Array>[], step: ByteStep): ReadableStream<Uint8Array> {
  const readers = bodies.map((b) => b.getReader());
  const open = readers.map(() => true);
  const pending: Array<Promise<Read> | undefined> = readers.map(() => undefined);
  const cancelAll = (reason?: unknown) => {
    readers.forEach((r, i) => {
      if (open[i]) r.cancel(reason).catch(() => {});
      open[i] = false;
    });
  };
  const next = (lane: number): Promise<Read> =>
    (pending[lane] ??= readers[lane]!.read().then(
      (result) => ({ lane, result }),
      (error: unknown) => ({ lane, error, failed: true }),
    ));
  let wake!: () => void;
  const woken = new Promise<Read>((resolve) => (wake = () => resolve(WOKEN)));
  return new ReadableStream<Uint8Array>({
    start() {
      step.start(wake);
    },
    async pull(controller) {
      // Keep reading until something is enqueued: a pull that enqueues nothing is not repeated.
      let emitted = false;
      const emit: Emit = (chunk) => {
        emitted = true;
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      };
      while (!emitted && !step.done) {
        const lanes = open.flatMap((o, i) => (o ? [i] : []));
        if (lanes.length === 0) break;
        // A read that never settles (a body deaf to the abort signal) loses the race to `woken`.
        const got = await Promise.race(lanes.length === 1 ? [next(lanes[0]!), woken] : [...lanes.map(next), woken]);
        if (got === WOKEN) {
          step.flush(emit);
          break;
        }
        pending[got.lane] = undefined;
        if (got.failed) {
          open[got.lane] = false;
          step.fail(got.lane, got.error, emit);
        } else if (got.result!.done) {
          open[got.lane] = false;
          step.end(got.lane, emit);
        } else {
          step.push(got.lane, got.result!.value, emit);
        }
      }
      if (step.done || open.every((o) => !o)) {
        cancelAll();
        const tail = step.tail?.();
        const text = tail && (await tail);
        try {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
        } catch {
          // The caller went away while the tail was held.
        }
      }
    },
    cancel(reason) {
      step.cancel();
      cancelAll(reason);
    },
  });
}

/**
 * The idle deadline of a stream: `touch()` on each chunk, `stop()` at the end. One timer that
 * re-arms itself for the remainder when it fires early, instead of a new timer per chunk.
 */
export function idleTimer(ms: number, onIdle: () => void): { touch(): void; stop(): void } {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const check = () => {
    const quiet = Date.now() - last;
    if (quiet >= ms) {
      timer = undefined;
      onIdle();
    } else timer = setTimeout(check, ms - quiet);
  };
  return {
    touch() {
      if (stopped) return;
      last = Date.now();
      timer ??= setTimeout(check, ms);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
