/**
 * Per-request state of the generic flow: ids, clock, warnings, the upstream abort controller and
 * the fields of the one log line written when the request ends.
 */
import { ProxyError, sumUsage, type Usage, type Warning } from '../canonical/index.ts';
import { type Cancel } from '../kit/index.ts';
import type { TranslateContext } from '../../translators/types.ts';
import type { LogEntry, WebRun } from './log-entry.ts';
import type { RequestTrace } from './traces.ts';

export type { LogEntry } from './log-entry.ts';

/** Per-request switches from headers and the route (see docs/debugging.md). */
export interface RequestFlags {
  /** Any loss of meaning in translation becomes a 400. */
  strict: boolean;
  /** Answer with the upstream request that would be sent, instead of sending it. */
  dryRun: boolean;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random bytes drawn in blocks: one getRandomValues call per ~160 ids, not one per id. */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/**
 * A random base62 string (ids in responses, hosted image names): every character uniform, log2(62)
 * ≈ 5.95 bits each (a byte of 248 or more is drawn again, so `% 62` favours none), so the 24 of
 * `newId` hold about 143 bits.
 */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    if (poolAt >= pool.length) {
      crypto.getRandomValues(pool);
      poolAt = 0;
    }
    const b = pool[poolAt++]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
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
  /** OpenTelemetry spans of this request (`telemetry`); undefined when off, so nothing is made. */
  trace?: RequestTrace;
  /**
   * Wire dump sink (`--debug`, the inspector); undefined when off, so nothing is collected.
   * `times`: for a list of stream events, the clock reading at each.
   */
  dump?: (stage: string, data: unknown, times?: readonly number[]) => void;
  /** Set by a flow that answers with a stream: the log line waits for its end. */
  streaming = false;
  /** The model sent to the upstream that served the request (its cost is priced by it). */
  servedModel?: string;
  /** The upstream's last word on the usage of the call that served the request. */
  reported?: Usage;
  /** The request asked Anthropic for the 1-hour cache TTL (priced so when the upstream does not split its writes). */
  longCacheTtl = false;
  /** Characters of text, reasoning and tool arguments streamed from upstream (a cut stream's estimate). */
  streamedChars = 0;
  /** Bytes of the caller's request body (a cut stream's input estimate, when the upstream said none). */
  requestBytes?: number;
  /** Log-only warnings (`code:path`), never shown to the caller (a limit store that failed). */
  #notes?: string[];
  private onDone?: () => void;
  private firstByteAt?: number;
  #deadline?: ReturnType<typeof setTimeout>;
  /** What the calls before this one used (`settleUsage`). */
  #settled?: Usage;
  /** How a stream ended, when it ended with an error (for the log line). */
  #streamError?: ProxyError;

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

  /** `prefix` and 24 random base62 characters (~143 bits): ids the proxy mints, never an upstream's. */
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

