/**
 * Errors in OpenAI's envelope `{"error":{"message","type","param","code"}}` — the same envelope
 * and status table as OpenAI Chat (https://platform.openai.com/docs/guides/error-codes), plus the
 * images-only `image_generation_user_error` / `moderation_blocked`.
 */
import * as v from 'valibot';
import { ProxyError, assertNever, kindOfStatus } from '../../src/canonical/index.ts';
import { formatRetryAfter, retryAfterOfHeaders } from '../../src/kit/index.ts';
import type { ErrorKind } from '../../src/canonical/index.ts';
import type { EncodedError } from '../types.ts';
import { OpenAIErrorBodySchema } from './wire.ts';

/** A caller mistake naming the parameter, with OpenAI's error code. */
export function invalid(message: string, param: string, code = 'invalid_value'): ProxyError {
  return new ProxyError('invalid-request', message, { param, code });
}

/** Error `type` values OpenAI itself sends; any other upstream type is not replayed. */
const OPENAI_TYPES = new Set([
  'invalid_request_error',
  'server_error',
  'insufficient_quota',
  'tokens',
  'requests',
  'image_generation_user_error',
  'request_forbidden',
]);

/** kind → [type, default code] for errors that did not come from OpenAI. */
function typeAndCode(kind: ErrorKind, status: number): [string, string | null] {
  switch (kind) {
    case 'invalid-request':
      return ['invalid_request_error', null];
    case 'unsupported':
      return ['invalid_request_error', 'unsupported_parameter'];
    case 'authentication':
      return ['invalid_request_error', 'invalid_api_key'];
    case 'permission':
      return ['invalid_request_error', 'permission_denied'];
    case 'not-found':
      return ['invalid_request_error', 'not_found'];
    case 'too-large':
      return ['invalid_request_error', 'request_too_large'];
    case 'rate-limit':
      return ['requests', 'rate_limit_exceeded'];
    case 'overloaded':
      return ['server_error', 'overloaded'];
    case 'timeout':
      return ['server_error', 'timeout'];
    case 'upstream':
      return [status >= 500 ? 'server_error' : 'invalid_request_error', null];
    default:
      return assertNever(kind, 'error kind');
  }
}

export function encodeError(err: ProxyError): EncodedError {
  const [defaultType, defaultCode] = typeAndCode(err.kind, err.status);
  const type = err.upstreamType && OPENAI_TYPES.has(err.upstreamType) ? err.upstreamType : defaultType;
  // OpenAI codes are snake_case; another vendor's (`API_KEY_INVALID`, `429`) is not replayed.
  const code = err.code && /^[a-z][a-z0-9_]*$/.test(err.code) ? err.code : defaultCode;
  const error: Record<string, unknown> = { message: err.message, type, param: err.param ?? null, code };
  // Keep OpenAI's own extra detail (moderation_details…) when the error came from OpenAI.
  for (const [key, value] of Object.entries(openAIEnvelopeOf(err.raw) ?? {})) {
    if (!(key in error)) error[key] = value;
  }
  const headers: Record<string, string> = {};
  if (err.retryAfter !== undefined) headers['retry-after'] = formatRetryAfter(err.retryAfter);
  return { status: err.status, body: { error }, ...(Object.keys(headers).length ? { headers } : {}) };
}

/** The `error` object of a raw body in OpenAI's exact envelope (has `param` and `code`), else undefined. */
function openAIEnvelopeOf(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw?.trimStart().startsWith('{')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Object.keys(body).length !== 1) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null || !('param' in error) || !('code' in error)) return undefined;
  return error as Record<string, unknown>;
}

/** An upstream OpenAI error response → ProxyError (status, raw body, retry-after, request id kept). */
export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const result = v.safeParse(OpenAIErrorBodySchema, parsed);
  const e = result.success ? result.output.error : undefined;
  const code = e?.code == null ? undefined : String(e.code);
  const type = e?.type ?? undefined;
  const message = redactKeys(e?.message || `Upstream returned HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`);
  return new ProxyError(kindOf(status, type, code), message, {
    status,
    raw: body,
    ...(e?.param ? { param: e.param } : {}),
    ...(code ? { code } : {}),
    ...(type ? { upstreamType: type } : {}),
    ...retryAfterOf(headers),
    ...(headers['x-request-id'] ? { requestId: headers['x-request-id'] } : {}),
  });
}

function kindOf(status: number, type: string | undefined, code: string | undefined): ErrorKind {
  if (code === 'invalid_api_key') return 'authentication';
  if (type === 'insufficient_quota' || code === 'rate_limit_exceeded') return 'rate-limit';
  if (code === 'model_not_found') return 'not-found';
  return kindOfStatus(status);
}

/** Canonical `retryAfterOfHeaders` (`retry-after-ms`, `retry-after`), as an optional field. */
function retryAfterOf(headers: Record<string, string>): { retryAfter?: number } {
  const retryAfter = retryAfterOfHeaders(headers);
  return retryAfter === undefined ? {} : { retryAfter };
}

/** OpenAI echoes a masked key (`sk-proj-****wxyz`); never pass even that on. */
function redactKeys(message: string): string {
  return message.replace(/\b(sk|il)-[A-Za-z0-9_*-]{4,}/g, '$1-***');
}
