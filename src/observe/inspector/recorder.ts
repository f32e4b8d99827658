/**
 * The inspector's recorder: a bounded ring of the last exchanges, each the caller's request, the
 * plan, every upstream attempt (request, response or timed stream events), what the caller
 * received, the loss report and the timings. Fed by the request's wire dump (observe/debug.ts
 * stages), so nothing is collected when the inspector is off. Credentials are redacted by the one
 * secret list (upstream/secrets.ts, handed in as `redact` by the Node entry) and every configured
 * secret value is scrubbed from every string; bodies are capped and large base64 elided with its size.
 */
import { elideBase64, jsonOrText } from '../debug.ts';
import type { LogEntry, RequestScope } from '../scope.ts';
import type { ExchangeTap, InspectedRequest, InspectorHook } from './hook.ts';

const REDACTED = '***';

/** Longest body kept, in characters of its JSON. */
export const MAX_BODY_CHARS = 256 * 1024;
/** Most stream events kept per list (the first ones; a last row says how many more there were). */
export const MAX_EVENTS = 2000;

export interface TimedEvent {
  /** Milliseconds since the exchange began. */
  at: number;
  event?: string;
  data: unknown;
}

export interface AttemptRecord {
  upstream: string;
  /** Milliseconds since the exchange began. */
  at: number;
  method?: string;
  url?: string;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
  response?: unknown;
  events?: TimedEvent[];
  error?: string;
  /** A retry of the same upstream (1 = the first retry); `at` is then when its result came. */
  retry?: number;
}

export interface ExchangeSummary {
  id: string;
  requestId: string;
  time: string;
  done: boolean;
  route: string;
  method: string;
  path: string;
  callerDialect: string;
  model?: string;
  upstream?: { name: string; provider?: string; dialect: string };
  status: number;
  ttftMs?: number;
  totalMs?: number;
  upstreamMs?: number;
  overheadMs?: number;
  tokensIn?: number;
  tokensOut?: number;
  tokensEstimated?: boolean;
  /** US dollars (the log line's `cost`); `unpriced`: the model sent has no price. */
  cost?: number;
  unpriced?: string;
  /** The inbound key's name (never the key), and the limit that refused the request. */
  keyName?: string;
  limit?: string;
  warnings: string[];
  error?: string;
  dryRun: boolean;
}

export interface Exchange extends ExchangeSummary {
  caller: { method: string; path: string; headers: Record<string, string>; query: Record<string, string>; body?: unknown };
  plan: Array<{ upstream: string; provider?: string; dialect: string; model?: string; baseUrl: string }>;
  attempts: AttemptRecord[];
  /** `passthrough`: same dialect, the upstream stream forwarded as it came; `events` are only the frames added to it. */
  received: { status: number; headers: Record<string, string>; body?: unknown; events?: TimedEvent[]; passthrough?: boolean };
  /** Other wire-dump stages (state references…). */
  notes: Array<{ at: number; stage: string; data: unknown }>;
}

export type PlanEntry = Exchange['plan'][number];

export interface RecorderOptions {
  maxExchanges: number;
  /** Every credential value the config holds (inbound keys, upstream keys, configured headers). */
  secrets: readonly string[];
  /** The one secret list (upstream/secrets.ts): header values masked, secret values scrubbed from text. */
  redact: { headers(h: Record<string, string>): Record<string, string>; text(s: string, secrets: readonly string[]): string };
  /** The route's targets for a model, fallbacks after (empty when none). */
  plan(model: string): PlanEntry[];
  /** An upstream's provider and dialect by name. */
  upstream(name: string): { provider?: string; dialect: string } | undefined;
  /** Called with each new or updated exchange's summary (the SSE feed). */
  onChange?: (s: ExchangeSummary) => void;
}

/** A copy of `value` with every secret scrubbed from every string (keys and values). */
export function scrubDeep(value: unknown, scrub: (s: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k)] = scrubDeep(v, scrub);
    return out;
  }
  return value;
}

/** A body as kept: JSON parsed, base64 elided, cut to MAX_BODY_CHARS. */
export function keptBody(body: unknown): unknown {
  const value = elideBase64(jsonOrText(body));
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined || text.length <= MAX_BODY_CHARS) return value;
  return { truncated: true, chars: text.length, text: text.slice(0, MAX_BODY_CHARS) };
}

/** A query with the credential (`key`) masked. */
function redactQuery(q: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) out[k] = k === 'key' || /token|secret|key/i.test(k) ? REDACTED : v;
  return out;
}

