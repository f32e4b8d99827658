/**
 * Google's API error envelope, `{"error": {"code", "message", "status", "details"?}}`, both ways:
 * the one home of its table for the two Gemini dialects (generateContent and Interactions), which
 * share it. Status strings are google.rpc.Code names as the Gemini API uses them
 * (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes); a retry delay travels as a
 * `google.rpc.RetryInfo` detail and in `retry-after` (`@google/genai` honours the header when it
 * retries); an invalid key is 400 `INVALID_ARGUMENT` with an `ErrorInfo` reason `API_KEY_INVALID`.
 */
import { ProxyError, kindOfStatus, type ErrorKind } from '../../../src/canonical/errors.ts';
import { formatDuration, formatRetryAfter, parseDuration, retryAfterOfHeaders } from '../../../src/kit/retry-after.ts';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

export interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: unknown[];
  [k: string]: unknown;
}

/** google.rpc status names a caller may be shown as they came from the upstream. */
const STATUS_STRINGS = new Set([
  'INVALID_ARGUMENT',
  'FAILED_PRECONDITION',
  'OUT_OF_RANGE',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'ABORTED',
  'RESOURCE_EXHAUSTED',
  'CANCELLED',
  'INTERNAL',
  'UNKNOWN',
  'UNIMPLEMENTED',
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
  'DATA_LOSS',
  'PAYLOAD_TOO_LARGE',
]);

/** A google.rpc status name (any case: stream error events use lower case) → kind; undefined when unknown. */
export function kindOfGoogleStatus(status: string | null | undefined): ErrorKind | undefined {
  switch (status?.toUpperCase()) {
    case 'INVALID_ARGUMENT':
    case 'FAILED_PRECONDITION':
    case 'OUT_OF_RANGE':
      return 'invalid-request';
    case 'UNAUTHENTICATED':
      return 'authentication';
    case 'PERMISSION_DENIED':
      return 'permission';
    case 'NOT_FOUND':
      return 'not-found';
    case 'RESOURCE_EXHAUSTED':
      return 'rate-limit';
    case 'UNAVAILABLE':
      return 'overloaded';
    case 'DEADLINE_EXCEEDED':
    case 'GATEWAY_TIMEOUT':
      return 'timeout';
    case 'PAYLOAD_TOO_LARGE':
      return 'too-large';
    case 'INTERNAL':
    case 'UNKNOWN':
    case 'DATA_LOSS':
      return 'upstream';
    default:
      return undefined;
  }
}

/** The HTTP status a Google caller gets (529, Anthropic's overloaded, is Google's 503). */
export function googleHttpStatus(err: ProxyError): number {
  return err.status === 529 ? 503 : err.status;
}

/** HTTP status → the google.rpc status name sent with it. */
export function googleStatusOf(http: number): string {
  switch (http) {
    case 400:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
      return 'UNAVAILABLE';
    case 408:
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return http >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

function detailOf(details: readonly unknown[] | null | undefined, type: string): Record<string, unknown> | undefined {
  for (const d of details ?? []) if (typeof d === 'object' && d !== null && (d as Record<string, unknown>)['@type'] === type) return d as Record<string, unknown>;
  return undefined;
}

/** A Google error body (the object, or the `[{"error":…}]` array a JSON-array stream ends with); undefined otherwise. */
export function parseGoogleError(json: unknown): GoogleError | undefined {
  const body = Array.isArray(json) ? (json as unknown[])[0] : json;
  const error = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['error'] : undefined;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return undefined;
  const out: GoogleError = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null) continue; // null is as good as absent
    const ok = key === 'code' ? typeof value === 'number' : key === 'message' || key === 'status' ? typeof value === 'string' : key === 'details' ? Array.isArray(value) : true;
    if (!ok) return undefined;
    out[key] = value;
  }
  return out;
}

/** The ProxyError for a parsed Google error: status and raw body kept, the retry delay read. */
export function proxyErrorOfGoogle(error: GoogleError, httpStatus: number, raw: string, headers: Record<string, string> = {}): ProxyError {
  const reason = detailOf(error.details, ERROR_INFO)?.['reason'];
  const status = error.status ?? undefined;
  // An invalid key is 400 INVALID_ARGUMENT on the wire; the status is kept but it is called what it is.
  const kind: ErrorKind = reason === 'API_KEY_INVALID' ? 'authentication' : (kindOfGoogleStatus(status) ?? kindOfStatus(httpStatus));
  return new ProxyError(kind, error.message ?? `upstream returned HTTP ${httpStatus}`, {
    status: httpStatus,
    code: typeof reason === 'string' ? reason : status,
    raw,
    retryAfter: parseDuration(detailOf(error.details, RETRY_INFO)?.['retryDelay']) ?? retryAfterOfHeaders(headers),
    requestId: headers['x-request-id'],
    upstreamType: status,
  });
}

/** An upstream's HTTP error → ProxyError (a body that is not Google's envelope: by status, with a snippet). */
export function decodeGoogleError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const error = parseGoogleError(json);
  if (error) return proxyErrorOfGoogle(error, status, body, headers);
  const snippet = body.trim().slice(0, 200);
  return new ProxyError(kindOfStatus(status), snippet ? `upstream returned HTTP ${status}: ${snippet}` : `upstream returned HTTP ${status}`, {
    status,
    raw: body,
    retryAfter: retryAfterOfHeaders(headers),
    requestId: headers['x-request-id'],
  });
}

export interface GoogleErrorBody {
  error: { code: number; message: string; status: string; details?: Record<string, unknown>[] };
}

/** The envelope a Google caller reads: the upstream's own status name when it was Google's, else by HTTP status. */
export function encodeGoogleErrorBody(err: ProxyError): GoogleErrorBody {
  const code = googleHttpStatus(err);
  const own = err.upstreamType?.toUpperCase();
  const status = own && STATUS_STRINGS.has(own) ? own : googleStatusOf(code);
  const details: Record<string, unknown>[] = [];
  if (err.code === 'API_KEY_INVALID') details.push({ '@type': ERROR_INFO, reason: 'API_KEY_INVALID', domain: 'googleapis.com' });
  if (err.retryAfter !== undefined && (code === 429 || code === 503)) details.push({ '@type': RETRY_INFO, retryDelay: formatDuration(err.retryAfter) });
  return { error: { code, message: err.message, status, ...(details.length > 0 ? { details } : {}) } };
}

/** The HTTP reply of an error to a Google caller: status, envelope, and `retry-after` when known. */
export function encodeGoogleError(err: ProxyError): { status: number; body: GoogleErrorBody; headers?: Record<string, string> } {
  const body = encodeGoogleErrorBody(err);
  return { status: body.error.code, body, ...(err.retryAfter !== undefined ? { headers: { 'retry-after': formatRetryAfter(err.retryAfter) } } : {}) };
}
