/**
 * What flows answer: a `Reply` (status, a plain header record, a body), not a Web `Response` — the
 * Web edge turns it into one (http/respond.ts), the Node server writes it straight to the socket.
 * Also JSON bodies, errors in the caller's dialect, the proxy's own headers, and a streamed reply:
 * the upstream's streams through the one pipeline.
 */
import { ProxyError, chainSteps, warningToken, type ChatRequest } from '../canonical/index.ts';
import { formatRetryAfter } from '../kit/index.ts';
import type { CallerStreamEncoder, EncodedError } from '../../translators/types.ts';
import { PipeBody } from '../sse/byte-step.ts';
import { streamPipeline, type TerminalHold } from '../sse/pipeline.ts';
import { contentTypeOf } from '../sse/serialize.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { UpstreamSuccess } from '../upstream/call.ts';
import { providerOf } from '../upstream/providers/index.ts';
import { chatUpstreamOf, streamFramingOf, type ChatCall, type FlowDeps } from './context.ts';
import { customToolNames, raiseCustomToolStream } from './custom-tools.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Headers every proxied response carries, as a plain lowercase record: a fresh object per
 * response (nothing of the upstream's is mutated), and on Node the server writes a record
 * straight out where a `Headers` would be built and then copied back into one.
 */
export function proxyHeaders(scope: RequestScope, extra?: Record<string, string>): Record<string, string> {
  const h: Record<string, string> = {};
  if (extra) for (const k in extra) h[k.toLowerCase()] = extra[k]!;
  h['x-request-id'] = scope.requestId;
  if (scope.log.upstream) h['x-interlingua-upstream'] = scope.log.upstream;
  if (scope.warnings.length) h['x-interlingua-warnings'] = warningsHeader(scope.warnings.map(warningToken));
  return h;
}

const MAX_WARNINGS_HEADER = 4096;

/**
 * The loss report as a header value: unique tokens, anything outside printable ASCII
 * percent-encoded (paths can hold a caller's property names), cut to a size every client takes.
 */
export function warningsHeader(tokens: string[]): string {
  let out = '';
  for (const t of new Set(tokens)) {
    const safe = t.replace(/[^\x20-\x7e]|%/g, (c) => encodeURIComponent(c));
    const next = out ? `${out}, ${safe}` : safe;
    if (next.length > MAX_WARNINGS_HEADER) return `${out}, more`;
    out = next;
  }
  return out;
}

/** What a flow answers: headers are a fresh lowercase record; a stream body is read once. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | PipeBody | null;
}

export function jsonReply(scope: RequestScope, body: unknown, status = 200, extra?: Record<string, string>): Reply {
  const h = proxyHeaders(scope, extra);
  h['content-type'] = JSON_TYPE;
  return { status, headers: h, body: JSON.stringify(body) };
}

/** Anything thrown inside a flow, as a ProxyError that is safe to show the caller. */
export function toProxyError(e: unknown): ProxyError {
  if (e instanceof ProxyError) return e;
  // A bug of ours: never leak a stack trace or internals.
  return new ProxyError('upstream', 'Internal proxy error.', { status: 500 });
}

export function errorReply(
  scope: RequestScope,
  err: ProxyError,
  encode: (e: ProxyError) => EncodedError,
): Reply {
  // Every error names a request id (Anthropic's schema requires one): the upstream's, else ours.
  const enc = encode(err.requestId ? err : err.with({ requestId: scope.requestId }));
  const extra: Record<string, string> = { ...enc.headers };
  if (err.retryAfter !== undefined && !('retry-after' in extra)) extra['retry-after'] = formatRetryAfter(err.retryAfter);
  return jsonReply(scope, enc.body, enc.status, extra);
}

/** The caller's streamed reply: the upstream bodies (one per lane) through the one pipeline. */
export function streamReply(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  req: ChatRequest,
  successes: ReadonlyArray<UpstreamSuccess>,
  o: {
    passthrough: boolean;
    headers?: Record<string, string>;
    /** Wraps the caller's encoder (to change what it is shown). */
    tap?: (encoder: CallerStreamEncoder) => CallerStreamEncoder;
    /** Hold the last frames until the answer is stored (the pipeline's `hold`). */
    hold?: TerminalHold;
  },
): Reply {
  const framing = streamFramingOf(call);
  const headers = proxyHeaders(scope, { ...o.headers, 'content-type': contentTypeOf(framing), 'cache-control': 'no-cache' });
  const maxFrameBytes = deps.config.limits.maxSseBufferBytes;
  const step = streamPipeline({
    scope,
    decoders: successes.map((s) => {
      const upstream = chatUpstreamOf(deps, s.attempt.target);
      const decoder = upstream.createStreamDecoder(req, scope);
      // (Without freeform tools in the request there is nothing to raise: no step per event for it.)
      return upstream.customTools || customToolNames(req).size === 0 ? decoder : chainSteps(decoder, raiseCustomToolStream(req));
    }),
    // A host with its own stream framing (Bedrock) hands over SSE events the same way.
    parsers: successes.map((s) => providerOf(s.attempt.target.upstream).streamParser?.(maxFrameBytes)),
    encoder: (o.tap ?? ((e) => e))(call.caller.createStreamEncoder(successes.length > 1 ? { ...req, candidateCount: successes.length } : req, scope)),
    framing,
    passthrough: o.passthrough,
    maxFrameBytes,
    idleMs: Math.max(...successes.map((s) => s.attempt.target.upstream.timeouts.idleMs)),
    hold: o.hold,
  });
  return { status: 200, headers, body: new PipeBody(successes.map((s) => s.res), step) };
}