function eventsOf(data: unknown, times: readonly number[] | undefined, started: number): TimedEvent[] {
  const all = Array.isArray(data) ? data : [];
  const list = all.length > MAX_EVENTS ? all.slice(0, MAX_EVENTS) : all;
  const out = list.map((e, i): TimedEvent => {
    const at = times?.[i] !== undefined ? times[i]! - started : 0;
    const framed = e && typeof e === 'object' && 'event' in e && 'data' in e;
    return framed ? { at, event: String((e as { event: unknown }).event), data: keptBody((e as { data: unknown }).data) } : { at, data: keptBody(e) };
  });
  if (all.length > list.length) {
    const last = times?.[all.length - 1];
    out.push({ at: last !== undefined ? last - started : 0, event: 'not kept', data: `${all.length - list.length} more events` });
  }
  return out;
}

export class Recorder implements InspectorHook {
  readonly #max: number;
  readonly #ring: Exchange[] = [];
  readonly #byId = new Map<string, Exchange>();
  readonly #secrets: string[];
  #seq = 0;
  /** Called with each new or updated exchange's summary (the SSE feed). */
  onChange?: (s: ExchangeSummary) => void;

  constructor(private readonly o: RecorderOptions) {
    this.#max = o.maxExchanges;
    this.onChange = o.onChange;
    // Longest first, so a secret that contains another is masked whole.
    this.#secrets = [...new Set(o.secrets.filter((x) => x.length >= 4))].sort((a, b) => b.length - a.length);
  }

  /** Newest first. */
  list(): ExchangeSummary[] {
    return this.#ring.map(summaryOf).reverse();
  }

  get(id: string): Exchange | undefined {
    return this.#byId.get(id);
  }

  begin(scope: RequestScope, req: InspectedRequest, credential: string | undefined): ExchangeTap {
    const secrets = credential && credential.length >= 4 && !this.#secrets.includes(credential) ? [credential, ...this.#secrets] : this.#secrets;
    const { redact } = this.o;
    const scrub = (s: string) => redact.text(s, secrets);
    const ex: Exchange = {
      id: `ex_${++this.#seq}`,
      requestId: scope.requestId,
      time: new Date(scope.started).toISOString(),
      done: false,
      route: scope.log.route,
      method: req.method,
      path: req.path,
      callerDialect: 'none',
      status: 0,
      warnings: [],
      dryRun: scope.flags.dryRun,
      caller: { method: req.method, path: req.path, headers: scrubDeep(redact.headers(req.headers), scrub) as Record<string, string>, query: redactQuery(req.query) },
      plan: [],
      attempts: [],
      received: { status: 0, headers: {} },
      notes: [],
    };
    this.#push(ex);
    this.onChange?.(summaryOf(ex));
    const started = scope.started;
    const clean = (v: unknown) => scrubDeep(v, scrub);
    /**
     * The attempt a result belongs to: the last one, or, when that one already has its result
     * (a retry of the same upstream), a copy of its request as a new attempt.
     */
    const last = (at: number) => {
      const a = ex.attempts[ex.attempts.length - 1];
      if (!a || (a.status === undefined && a.error === undefined)) return a;
      const retry: AttemptRecord = { upstream: a.upstream, at, method: a.method, url: a.url, headers: a.headers, body: a.body, retry: (a.retry ?? 0) + 1 };
      ex.attempts.push(retry);
      return retry;
    };
    // Recording never fails a request: a stage it cannot read is left out.
    return {
      dump: (stage, data, times) => {
        try {
          record(stage, data, times);
        } catch {
          // Left out.
        }
      },
      end: (entry: LogEntry, headers: Record<string, string>) => {
        try {
          this.#finish(ex, scope, entry, headers, scrub);
        } catch {
          ex.done = true;
        }
        this.onChange?.(summaryOf(ex));
      },
    };

    function record(stage: string, data: unknown, times?: readonly number[]): void {
      const at = scope.now() - started;
      if (stage.startsWith('caller request')) ex.caller.body = clean(keptBody(data));
      else if (stage.startsWith('upstream request → ')) {
        const r = data as { method?: string; url?: string; headers?: Record<string, string>; body?: unknown };
        ex.attempts.push({ upstream: stage.slice(19), at, method: r.method, url: clean(r.url) as string, headers: clean(r.headers) as Record<string, string>, body: clean(keptBody(r.body)) });
      } else if (stage.startsWith('upstream error ← ')) {
        const a = last(at);
        const m = /\((\d+)\)$/.exec(stage);
        if (a) Object.assign(a, { status: m ? Number(m[1]) : undefined, response: clean(keptBody(data)) });
      } else if (stage.startsWith('upstream failure ← ')) {
        const a = last(at);
        if (a) a.error = clean(String(data)) as string;
      } else if (stage.startsWith('upstream response ← ')) {
        const a = last(at);
        if (a) Object.assign(a, { status: a.status ?? 200, response: clean(keptBody(data)) });
      } else if (stage === 'upstream events') {
        const a = last(at);
        if (a) Object.assign(a, { status: a.status ?? 200, events: clean(eventsOf(data, times, started)) });
      } else if (stage.startsWith('caller frames')) {
        ex.received.events = clean(eventsOf(data, times, started)) as TimedEvent[];
        if (stage.includes('forwarded')) ex.received.passthrough = true;
      } else if (stage.startsWith('caller response')) ex.received.body = clean(keptBody(data));
      else ex.notes.push({ at, stage, data: clean(keptBody(data)) });
    }
  }

