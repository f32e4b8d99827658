/**
 * OpenAI's error envelope, `{"error":{"message","type","param","code"}}`, both ways: shared by
 * the two dialects that speak it, Chat Completions and Responses (one table, one reader). The
 * body is pretty-printed on the wire; `type` may be `invalid_request_error`, `insufficient_quota`,
 * `tokens`, `server_error`…; `code` may be null. https://platform.openai.com/docs/guides/error-codes
 */
import { kindOfStatus, ProxyError, type ErrorKind } from '../../../src/canonical/errors.ts';
import { formatRetryAfter, retryAfterOfHeaders } from '../../../src/kit/retry-after.ts';
import { hostErrorDetail } from './host-errors.ts';

/** The envelope as OpenAI writes it. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function header(headers: Record<string, string>, name: string): string | undefined {
  if (headers[name] !== undefined) return headers[name];
  const lower = name.toLowerCase();
  for (const [k, value] of Object.entries(headers)) if (k.toLowerCase() === lower) return value;
  return undefined;
}

/** The wait OpenAI writes in a message: "Please try again in 1.146s", "in 20ms", "in 35 seconds". */
export function retryAfterOfMessage(message: string | undefined): number | undefined {
  const m = message?.match(/try again in\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b/i);
  if (!m) return undefined;
  return Number(m[1]) / (m[2]!.toLowerCase() === 'ms' ? 1000 : 1);
}

/**
 * Seconds to wait: the headers (canonical `retryAfterOfHeaders`: `retry-after-ms`, else
 * `retry-after` seconds or an HTTP date against the response's own `date` header), else the
 * message text (`retryAfterOfMessage`).
 */
export function openAIRetryAfter(headers: Record<string, string>, message?: string): number | undefined {
  return retryAfterOfHeaders(headers) ?? retryAfterOfMessage(message);
}

/** Kind of an OpenAI error by its `type` and `code`; status 0/200 means it came inside a stream. */
export function openAIErrorKind(status: number, type: string | undefined, code: string | undefined): ErrorKind {
  if (code === 'invalid_api_key' || type === 'authentication_error') return 'authentication';
  if (code === 'model_not_found') return 'not-found';
  if (status === 0 || status === 200) {
    if (code === 'rate_limit_exceeded' || code === 'insufficient_quota') return 'rate-limit';
    if (code === 'context_length_exceeded' || code === 'invalid_prompt') return 'invalid-request';
    switch (type) {
      case 'invalid_request_error':
        return 'invalid-request';
      case 'rate_limit_error':
      case 'tokens':
      case 'requests':
      case 'insufficient_quota':
        return 'rate-limit';
      case 'overloaded_error':
        return 'overloaded';
      default:
        return 'upstream';
    }
  }
  return kindOfStatus(status);
}

interface EnvelopeFields {
  message?: string;
  type?: string;
  param?: string;
  code?: string;
}

const optionalString = (v: unknown): v is string | null | undefined => v == null || typeof v === 'string';

/** The fields of `{"error":{…}}`, or undefined when the body is not that envelope. */
function envelopeFields(json: unknown): EnvelopeFields | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const e = (json as Record<string, unknown>)['error'];
  if (!e || typeof e !== 'object' || Array.isArray(e)) return undefined;
  const { message, type, param, code } = e as Record<string, unknown>;
  if (!optionalString(message) || !optionalString(type) || !optionalString(param)) return undefined;
  if (code != null && typeof code !== 'string' && typeof code !== 'number') return undefined;
  return {
    ...(message ? { message } : {}),
    ...(type != null ? { type } : {}),
    ...(param != null ? { param } : {}),
    ...(code != null && code !== '' ? { code: String(code) } : {}),
  };
}

/** A ProxyError from a parsed `{error:{…}}` envelope (HTTP body, or in a stream with status 200). */
export function openAIErrorFromBody(
  status: number,
  json: unknown,
  raw: string,
  headers: Record<string, string> = {},
): ProxyError | undefined {
  const e = envelopeFields(json);
  if (!e) return undefined;
  const message = e.message || STATUS_TEXT[status] || 'The upstream returned an error.';
  return new ProxyError(openAIErrorKind(status, e.type, e.code), message, {
    status: status >= 400 ? status : undefined,
    param: e.param,
    code: e.code,
    raw,
    retryAfter: openAIRetryAfter(headers, message),
    requestId: header(headers, 'x-request-id'),
    upstreamType: e.type,
  });
}