  /**
   * The whole request, stream included, must be over within `ms` (`timeouts.totalMs`): past it
   * the upstream work is aborted with a timeout, which a non-stream request answers with a 504 and
   * a stream ends with its dialect's error event: the stream pipeline listens (`onAbort`) and ends
   * the caller's stream itself, whether or not the upstream body honours the abort signal
   * (sse/pipeline.ts). Cleared when the request is over.
   */
  setDeadline(ms: number): void {
    if (this.#deadline !== undefined || this.aborted) return;
    this.#deadline = setTimeout(() => this.abort(new ProxyError('timeout', `The request did not complete within ${ms} ms (timeouts.totalMs).`)), ms);
  }

  /** Run `fn` once the request is over: now, or at the end of its stream. */
  whenDone(fn: () => void): void {
    if (this.streaming) this.onDone = fn;
    else this.#over(fn);
  }

  /** A stream has ended (however it ended; `error` when it ended with one). */
  streamEnded(error?: ProxyError): void {
    if (error) this.#streamError = error;
    const fn = this.onDone;
    this.onDone = undefined;
    this.streaming = false;
    this.#over(fn);
  }

  #over(fn?: () => void): void {
    clearTimeout(this.#deadline);
    this.#deadline = undefined;
    fn?.();
  }

  addUpstreamTime(ms: number): void {
    this.log.upstreamMs = (this.log.upstreamMs ?? 0) + ms;
  }

  /**
   * A call of this request is over and another follows (a summarising turn before the turn,
   * src/flows/compaction.ts): what it used counts beside what the next call reports.
   */
  settleUsage(): void {
    if (!this.reported) return;
    this.#settled = this.reported;
    this.reported = undefined;
  }

  /** The upstream reported usage (a stream's events each carry the whole count so far). */
  usage(reported: Usage | undefined): void {
    if (!reported) return;
    const u = this.#settled ? sumUsage([this.#settled, reported])! : reported;
    this.reported = u;
    this.log.tokensIn = u.inputTokens;
    this.log.tokensOut = u.outputTokens;
    if (u.cost !== undefined) {
      // Only a Chat Completions caller has a place for it (OpenRouter's `usage.cost`): reported once.
      if (this.log.caller !== 'openai-chat' && this.log.cost === undefined) this.warn([{ code: 'dropped', path: 'usage.cost' }]);
      this.log.cost = u.cost;
    }
  }

  /** The upstream ran hosted web searches or fetches for the answer: counted on the log line. */
  searched(n = 1): void {
    if (n > 0) this.log.webSearches = (this.log.webSearches ?? 0) + n;
  }

  /**
   * A search or page read the proxy ran itself (src/flows/web-search-run.ts): on the log line
   * (without what was asked), a span, the inspector's notes. Counted in `webSearches` where its
   * result reaches the answer (a `web-search` part or event), as a hosted one is.
   */
  ranWeb(run: WebRun): void {
    const { what: _what, startMs: _start, ...line } = run;
    (this.log.webRuns ??= []).push(line);
    this.trace?.webRun(run);
    this.dump?.(`web ${run.kind} (${run.backend})`, { [run.kind === 'search' ? 'query' : 'url']: run.what, results: run.results, ms: run.ms, ...(run.error && { error: run.error }) });
  }

  /** A warning for the log line only (`code:path`): the operator's, not the caller's. */
  note(token: string): void {
    (this.#notes ??= []).push(token);
  }

  /** The stream ended on an error (the upstream's, a deadline, the caller gone): cut short. */
  get streamCut(): boolean {
    return this.#streamError !== undefined;
  }

  finishLog(status: number, error?: string): LogEntry {
    const end = this.clock();
    this.log.time = new Date(this.started).toISOString();
    this.log.status = status;
    this.log.durationMs = end - this.started;
    if (this.firstByteAt !== undefined) this.log.ttfbMs = this.firstByteAt - this.started;
    if (this.warnings.length || this.#notes) this.log.warnings = [...this.warnings.map((w) => `${w.code}:${w.path}`), ...(this.#notes ?? [])];
    const failed = error ?? (this.#streamError && errorLine(this.#streamError));
    if (failed) this.log.error = failed;
    return this.log;
  }
}

/** An error as the log line and the debug dump say it: kind, message, and the operator's detail. */
export function errorLine(e: ProxyError): string {
  return `${e.kind}: ${e.message}${e.detail ? ` (${e.detail})` : ''}`;
}

/**
 * Where an upstream call failed: before it answered (`connect`), while its body was read
 * (`body`), or while its stream was piped (`stream`). An upstream that answered was reached: what
 * failed after is the connection closing early.
 */
export type UpstreamPhase = 'connect' | 'body' | 'stream';

const CLOSED_EARLY: Record<Exclude<UpstreamPhase, 'connect'>, string> = {
  body: 'Upstream closed the connection before its answer was complete.',
  stream: 'Upstream closed the stream early.',
};

/** A network failure's reason in a few words, from its code (on the error or its `cause`). */
function networkReason(e: unknown): string | undefined {
  const code = [(e as { code?: unknown })?.code, (e as { cause?: { code?: unknown } })?.cause?.code].find((c) => typeof c === 'string') as string | undefined;
  if (!code) return undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'connection timed out';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'no route to host';
  if (/CERT|TLS|SSL/.test(code)) return 'TLS handshake failed';
  return undefined;
}

/**
 * Turn whatever an upstream call threw into a ProxyError (abort reasons included). The caller's
 * message says what failed in words that name no address; the error's own text, which may name
 * the upstream's host and port, goes to `detail` (the log line and the dump).
 */
export function asProxyError(e: unknown, signal?: { readonly aborted: boolean; readonly reason: unknown }, phase: UpstreamPhase = 'connect'): ProxyError {
  if (e instanceof ProxyError) return e;
  if (signal?.aborted && signal.reason instanceof ProxyError) return signal.reason;
  const detail = e instanceof Error ? e.message : String(e);
  if (phase !== 'connect') return new ProxyError('upstream', CLOSED_EARLY[phase], { status: 502, detail });
  const reason = networkReason(e);
  return new ProxyError('upstream', `Upstream unreachable${reason ? ` (${reason})` : ''}.`, { status: 502, detail });
}
