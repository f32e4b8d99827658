/**
 * Building caller responses: JSON bodies, errors in the caller's dialect, the proxy's own headers.
 */
import { ProxyError, warningToken } from '../canonical/index.ts';
import type { EncodedError } from '../../translators/types.ts';
import type { RequestScope } from './scope.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Headers every proxied response carries. */
export function proxyHeaders(scope: RequestScope, extra?: Record<string, string>): Headers {
  const h = new Headers(extra);
  h.set('x-request-id', scope.requestId);
  if (scope.log.upstream) h.set('x-interlingua-upstream', scope.log.upstream);
  if (scope.warnings.length) {
    const tokens = [...new Set(scope.warnings.map(warningToken))];
    h.set('x-interlingua-warnings', tokens.join(', '));
  }
  return h;
}

export function jsonResponse(scope: RequestScope, body: unknown, status = 200, extra?: Record<string, string>): Response {
  const h = proxyHeaders(scope, extra);
  h.set('content-type', JSON_TYPE);
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** Anything thrown inside a flow, as a ProxyError that is safe to show the caller. */
export function toProxyError(e: unknown): ProxyError {
  if (e instanceof ProxyError) return e;
  // A bug of ours: never leak a stack trace or internals.
  return new ProxyError('upstream', 'Internal proxy error.', { status: 500 });
}

export function errorResponse(
  scope: RequestScope,
  err: ProxyError,
  encode: (e: ProxyError) => EncodedError,
): Response {
  const enc = encode(err);
  const extra: Record<string, string> = { ...enc.headers };
  if (err.retryAfter !== undefined && !('retry-after' in extra)) extra['retry-after'] = String(Math.ceil(err.retryAfter));
  return jsonResponse(scope, enc.body, enc.status, extra);
}
