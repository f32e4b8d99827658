/**
 * The one error type that crosses the hub. Upstream errors decode into it; every caller dialect
 * encodes it into its own envelope.
 */

export type ErrorKind =
  | 'invalid-request'
  | 'authentication'
  | 'permission'
  | 'not-found'
  | 'too-large'
  | 'rate-limit'
  | 'overloaded'
  | 'upstream'
  | 'timeout'
  | 'unsupported';

/** Default HTTP status per kind (an upstream's own status wins where it is known). */
export const statusOfKind: Record<ErrorKind, number> = {
  'invalid-request': 400,
  authentication: 401,
  permission: 403,
  'not-found': 404,
  'too-large': 413,
  'rate-limit': 429,
  overloaded: 529,
  upstream: 502,
  timeout: 504,
  unsupported: 400,
};

export interface ProxyErrorInit {
  status?: number;
  /** The parameter at fault, e.g. `messages[2].content` (OpenAI `param`). */
  param?: string;
  /** A dialect error code worth keeping (`context_length_exceeded`, `API_KEY_INVALID`…). */
  code?: string;
  /** The upstream's error body, unparsed. */
  raw?: string;
  /** Seconds the caller should wait (from `retry-after(-ms)` or Gemini RetryInfo; may be fractional, written rounded up by `formatRetryAfter`). */
  retryAfter?: number;
  /** The upstream's request id, where known. */
  requestId?: string;
  /** The upstream's own error type string (e.g. `insufficient_quota`), kept for the same dialect. */
  upstreamType?: string;
  /**
   * What happened, for the operator only: the log line and the debug dump show it, no caller ever
   * does (a network error's text names the upstream's address and port, `connect ECONNREFUSED
   * 10.0.0.7:443`).
   */
  detail?: string;
}

export class ProxyError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly param?: string;
  readonly code?: string;
  readonly raw?: string;
  readonly retryAfter?: number;
  readonly requestId?: string;
  readonly upstreamType?: string;
  readonly detail?: string;

  constructor(kind: ErrorKind, message: string, init: ProxyErrorInit = {}) {
    super(message);
    this.name = 'ProxyError';
    this.kind = kind;
    this.status = init.status ?? statusOfKind[kind];
    this.param = init.param;
    this.code = init.code;
    this.raw = init.raw;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
    this.upstreamType = init.upstreamType;
    this.detail = init.detail;
  }

  /** A copy with some fields replaced (errors are immutable). */
  with(init: ProxyErrorInit & { message?: string }): ProxyError {
    const { message, ...rest } = init;
    return new ProxyError(this.kind, message ?? this.message, {
      status: this.status,
      param: this.param,
      code: this.code,
      raw: this.raw,
      retryAfter: this.retryAfter,
      requestId: this.requestId,
      upstreamType: this.upstreamType,
      detail: this.detail,
      ...rest,
    });
  }
}

export function isProxyError(e: unknown): e is ProxyError {
  return e instanceof ProxyError;
}

/** The kind an HTTP status implies when the body says nothing better. */
export function kindOfStatus(status: number): ErrorKind {
  switch (status) {
    case 400:
    case 422:
      return 'invalid-request';
    case 401:
      return 'authentication';
    case 402:
    case 403:
      return 'permission';
    case 404:
      return 'not-found';
    case 408:
    case 504:
      return 'timeout';
    case 413:
      return 'too-large';
    case 429:
      return 'rate-limit';
    case 503:
    case 529:
      return 'overloaded';
    default:
      return status >= 500 ? 'upstream' : 'invalid-request';
  }
}

/**
 * What a stream decoder reports at `finish()` when the upstream stopped without its dialect's
 * terminator (`missing` names it): the caller gets its error event, never a clean-looking end.
 */
export function incompleteStream(missing: string): ProxyError {
  return new ProxyError('upstream', `Upstream stream ended before it was complete (${missing}).`);
}

/** A model name that no URL path segment can carry (empty, `.`, `..`): the caller's 400. */
export function unsendableModel(name: string): ProxyError {
  return new ProxyError('invalid-request', `The model name '${name}' cannot be sent to the upstream.`, { param: 'model' });
}
