/**
 * Errors both ways. https://docs.claude.com/en/api/errors
 *
 * | Anthropic error type   | HTTP | canonical kind  |
 * |------------------------|------|-----------------|
 * | invalid_request_error  | 400  | invalid-request (also unsupported when encoding) |
 * | authentication_error   | 401  | authentication  |
 * | billing_error          | 402  | permission      |
 * | permission_error       | 403  | permission      |
 * | not_found_error        | 404  | not-found       |
 * | request_too_large      | 413  | too-large       |
 * | rate_limit_error       | 429  | rate-limit      |
 * | api_error              | 500  | upstream (encoded with the error's own 5xx status, else 500) |
 * | timeout_error          | 504  | timeout         |
 * | overloaded_error       | 529  | overloaded (an upstream 503 "overloaded" is sent as 529 too) |
 */
import * as v from 'valibot';
import {
  assertNever,
  kindOfStatus,
  ProxyError,
  type ErrorKind,
} from '../../src/canonical/index.ts';
import {
  formatRetryAfter,
  retryAfterOfHeaders,
} from '../../src/kit/index.ts';
import type { EncodedError } from '../types.ts';
import { AnthropicErrorBodySchema, type AnthropicErrorBody } from './wire.ts';

const kindOfType: Record<string, ErrorKind> = {
  invalid_request_error: 'invalid-request',
  authentication_error: 'authentication',
  billing_error: 'permission',
  permission_error: 'permission',
  not_found_error: 'not-found',
  request_too_large: 'too-large',
  rate_limit_error: 'rate-limit',
  api_error: 'upstream',
  timeout_error: 'timeout',
  overloaded_error: 'overloaded',
};

/** Statuses the real API uses per error type (mid-stream errors carry no HTTP status). */
const statusOfType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

function header(headers: Record<string, string>, name: string): string | undefined {
  return headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

/** An error envelope `{type:'error', error:{type,message}}` → ProxyError. */
export function errorOfEnvelope(
  parsed: unknown,
  status: number | undefined,
  raw: string,
  headers: Record<string, string> = {},
): ProxyError {
  const result = v.safeParse(AnthropicErrorBodySchema, parsed);
  const type = result.success ? (result.output.error.type ?? undefined) : undefined;
  const message =
    (result.success ? result.output.error.message : undefined) ??
    (status ? `Anthropic upstream returned HTTP ${status}` : 'Anthropic upstream error');
  const known = type !== undefined ? kindOfType[type] : undefined;
  const kind: ErrorKind = known ?? (status ? kindOfStatus(status) : 'upstream');
  const requestId =
    (result.success ? result.output.request_id : undefined) ?? header(headers, 'request-id');
  return new ProxyError(kind, message, {
    status: status ?? (type !== undefined ? statusOfType[type] : undefined),
    raw,
    retryAfter: retryAfterOfHeaders(headers),
    ...(requestId ? { requestId } : {}),
    ...(type ? { upstreamType: type } : {}),
  });
}

export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const err = errorOfEnvelope(parsed, status, body, headers);
  if (parsed === undefined && body.trim()) {
    return new ProxyError(err.kind, `Anthropic upstream returned HTTP ${status}: ${body.slice(0, 200)}`, {
      status,
      raw: body,
      retryAfter: err.retryAfter,
      requestId: err.requestId,
    });
  }
  return err;
}

/** Our envelope's error type and status for a ProxyError. */
export function wireErrorOf(err: ProxyError): { type: string; status: number } {
  // Keep the upstream's own Anthropic type when it was one (e.g. billing_error).
  if (err.upstreamType && statusOfType[err.upstreamType] && kindOfType[err.upstreamType] === err.kind) {
    const type = err.upstreamType;
    return { type, status: type === 'api_error' && err.status >= 500 ? err.status : statusOfType[type]! };
  }
  switch (err.kind) {
    case 'invalid-request':
    case 'unsupported':
      return { type: 'invalid_request_error', status: 400 };
    case 'authentication':
      return { type: 'authentication_error', status: 401 };
    case 'permission':
      return { type: 'permission_error', status: 403 };
    case 'not-found':
      return { type: 'not_found_error', status: 404 };
    case 'too-large':
      return { type: 'request_too_large', status: 413 };
    case 'rate-limit':
      return { type: 'rate_limit_error', status: 429 };
    case 'overloaded':
      return { type: 'overloaded_error', status: 529 };
    case 'timeout':
      return { type: 'timeout_error', status: 504 };
    case 'upstream':
      return { type: 'api_error', status: err.status >= 500 && err.status < 600 ? err.status : 500 };
    default:
      return assertNever(err.kind, 'error kind');
  }
}

/**
 * `ErrorResponse`: `request_id` is required (string or null) next to `type` and `error`; every
 * real error carries it, and strict clients (generated from the OpenAPI document) reject a body
 * without it. The flow fills `requestId` with the upstream's id, or its own for errors it makes.
 */
export function encodeErrorBody(err: ProxyError): AnthropicErrorBody {
  const { type } = wireErrorOf(err);
  return { type: 'error', error: { type, message: err.message }, request_id: err.requestId ?? null };
}

export function encodeError(err: ProxyError): EncodedError {
  const { status } = wireErrorOf(err);
  const headers: Record<string, string> = {};
  if (err.retryAfter !== undefined) headers['retry-after'] = formatRetryAfter(err.retryAfter);
  if (err.requestId) headers['request-id'] = err.requestId;
  if (err.kind === 'overloaded' || err.kind === 'rate-limit') headers['x-should-retry'] = 'true';
  return { status, body: encodeErrorBody(err), ...(Object.keys(headers).length ? { headers } : {}) };
}
