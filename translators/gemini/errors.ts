/**
 * Errors by table: Gemini `{error:{code,message,status,details}}` ⇄ ProxyError.
 * Status strings: google.rpc.Code as the Gemini API uses them
 * (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes).
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
import { GeminiErrorBodySchema } from './wire.ts';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

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

function kindOfGoogleStatus(status: string | undefined, httpStatus: number): ErrorKind {
  switch (status) {
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
      return 'timeout';
    case 'PAYLOAD_TOO_LARGE':
      return 'too-large';
    case 'INTERNAL':
    case 'UNKNOWN':
      return 'upstream';
    default:
      return kindOfStatus(httpStatus);
  }
}

function detailOf(details: unknown[] | undefined, type: string): Record<string, unknown> | undefined {
  for (const d of details ?? []) {
    if (typeof d === 'object' && d !== null && (d as Record<string, unknown>)['@type'] === type) {
      return d as Record<string, unknown>;
    }
  }
  return undefined;
}

/** Parse a Gemini error body (object form, or the `[{"error":…}]` array form). */
export function parseGeminiError(json: unknown) {
  const candidate = Array.isArray(json) ? json[0] : json;
  const parsed = v.safeParse(GeminiErrorBodySchema, candidate);
  return parsed.success ? parsed.output.error : undefined;
}

/** Build the ProxyError for a parsed Gemini error. */
export function proxyErrorOf(
  error: NonNullable<ReturnType<typeof parseGeminiError>>,
  httpStatus: number,
  raw: string,
  headers: Record<string, string> = {},
): ProxyError {
  const reason = detailOf(error.details, ERROR_INFO)?.reason;
  // An invalid key is 400 INVALID_ARGUMENT on the wire; we keep the status but call it what it is.
  const kind: ErrorKind =
    reason === 'API_KEY_INVALID' ? 'authentication' : kindOfGoogleStatus(error.status, httpStatus);
  const retryAfter = parseDuration(detailOf(error.details, RETRY_INFO)?.retryDelay) ?? retryAfterOfHeaders(headers);
  return new ProxyError(kind, error.message ?? `upstream returned HTTP ${httpStatus}`, {
    status: httpStatus,
    code: typeof reason === 'string' ? reason : error.status,
    raw,
    retryAfter,
    requestId: headers['x-request-id'],
    upstreamType: error.status,
  });
}

export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const error = parseGeminiError(json);
  if (error) return proxyErrorOf(error, status, body, headers);
  const snippet = body.trim().slice(0, 200);
  return new ProxyError(kindOfStatus(status), snippet ? `upstream returned HTTP ${status}: ${snippet}` : `upstream returned HTTP ${status}`, {
    status,
    raw: body,
    retryAfter: retryAfterOfHeaders(headers),
    requestId: headers['x-request-id'],
  });
}

/** HTTP status and Google status string a Gemini caller sees for an error. */
function googleStatusOf(err: ProxyError): { code: number; status: string } {
  const upstream = err.upstreamType && STATUS_STRINGS.has(err.upstreamType) ? err.upstreamType : undefined;
  const http = err.status === 529 ? 503 : err.status;
  if (upstream) return { code: http, status: upstream };
  switch (http) {
    case 400:
      return { code: 400, status: 'INVALID_ARGUMENT' };
    case 401:
      return { code: 401, status: 'UNAUTHENTICATED' };
    case 403:
      return { code: 403, status: 'PERMISSION_DENIED' };
    case 404:
      return { code: 404, status: 'NOT_FOUND' };
    case 409:
      return { code: 409, status: 'ABORTED' };
    case 413:
      return { code: 413, status: 'PAYLOAD_TOO_LARGE' };
    case 429:
      return { code: 429, status: 'RESOURCE_EXHAUSTED' };
    case 500:
      return { code: 500, status: 'INTERNAL' };
    case 501:
      return { code: 501, status: 'UNIMPLEMENTED' };
    case 503:
      return { code: http, status: 'UNAVAILABLE' };
    case 408:
    case 504:
      return { code: http, status: 'DEADLINE_EXCEEDED' };
    default:
      return { code: http, status: http >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT' };
  }
}

export interface GeminiErrorOut {
  error: { code: number; message: string; status: string; details?: Record<string, unknown>[] };
}

export function encodeErrorBody(err: ProxyError): GeminiErrorOut {
  const { code, status } = googleStatusOf(err);
  const details: Record<string, unknown>[] = [];
  if (err.code === 'API_KEY_INVALID') {
    details.push({ '@type': ERROR_INFO, reason: 'API_KEY_INVALID', domain: 'googleapis.com' });
  }
  if (err.retryAfter !== undefined && (code === 429 || code === 503)) {
    details.push({ '@type': RETRY_INFO, retryDelay: formatDuration(err.retryAfter) });
  }
  return { error: { code, message: err.message, status, ...(details.length ? { details } : {}) } };
}

export function encodeError(err: ProxyError): EncodedError {
  const body = encodeErrorBody(err);
  const headers = err.retryAfter !== undefined ? { 'retry-after': formatRetryAfter(err.retryAfter) } : undefined;
  return { status: body.error.code, body, ...(headers ? { headers } : {}) };
}
