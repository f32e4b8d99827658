/**
 * Errors by table. HTTP errors are Google's `{"error":{"code","message","status","details"?}}`
 * (google.rpc.Code status strings, https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes);
 * a failure inside a stream is an `error` event `{"error":{"message","code"}}` whose `code` is a
 * lowercase string (`gateway_timeout` in the docs' streaming guide). The `@google/genai` client
 * retries 408/409/429/5xx honouring `retry-after`, so the header is kept both ways.
 */
import * as v from 'valibot';
import {
  formatDuration,
  formatRetryAfter,
  kindOfStatus,
  parseDuration,
  ProxyError,
  retryAfterOfHeaders,
  type ErrorKind,
} from '../../src/canonical/index.ts';
import type { EncodedError } from '../types.ts';
import type { InteractionsEventError } from './wire-events.ts';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

const GoogleErrorSchema = v.looseObject({
  error: v.looseObject({
    code: v.nullish(v.number()),
    message: v.nullish(v.string()),
    status: v.nullish(v.string()),
    details: v.nullish(v.array(v.unknown())),
  }),
});

/** google.rpc status string → kind; undefined for a string this table does not know. */
function kindOfGoogleStatus(status: string | undefined): ErrorKind | undefined {
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

/** HTTP status → the Google status string a caller sees with it. */
function googleStatusOf(http: number): string {
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
  for (const d of details ?? []) if (d && typeof d === 'object' && (d as Record<string, unknown>)['@type'] === type) return d as Record<string, unknown>;
  return undefined;
}

/** Upstream HTTP error → ProxyError: status and raw body kept, `retry-after` (or RetryInfo) read. */
export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = v.safeParse(GoogleErrorSchema, Array.isArray(json) ? json[0] : json);
  const requestId = headers['x-request-id'];
  if (!parsed.success) {
    const snippet = body.trim().slice(0, 200);
    return new ProxyError(kindOfStatus(status), snippet ? `upstream returned HTTP ${status}: ${snippet}` : `upstream returned HTTP ${status}`, {
      status,
      raw: body,
      retryAfter: retryAfterOfHeaders(headers),
      requestId,
    });
  }
  const e = parsed.output.error;
  const reason = detailOf(e.details, ERROR_INFO)?.['reason'];
  const kind: ErrorKind = reason === 'API_KEY_INVALID' ? 'authentication' : (kindOfGoogleStatus(e.status ?? undefined) ?? kindOfStatus(status));
  return new ProxyError(kind, e.message ?? `upstream returned HTTP ${status}`, {
    status,
    code: typeof reason === 'string' ? reason : (e.status ?? undefined),
    raw: body,
    retryAfter: parseDuration(detailOf(e.details, RETRY_INFO)?.['retryDelay']) ?? retryAfterOfHeaders(headers),
    requestId,
    upstreamType: e.status ?? undefined,
  });
}

/** The HTTP status a caller gets (529, Anthropic's overloaded, is Google's 503). */
function httpOf(err: ProxyError): number {
  return err.status === 529 ? 503 : err.status;
}

export function encodeError(err: ProxyError): EncodedError {
  const code = httpOf(err);
  const upstream = err.upstreamType && kindOfGoogleStatus(err.upstreamType) ? err.upstreamType.toUpperCase() : undefined;
  const details: Record<string, unknown>[] = [];
  if (err.code === 'API_KEY_INVALID') details.push({ '@type': ERROR_INFO, reason: 'API_KEY_INVALID', domain: 'googleapis.com' });
  if (err.retryAfter !== undefined && (code === 429 || code === 503)) details.push({ '@type': RETRY_INFO, retryDelay: formatDuration(err.retryAfter) });
  const body = { error: { code, message: err.message, status: upstream ?? googleStatusOf(code), ...(details.length > 0 ? { details } : {}) } };
  return { status: code, body, ...(err.retryAfter !== undefined ? { headers: { 'retry-after': formatRetryAfter(err.retryAfter) } } : {}) };
}

/** The `error` of a stream's `error` event: a lowercase code (`gateway_timeout` for a timeout, as the docs show). */
export function errorEventOf(err: ProxyError): InteractionsEventError {
  const http = httpOf(err);
  const code = http === 504 || http === 408 || err.kind === 'timeout' ? 'gateway_timeout' : googleStatusOf(http).toLowerCase();
  return { code, message: err.message };
}

/** An upstream stream's `error` event → ProxyError (kind from its code; unknown codes are upstream failures). */
export function proxyErrorOfEvent(error: { code?: string | null; message?: string | null } | null | undefined, raw: string): ProxyError {
  const code = error?.code ?? undefined;
  const kind = kindOfGoogleStatus(code) ?? 'upstream';
  return new ProxyError(kind, error?.message || 'The upstream interaction failed.', { code, raw });
}

/** A `failed` Interaction → its error, from `errors[0]` when it names one. */
export function errorOfFailedInteraction(errors: readonly unknown[] | null | undefined, raw: string): ProxyError {
  const first = v.safeParse(v.looseObject({ code: v.nullish(v.string()), message: v.nullish(v.string()) }), errors?.[0]);
  return proxyErrorOfEvent(first.success ? first.output : undefined, raw);
}
