/**
 * OpenTelemetry traces of requests, after the GenAI semantic conventions: one SERVER span per
 * caller request and one CLIENT span per upstream attempt (each retry and each fallback its own),
 * in the caller's trace when it sent a W3C `traceparent`, and the attempt's own context sent
 * upstream, and one CLIENT span per search the proxy ran itself. Only made when `telemetry` is configured: a request scope then holds a
 * `RequestTrace`, and every hook elsewhere is one `scope.trace?.…` away from doing nothing.
 * Spans are exported by otlp.ts. No prompt or completion text unless `captureContent`.
 */
import type { ChatRequest, ChatResponse, StreamEvent } from '../canonical/index.ts';
import { StreamedOutput, inputContent, outputContent } from './gen-ai-content.ts';
import { OtlpExporter, type Attrs, type OtlpOptions, type SpanData } from './otlp.ts';
import type { LogEntry, WebRun } from './log-entry.ts';
import { hex, parseTraceparent, providerName } from './trace-context.ts';

export { parseTraceparent, providerName } from './trace-context.ts';

/** What an upstream attempt is, in plain data (observe does not know the config's types). */
export interface AttemptInfo {
  upstream: string;
  dialect: string;
  provider?: string;
  model: string;
  url: string;
  method: string;
}

export class AttemptSpan {
  readonly spanId = hex(8);
  /** The `traceparent` sent upstream: this span's context, never the caller's header as it came. */
  readonly traceparent: string;
  readonly attributes: Attrs;
  endMs?: number;
  ok = false;
  status: SpanData['status'] = { code: 0 };

  constructor(
    readonly trace: RequestTrace,
    readonly info: AttemptInfo,
    readonly startMs: number,
    readonly name: string,
    operation: string | undefined,
  ) {
    this.traceparent = `00-${trace.traceId}-${this.spanId}-${trace.sampled ? '01' : '00'}`;
    let host: string | undefined;
    let port: number | undefined;
    try {
      const u = new URL(info.url);
      host = u.hostname;
      port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    } catch {
      host = undefined;
    }
    this.attributes = {
      'gen_ai.operation.name': operation,
      'gen_ai.provider.name': providerName(info.dialect, info.provider),
      'gen_ai.request.model': info.model,
      'server.address': host,
      'server.port': port,
      'http.request.method': info.method,
      'interlingua.upstream': info.upstream,
    };
  }

  /** Headers carrying this span's context upstream (the caller's tracestate, if any, goes along). */
  headers(): Record<string, string> {
    const ts = this.trace.traceState;
    return ts ? { traceparent: this.traceparent, tracestate: ts } : { traceparent: this.traceparent };
  }

  /** The upstream answered 2xx: the span stays open until the answer is read (stream included). */
  succeeded(status: number): void {
    this.ok = true;
    this.attributes['http.response.status_code'] = status;
  }

  /** The attempt failed: `status` when the upstream answered, `errorType` the failure's class. */
  failed(now: number, errorType: string, status?: number): void {
    if (status !== undefined) this.attributes['http.response.status_code'] = status;
    this.attributes['error.type'] = status !== undefined ? String(status) : errorType;
    this.status = { code: 2 };
    this.endMs = now;
  }
}

export class RequestTrace {
  readonly traceId: string;
  readonly spanId = hex(8);
  readonly parentSpanId?: string;
  readonly sampled: boolean;
  readonly traceState?: string;
  readonly attempts: AttemptSpan[] = [];
  /**
   * Set by the chat flow: the request is a model call (`chat`, or `generate_content` from Gemini
   * callers); by the embeddings flow: `embeddings`.
   */
  operation?: string;
  responseModel?: string;
  finishReasons: string[] = [];
  /** When the first stream event arrived from the upstream (streams only). */
  firstChunkAt?: number;
  content?: { system?: string; input?: string; output?: string; stream?: StreamedOutput };
  /** The searches and page reads the proxy ran itself: a span each. */
  webRuns: WebRun[] = [];
  /** Workers: where the export at the request's end is handed (`ctx.waitUntil`). */
  waitUntil?: (p: Promise<unknown>) => void;