/** A message from a non-OpenAI error body of an OpenAI-compatible server (`{"error":"…"}`, `{"detail":"…"}`). */
export function looseErrorMessage(json: unknown): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const body = json as Record<string, unknown>;
  for (const key of ['error', 'detail', 'message']) {
    const value = body[key];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/** An upstream HTTP error of an OpenAI-style API → ProxyError (status, raw body, retry-after kept). */
export function decodeOpenAIError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const fromEnvelope = json === undefined ? undefined : openAIErrorFromBody(status, json, body, headers);
  if (fromEnvelope) return fromEnvelope;
  // A compatible host's structured message (Mistral's 422 detail): its detail is the message.
  const detail = hostErrorDetail(json);
  if (detail) {
    return new ProxyError(kindOfStatus(status), detail.message, {
      status,
      param: detail.param,
      code: detail.code,
      raw: body,
      retryAfter: openAIRetryAfter(headers),
      requestId: header(headers, 'x-request-id'),
      upstreamType: detail.type,
    });
  }
  const text = STATUS_TEXT[status];
  return new ProxyError(kindOfStatus(status), looseErrorMessage(json) ?? `The upstream returned HTTP ${status}${text ? ` ${text}` : ''}.`, {
    status,
    raw: body,
    retryAfter: openAIRetryAfter(headers),
    requestId: header(headers, 'x-request-id'),
  });
}

/** Whether `raw` is an OpenAI envelope (so the upstream's own type/code are OpenAI's). */
function isOpenAIEnvelope(raw: string | undefined): boolean {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: JSON.parse of no text throws, and the catch says false as well
  if (!raw) return false;
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const e = body['error'] as Record<string, unknown> | undefined;
    return body['type'] === undefined && !!e && typeof e === 'object' && typeof e['message'] === 'string' && typeof e['code'] !== 'number';
  } catch {
    return false;
  }
}

/**
 * Kind → status, `type`, `code`. 401 uses `invalid_request_error` + `invalid_api_key` as the real
 * service does. `overloaded` (Anthropic 529) becomes 503: OpenAI's own overload status, which
 * every OpenAI client retries.
 */
function envelopeOf(err: ProxyError): { status: number; type: string; code: string | null } {
  const code = err.code ?? null;
  switch (err.kind) {
    case 'invalid-request':
    case 'unsupported':
      return { status: 400, type: 'invalid_request_error', code };
    case 'authentication':
      return { status: 401, type: 'invalid_request_error', code: code ?? 'invalid_api_key' };
    case 'permission':
      return { status: 403, type: 'permission_error', code };
    case 'not-found':
      return { status: 404, type: 'invalid_request_error', code: code ?? 'model_not_found' };
    case 'too-large':
      return { status: 413, type: 'invalid_request_error', code };
    case 'rate-limit':
      return { status: 429, type: 'requests', code: code ?? 'rate_limit_exceeded' };
    case 'overloaded':
      return { status: 503, type: 'server_error', code };
    case 'upstream':
      return { status: err.status >= 500 && err.status <= 599 && err.status !== 529 ? err.status : 502, type: 'server_error', code };
    case 'timeout':
      return { status: 504, type: 'server_error', code: code ?? 'timeout' };
  }
}

/** A ProxyError as OpenAI's HTTP error: status, envelope, `retry-after` header when known. */
export function encodeOpenAIError(err: ProxyError): { status: number; body: OpenAIErrorBody; headers?: Record<string, string> } {
  const env = envelopeOf(err);
  let { type, code } = env;
  if (err.upstreamType && isOpenAIEnvelope(err.raw)) {
    type = err.upstreamType;
    code = err.code ?? null;
  }
  const out: { status: number; body: OpenAIErrorBody; headers?: Record<string, string> } = {
    status: env.status,
    body: { error: { message: err.message, type, param: err.param ?? null, code } },
  };
  if (err.retryAfter !== undefined) out.headers = { 'retry-after': formatRetryAfter(err.retryAfter) };
  return out;
}
