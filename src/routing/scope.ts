/**
 * Per-request state of the generic flow: ids, clock, warnings, the upstream abort controller and
 * the fields of the one log line written when the request ends.
 */
import { ProxyError, type DialectId, type Warning } from '../canonical/index.ts';
import type { TranslateContext } from '../../translators/types.ts';

/**
 * An abort source as cheap as a flag: what a runtime's own client needs of the request's abort
 * (an AbortController and its listeners cost several µs per request on Node 20).
 */
export interface Cancel {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Call `fn` on abort; returns the unsubscribe. */
  onAbort(fn: () => void): () => void;
}

/** Upstream HTTP client. `connectTimeoutMs` is honoured where the runtime controls sockets. */
export type FetchLike = ((
  input: string,
  init: RequestInit & {
    connectTimeoutMs?: number;
    firstByteTimeoutMs?: number;
    /** Given instead of `signal` to a client that `handlesTimeouts`. */
    cancel?: Cancel;
  },
) => Promise<Response>) & {
  /**
   * The client enforces `firstByteTimeoutMs` itself (rejecting with a ProxyError 'timeout'),
   * so the flow need not build an AbortController and a timer per attempt.
   */
  handlesTimeouts?: boolean;
};

export interface LogEntry {
  time: string;
  requestId: string;
  route: string;
  caller: DialectId | 'none';
  upstream?: string;
  model?: string;
  status: number;
  durationMs: number;
  ttfbMs?: number;
  attempts?: number;
  /** The route's first choice failed and a later upstream served the request. */
  fallback?: boolean;
  /** Time spent waiting on the upstream (headers and body), for the proxy-overhead figure. */
  upstreamMs?: number;
  tokensIn?: number;
  tokensOut?: number;
  warnings?: string[];
  error?: string;
}

/** Per-request switches from headers and the route (see README "Debugging"). */
export interface RequestFlags {
  /** Any loss of meaning in translation becomes a 400. */
  strict: boolean;
  /** Answer with the upstream request that would be sent, instead of sending it. */
  dryRun: boolean;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random bytes drawn in blocks: one getRandomValues call per ~170 ids, not one per id. */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** A random base62 string (ids in responses, hosted image names). */
export function randomToken(length: number): string {
  if (length > pool.length) throw new RangeError('randomToken: length too large');
  if (poolAt + length > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[pool[poolAt++]! % 62];
  return out;
}

export class RequestScope implements TranslateContext, Cancel {
  readonly requestId: string;
  readonly started: number;
  readonly warnings: Warning[] = [];
  #controller?: AbortController;
  #reason?: ProxyError;
  #onAbort?: Array<() => void>;
  log: LogEntry;
  readonly flags: RequestFlags = { strict: false, dryRun: false };
  /** Wire dump sink (`--debug`); undefined when off, so nothing is collected. */
  dump?: (stage: string, data: unknown) => void;
  /** Set by a flow that answers with a stream: the log line waits for its end. */
  streaming = false;
  private onDone?: () => void;
  private firstByteAt?: number;

  constructor(
    route: string,
    requestId: string,
    private readonly clock: () => number,
  ) {
    this.requestId = requestId;
    this.started = clock();
    this.log = {
      time: '', // set when the line is written: no date formatting for requests never logged
      requestId,
      route,
      caller: 'none',
      status: 0,
      durationMs: 0,
    };
  }

  now(): number {
    return this.clock();
  }

  newId(prefix: string): string {
    return prefix + randomToken(24);
  }

  warn(list: readonly Warning[]): void {
    for (const w of list) this.warnings.push(w);
  }

  markFirstByte(): void {
    if (this.firstByteAt === undefined) this.firstByteAt = this.clock();
  }

  /**
   * Aborted on caller disconnect and timeouts. Made on first use: the Node path listens through
   * `onAbort` instead, so most requests never build one.
   */
  get upstreamAbort(): AbortController {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller;
  }

  get aborted(): boolean {
    return this.#reason !== undefined;
  }

  get reason(): ProxyError | undefined {
    return this.#reason;
  }

  onAbort(fn: () => void): () => void {
    (this.#onAbort ??= []).push(fn);
    return () => {
      const list = this.#onAbort;
      const i = list ? list.indexOf(fn) : -1;
      if (i >= 0) list!.splice(i, 1);
    };
  }

  /** Abort upstream work with a reason the flow can turn into the right error. */
  abort(reason: ProxyError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const list = this.#onAbort;
    this.#onAbort = undefined;
    if (list) for (const fn of list) fn();
  }

  /** Run `fn` once the request is over: now, or at the end of its stream. */
  whenDone(fn: () => void): void {
    if (this.streaming) this.onDone = fn;
    else fn();
  }

  /** A stream has ended (however it ended). */
  streamEnded(): void {
    const fn = this.onDone;
    this.onDone = undefined;
    this.streaming = false;
    fn?.();
  }

  addUpstreamTime(ms: number): void {
    this.log.upstreamMs = (this.log.upstreamMs ?? 0) + ms;
  }

  usage(inputTokens: number | undefined, outputTokens: number | undefined): void {
    if (inputTokens !== undefined) this.log.tokensIn = inputTokens;
    if (outputTokens !== undefined) this.log.tokensOut = outputTokens;
  }

  finishLog(status: number, error?: string): LogEntry {
    const end = this.clock();
    this.log.time = new Date(this.started).toISOString();
    this.log.status = status;
    this.log.durationMs = end - this.started;
    if (this.firstByteAt !== undefined) this.log.ttfbMs = this.firstByteAt - this.started;
    if (this.warnings.length) this.log.warnings = this.warnings.map((w) => `${w.code}:${w.path}`);
    if (error) this.log.error = error;
    return this.log;
  }
}

/** Turn whatever an upstream call threw into a ProxyError (abort reasons included). */
export function asProxyError(e: unknown, signal?: { readonly aborted: boolean; readonly reason: unknown }): ProxyError {
  if (e instanceof ProxyError) return e;
  if (signal?.aborted && signal.reason instanceof ProxyError) return signal.reason;
  const message = e instanceof Error ? e.message : String(e);
  return new ProxyError('upstream', `Upstream unreachable: ${message}`, { status: 502 });
}
