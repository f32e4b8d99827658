/**
 * Streamed replies as a synchronous byte step between the upstream body and the caller: each
 * upstream chunk goes in, the caller's bytes come out at once (`emit`), with no stream object of
 * its own in between. A runtime drives the step from whatever its upstream body is: the Web
 * `ReadableStream` (`webPipe`, everywhere), or on Node the socket's own data events straight
 * into the caller's socket (runtime/node-server.ts), which saves two Web streams and their
 * promises per chunk.
 */
/** Caller output: bytes as forwarded, or text (translated frames; encoded by whoever needs bytes). */
export type Emit = (chunk: Uint8Array | string) => void;

const encoder = new TextEncoder();

export interface ByteStep {
  /** Reading begins (starts the idle deadline). */
  start(): void;
  /** One upstream chunk. */
  push(chunk: Uint8Array, emit: Emit): void;
  /** The upstream body ended. */
  end(emit: Emit): void;
  /** The upstream body failed (a network error, or the request's abort reason). */
  fail(error: unknown, emit: Emit): void;
  /** The caller went away: stop the upstream, emit nothing more. */
  cancel(): void;
  /** The step ended the stream itself (an oversized frame): stop reading, end the reply. */
  readonly stopped: boolean;
}

/** A streamed reply body: the upstream response and the step its bytes go through. */
export class PipeBody {
  constructor(
    readonly upstream: Response,
    readonly step: ByteStep,
  ) {}

  /** As a Web stream (Hono, Workers): read the upstream body in a pull loop. */
  toStream(): ReadableStream<Uint8Array> {
    return webPipe(this.upstream.body!, this.step);
  }
}

export function webPipe(body: ReadableStream<Uint8Array>, step: ByteStep): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let over = false;
  return new ReadableStream<Uint8Array>({
    start() {
      step.start();
    },
    async pull(controller) {
      // Keep reading until something is enqueued: a pull that enqueues nothing is not repeated.
      let emitted = false;
      const emit: Emit = (chunk) => {
        emitted = true;
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      };
      while (!emitted && !over) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (e) {
          over = true;
          step.fail(e, emit);
          break;
        }
        if (chunk.done) {
          over = true;
          step.end(emit);
          break;
        }
        step.push(chunk.value, emit);
        if (step.stopped) {
          over = true;
          await reader.cancel().catch(() => {});
        }
      }
      if (over) controller.close();
    },
    async cancel(reason) {
      over = true;
      step.cancel();
      await reader.cancel(reason).catch(() => {});
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
