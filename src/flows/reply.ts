/**
 * What flows answer: a `Reply` (status, a plain header record, a body), not a Web `Response` — the
 * Web edge turns it into one (http/respond.ts), the Node server writes it straight to the socket.
 * Also JSON bodies, errors in the caller's dialect, and the proxy's own headers.
 */
import { ProxyError, warningToken } from '../canonical/index.ts';
import { formatRetryAfter } from '../kit/index.ts';
import type { EncodedError } from '../../translators/types.ts';
import type { PipeBody } from '../sse/byte-step.ts';
import type { RequestScope } from '../observe/scope.ts';

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