  constructor(
    private readonly tracer: Tracer,
    readonly route: string,
    readonly request: { method: string; path: string; origin: string; traceparent?: string; tracestate?: string },
    private readonly now: () => number,
  ) {
    const parent = parseTraceparent(request.traceparent);
    this.traceId = parent?.traceId ?? hex(16);
    this.parentSpanId = parent?.spanId;
    this.sampled = parent?.sampled ?? true;
    if (parent && request.tracestate) this.traceState = request.tracestate;
  }

  /** The chat flow decoded the caller's request. */
  chat(req: ChatRequest): void {
    this.operation = this.route.startsWith('gemini') ? 'generate_content' : 'chat';
    if (this.tracer.captureContent) this.content = inputContent(req);
  }

  /** An upstream attempt starts now; its `traceparent` goes into the request sent. */
  attempt(info: AttemptInfo): AttemptSpan {
    const op = this.operation && (this.operation === 'embeddings' ? 'embeddings' : info.dialect === 'gemini' ? 'generate_content' : 'chat');
    const span = new AttemptSpan(this, info, this.now(), op ? `${op} ${info.model}` : `${info.method} ${info.upstream}`, op);
    this.attempts.push(span);
    return span;
  }

  /** A whole (non-stream) answer was decoded. */
  response(res: ChatResponse): void {
    this.responseModel = res.model || this.responseModel;
    for (const c of res.choices) this.finishReasons.push(c.finishReason.raw ?? c.finishReason.unified);
    if (this.content) this.content.output = outputContent(res);
  }

  /** An event decoded from an upstream stream. */
  streamEvent(ev: StreamEvent): void {
    this.firstChunkAt ??= this.now();
    if (ev.type === 'message-start' && ev.model) this.responseModel = ev.model;
    else if (ev.type === 'finish') this.finishReasons.push(ev.reason.raw ?? ev.reason.unified);
    if (this.content) (this.content.stream ??= new StreamedOutput()).push(ev);
  }

  /** The proxy ran a search or read a page for the model (src/flows/web-search-run.ts). */
  webRun(run: WebRun): void {
    this.webRuns.push(run);
  }

  /** The request is over (its stream included): the spans are made and queued for export. */
  end(entry: LogEntry): void {
    if (!this.sampled) return;
    const endMs = this.now();
    const results: Attrs = {
      'gen_ai.response.model': this.responseModel,
      'gen_ai.usage.input_tokens': entry.tokensIn,
      'gen_ai.usage.output_tokens': entry.tokensOut,
      'gen_ai.response.finish_reasons': this.finishReasons.length ? this.finishReasons : undefined,
      // The GenAI conventions have no cost attribute: ours, in US dollars (docs/telemetry.md).
      'interlingua.cost_usd': entry.cost !== undefined ? { double: entry.cost } : undefined,
      'interlingua.unpriced': entry.unpriced,
      'interlingua.tokens_estimated': entry.tokensEstimated,
      'interlingua.web_searches': entry.webSearches,
    };
    const content: Attrs = this.content
      ? {
          'gen_ai.system_instructions': this.content.system,
          'gen_ai.input.messages': this.content.input,
          'gen_ai.output.messages': this.content.output ?? this.content.stream?.toJSON(),
        }
      : {};
    const served = [...this.attempts].reverse().find((a) => a.ok) ?? this.attempts[this.attempts.length - 1];
    const errorType = entry.error ? /^[\w-]+/.exec(entry.error)?.[0] ?? 'error' : undefined;
    const exporter = this.tracer.exporter;
    for (const a of this.attempts) {
      const attrs = a.ok ? { ...a.attributes, ...results, ...content } : a.attributes;
      if (a.ok && this.firstChunkAt !== undefined) attrs['gen_ai.response.time_to_first_chunk'] = { double: (this.firstChunkAt - a.startMs) / 1000 };
      if (a.ok && errorType) {
        attrs['error.type'] = errorType;
        a.status = { code: 2 };
      }
      exporter.add({ traceId: this.traceId, spanId: a.spanId, parentSpanId: this.spanId, traceState: this.traceState, name: a.name, kind: 3, startMs: a.startMs, endMs: a.endMs ?? endMs, attributes: attrs, status: a.status });
    }
    for (const r of this.webRuns) exporter.add(webRunSpan(this, r, this.tracer.captureContent));
    let host: string | undefined;
    try {
      host = new URL(this.request.origin).hostname;
    } catch {
      host = undefined;
    }
    const failed = errorType !== undefined || entry.status >= 500;
    exporter.add({
      traceId: this.traceId,
      spanId: this.spanId,
      parentSpanId: this.parentSpanId,
      traceState: this.traceState,
      name: this.operation && entry.model ? `${this.operation} ${entry.model}` : `${this.request.method} ${this.route}`,
      kind: 2,
      startMs: endMs - entry.durationMs,
      endMs,
      attributes: {
        'gen_ai.operation.name': this.operation,
        'gen_ai.provider.name': served && providerName(served.info.dialect, served.info.provider),
        'gen_ai.request.model': entry.model,
        ...results,
        'gen_ai.response.time_to_first_chunk': this.firstChunkAt !== undefined && entry.ttfbMs !== undefined ? { double: entry.ttfbMs / 1000 } : undefined,
        'http.request.method': this.request.method,
        'url.path': this.request.path,
        'server.address': host,
        'http.response.status_code': entry.status,
        'error.type': errorType ?? (entry.status >= 500 ? String(entry.status) : undefined),
        'interlingua.route': this.route,
        'interlingua.caller.dialect': entry.caller,
        'interlingua.key_name': entry.keyName,
        'interlingua.limit': entry.limit,
        'interlingua.request_id': entry.requestId,
        'interlingua.upstream': entry.upstream,
        'interlingua.attempts': entry.attempts,
        'interlingua.fallback': entry.fallback,
        'interlingua.warnings': entry.warnings,
        ...(served?.ok ? {} : content),
      },
      status: { code: failed ? 2 : 0 },
    });
    this.tracer.ended(this.waitUntil);
  }
}

