/**
 * A small OTLP/HTTP JSON trace exporter: finished spans go into a bounded queue and are POSTed to
 * `{endpoint}/v1/traces` in batches (when a batch is full, after `intervalMs`, or when a runtime
 * asks: Workers at the end of each request through `waitUntil`, Node on shutdown). It never
 * throws and never waits on the request path: a full queue drops spans, a failed export drops
 * its batch; both are counted (`stats`). Nothing is logged, so the configured headers (which may
 * hold a collector's key) appear nowhere. Why not the OpenTelemetry JS SDK: docs/telemetry.md.
 */

/** `{ double }` keeps a whole number a double (OTLP `doubleValue`), e.g. a duration in seconds. */
export type AttrValue = string | number | boolean | string[] | { double: number };
export type Attrs = Record<string, AttrValue | undefined>;

/** A finished span, times in Unix milliseconds (fractions allowed). */
export interface SpanData {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** W3C tracestate of the caller, kept on the spans of its trace. */
  traceState?: string;
  name: string;
  /** OTLP SpanKind: 2 server, 3 client. */
  kind: 2 | 3;
  startMs: number;
  endMs: number;
  attributes: Attrs;
  events?: Array<{ name: string; timeMs: number; attributes?: Attrs }>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: 0 | 1 | 2; message?: string };
}

export interface OtlpOptions {
  /** Collector base URL (`http://collector:4318`); `/v1/traces` is appended unless already there. */
  endpoint: string;
  headers?: Record<string, string>;
  serviceName: string;
  /** Spans held at most; further spans are dropped until an export makes room. */
  maxQueue?: number;
  /** Spans per POST; a full batch is sent at once. */
  maxBatch?: number;
  /** Longest a span waits in the queue before being sent (timer mode). */
  intervalMs?: number;
  /** One export's deadline. */
  timeoutMs?: number;
  /** Default: the global fetch. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface ExporterStats {
  exported: number;
  dropped: number;
  failed: number;
  queued: number;
}

export class OtlpExporter {
  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #resource: unknown;
  readonly #maxQueue: number;
  readonly #maxBatch: number;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #fetch: (url: string, init: RequestInit) => Promise<Response>;
  #queue: SpanData[] = [];
  #timer?: ReturnType<typeof setTimeout>;
  #draining?: Promise<void>;
  #stats = { exported: 0, dropped: 0, failed: 0 };
  /** Timer flushes are off where a runtime flushes per request (Workers). */
  timers = true;

  constructor(o: OtlpOptions) {
    const base = o.endpoint.replace(/\/+$/, '');
    this.#url = base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
    this.#headers = { ...o.headers, 'content-type': 'application/json' };
    this.#resource = { attributes: encodeAttrs({ 'service.name': o.serviceName, 'telemetry.sdk.name': 'interlingua', 'telemetry.sdk.language': 'js' }) };
    this.#maxQueue = o.maxQueue ?? 2048;
    this.#maxBatch = o.maxBatch ?? 256;
    this.#intervalMs = o.intervalMs ?? 2000;
    this.#timeoutMs = o.timeoutMs ?? 5000;
    this.#fetch = o.fetch ?? ((url, init) => fetch(url, init));
  }

  get stats(): ExporterStats {
    return { ...this.#stats, queued: this.#queue.length };
  }

  /** Queue a finished span (dropped, and counted, when the queue is full). */
  add(span: SpanData): void {
    if (this.#queue.length >= this.#maxQueue) {
      this.#stats.dropped++;
      return;
    }
    this.#queue.push(span);
    if (this.#queue.length >= this.#maxBatch) void this.flush();
    else if (this.timers && this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#intervalMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** Send everything queued; resolves when done (never rejects). One drain runs at a time. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#draining) return this.#draining;
    if (this.#queue.length === 0) return Promise.resolve();
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
    });
    return this.#draining;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      try {
        const res = await this.#fetch(this.#url, {
          method: 'POST',
          headers: this.#headers,
          body: JSON.stringify(this.#payload(batch)),
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        // The body is not needed; reading it frees the connection.
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) this.#stats.exported += batch.length;
        else this.#stats.failed += batch.length;
      } catch {
        this.#stats.failed += batch.length;
      }
    }
  }

  #payload(batch: SpanData[]): unknown {
    return {
      resourceSpans: [{ resource: this.#resource, scopeSpans: [{ scope: { name: 'interlingua' }, spans: batch.map(encodeSpan) }] }],
    };
  }
}

/** Unix milliseconds → the decimal string of Unix nanoseconds OTLP JSON wants. */
export function nanos(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.round((ms - whole) * 1000);
  return `${whole}${String(micros).padStart(3, '0')}000`.replace(/^0+(?=\d)/, '');
}

function encodeSpan(s: SpanData): unknown {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
    ...(s.traceState ? { traceState: s.traceState } : {}),
    name: s.name,
    kind: s.kind,
    startTimeUnixNano: nanos(s.startMs),
    endTimeUnixNano: nanos(Math.max(s.endMs, s.startMs)),
    attributes: encodeAttrs(s.attributes),
    ...(s.events?.length
      ? { events: s.events.map((e) => ({ name: e.name, timeUnixNano: nanos(e.timeMs), attributes: encodeAttrs(e.attributes ?? {}) })) }
      : {}),
    status: s.status.message ? s.status : { code: s.status.code },
  };
}

function encodeValue(v: AttrValue): unknown {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (!Array.isArray(v)) return { doubleValue: v.double };
  return { arrayValue: { values: v.map((x) => ({ stringValue: x })) } };
}

export function encodeAttrs(attrs: Attrs): Array<{ key: string; value: unknown }> {
  const out: Array<{ key: string; value: unknown }> = [];
  for (const key in attrs) {
    const v = attrs[key];
    if (v !== undefined) out.push({ key, value: encodeValue(v) });
  }
  return out;
}