  #push(ex: Exchange): void {
    this.#ring.push(ex);
    this.#byId.set(ex.id, ex);
    while (this.#ring.length > this.#max) this.#byId.delete(this.#ring.shift()!.id);
  }

  #finish(ex: Exchange, scope: RequestScope, entry: LogEntry, headers: Record<string, string>, scrub: (s: string) => string): void {
    ex.done = true;
    ex.callerDialect = entry.caller;
    // Refused before routing (a bad key, a body too large or malformed, an unknown model): the
    // model the request named, when it could be read.
    ex.model = entry.model ?? namedModel(ex.caller);
    ex.status = entry.status;
    ex.dryRun = scope.flags.dryRun;
    ex.totalMs = entry.durationMs;
    ex.ttftMs = entry.ttfbMs;
    ex.upstreamMs = entry.upstreamMs;
    if (entry.upstreamMs !== undefined) ex.overheadMs = Math.max(0, entry.durationMs - Math.max(entry.upstreamMs, streamedMs(ex)));
    ex.tokensIn = entry.tokensIn;
    ex.tokensOut = entry.tokensOut;
    if (entry.tokensEstimated) ex.tokensEstimated = true;
    if (entry.cost !== undefined) ex.cost = entry.cost;
    if (entry.unpriced) ex.unpriced = entry.unpriced;
    if (entry.keyName) ex.keyName = entry.keyName;
    if (entry.limit) ex.limit = entry.limit;
    ex.warnings = entry.warnings ?? [];
    if (entry.error) ex.error = scrub(entry.error);
    const u = entry.upstream ? this.o.upstream(entry.upstream) : undefined;
    if (u) ex.upstream = { name: entry.upstream!, provider: u.provider, dialect: u.dialect };
    ex.received.status = entry.status;
    ex.received.headers = scrubDeep(this.o.redact.headers(headers), scrub) as Record<string, string>;
    if (entry.model) ex.plan = scrubDeep(this.o.plan(entry.model), scrub) as PlanEntry[];
    // A dry-run sends nothing: the upstream it would have used is the plan's first.
    const first = ex.plan[0];
    if (!ex.upstream && ex.dryRun && first) ex.upstream = { name: first.upstream, provider: first.provider, dialect: first.dialect };
  }
}

/** The model a caller's request names: its body's `model`, else the Gemini path's (`/models/NAME:method`). */
function namedModel(caller: Exchange['caller']): string | undefined {
  const body = caller.body;
  if (body && typeof body === 'object' && !(body as { truncated?: unknown }).truncated) {
    const model = (body as { model?: unknown }).model;
    if (typeof model === 'string' && model) return model;
  }
  const m = /\/models\/([^/:]+):/.exec(caller.path);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/**
 * Time spent on the answering upstream through its stream: from its request to its last event
 * (the upstream's time, not the proxy's), 0 without a stream.
 */
function streamedMs(ex: Exchange): number {
  const a = ex.attempts[ex.attempts.length - 1];
  const end = a?.events?.[a.events.length - 1]?.at;
  return a && end !== undefined ? Math.max(0, end - a.at) : 0;
}

export function summaryOf(ex: Exchange): ExchangeSummary {
  const { caller, plan, attempts, received, notes, ...summary } = ex;
  return summary;
}