/**
 * A search or page read the proxy ran, as a GenAI `execute_tool` span under the server span;
 * what was asked only when content is captured.
 */
function webRunSpan(trace: RequestTrace, r: WebRun, captureContent: boolean): SpanData {
  const tool = r.kind === 'search' ? 'web_search' : 'web_fetch';
  return {
    traceId: trace.traceId,
    spanId: hex(8),
    parentSpanId: trace.spanId,
    traceState: trace.traceState,
    name: `execute_tool ${tool}`,
    kind: 3,
    startMs: r.startMs,
    endMs: r.startMs + r.ms,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.tool.type': 'extension',
      'interlingua.search.backend': r.backend,
      'interlingua.search.results': r.results,
      'error.type': r.error,
      ...(captureContent && { 'gen_ai.tool.call.arguments': JSON.stringify(r.kind === 'search' ? { query: r.what } : { url: r.what }) }),
    },
    status: { code: r.error ? 2 : 0 },
  };
}

export class Tracer {
  constructor(
    readonly exporter: OtlpExporter,
    readonly captureContent: boolean,
  ) {}

  start(route: string, request: RequestTrace['request'], now: () => number): RequestTrace {
    return new RequestTrace(this, route, request, now);
  }

  /** A request's spans are queued: Workers export them now, kept alive by `waitUntil`. */
  ended(waitUntil?: (p: Promise<unknown>) => void): void {
    if (!waitUntil) return;
    // Timers do not outlive a Workers request: every request exports what is queued instead.
    this.exporter.timers = false;
    waitUntil(this.exporter.flush());
  }

  flush(): Promise<void> {
    return this.exporter.flush();
  }

  /** The exporter's counters in Prometheus text (appended to `GET /metrics` when metrics are on). */
  renderMetrics(): string {
    const s = this.exporter.stats;
    const name = 'interlingua_otlp_spans_total';
    return (
      `# HELP ${name} Spans by what became of them: exported, failed (export refused or unreachable), dropped (queue full).\n# TYPE ${name} counter\n` +
      `${name}{result="exported"} ${s.exported}\n${name}{result="failed"} ${s.failed}\n${name}{result="dropped"} ${s.dropped}\n`
    );
  }
}

/** The tracer of a configured `telemetry` section. */
export function createTracer(t: { otlp: OtlpOptions; captureContent: boolean }): Tracer {
  return new Tracer(new OtlpExporter(t.otlp), t.captureContent);
}
