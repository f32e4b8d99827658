/**
 * Errors both ways. OpenAI's envelope is `{"error":{"message","type","param","code"}}`
 * (pretty-printed on the wire; `type` may be `invalid_request_error`, `insufficient_quota`,
 * `tokens`, `server_error`…; `code` may be null). See fixtures error-*.json.
 */
import * as v from 'valibot';
import {
  formatRetryAfter,
  kindOfStatus,
  ProxyError,
  retryAfterOfHeaders,
  type ErrorKind,
} from '../../src/canonical/index.ts';
import type { EncodedError } from '../types.ts';
import { hostErrorDetail } from './host-errors.ts';
import { OpenAIChatErrorBodySchema } from './wire.ts';

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

/**
 * Seconds to wait: the headers (canonical `retryAfterOfHeaders`: `retry-after-ms`, else
 * `retry-after` seconds or an HTTP date against the response's own `date` header), else
 * OpenAI's "Please try again in 1.146s" / "in 20ms" message text.
 */
export function retryAfterOf(headers: Record<string, string>, message?: string): number | undefined {
  const fromHeaders = retryAfterOfHeaders(headers);
  if (fromHeaders !== undefined) return fromHeaders;
  const m = message?.match(/try again in (\d+(?:\.\d+)?)(ms|s)\b/);
  if (m) return Number(m[1]) / (m[2] === 'ms' ? 1000 : 1);
  return undefined;
}

function kindOf(status: number, type: string | undefined, code: string | undefined): ErrorKind {
  if (code === 'invalid_api_key' || type === 'authentication_error') return 'authentication';
  if (code === 'model_not_found') return 'not-found';
  if (status === 0 || status === 200) {
    // In-stream errors arrive after HTTP 200: classify by type.
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

/** A ProxyError from a parsed `{error:{…}}` envelope (HTTP body or in-stream `data:`). */
export function errorFromEnvelope(
  status: number,
  body: unknown,
  raw: string,
  headers: Record<string, string> = {},
): ProxyError | undefined {
  const parsed = v.safeParse(OpenAIChatErrorBodySchema, body);
  if (!parsed.success) return undefined;
  const e = parsed.output.error;
  const type = e.type ?? undefined;
  const code = e.code != null ? String(e.code) : undefined;
  const message = e.message || STATUS_TEXT[status] || 'The upstream returned an error.';
  const kind = kindOf(status, type, code);
  return new ProxyError(kind, message, {
    status: status >= 400 ? status : undefined,
    param: e.param ?? undefined,
    code,
    raw,
    retryAfter: retryAfterOf(headers, message),
    requestId: header(headers, 'x-request-id'),
    upstreamType: type,
  });
}

/**
 * An error sent inside a 200 stream, or `undefined`: OpenAI's (and compatible hosts')
 * `{"error":{…}}`, or older vLLM's top-level `{"object":"error","message","type","param","code"}`
 * (`code` is the HTTP status there).
 */
export function streamErrorOf(json: unknown, raw: string): ProxyError | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const body = json as Record<string, unknown>;
  if (body['error'] != null) {
    return errorFromEnvelope(200, json, raw) ?? new ProxyError('upstream', looseMessage(json) ?? 'The upstream stream failed.', { raw });
  }
  if (body['object'] !== 'error') return undefined;
  const detail = hostErrorDetail(json);
  const code = body['code'];
  const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : undefined;
  const type = typeof body['type'] === 'string' ? body['type'] : undefined;
  const codeText = code != null && code !== '' ? String(code) : undefined;
  const message = typeof body['message'] === 'string' && body['message'] ? body['message'] : detail?.message ?? 'The upstream stream failed.';
  return new ProxyError(status !== undefined ? kindOfStatus(status) : kindOf(200, type, codeText), message, {
    status,
    code: codeText,
    param: typeof body['param'] === 'string' ? body['param'] : detail?.param,
    raw,
    upstreamType: type,
  });
}

/** A message from a non-OpenAI error body of an OpenAI-compatible server (`{"error":"…"}`, `{"detail":"…"}`). */
export function looseMessage(json: unknown): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const body = json as Record<string, unknown>;
  for (const key of ['error', 'detail', 'message']) {
    const value = body[key];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const fromEnvelope = json === undefined ? undefined : errorFromEnvelope(status, json, body, headers);
  if (fromEnvelope) return fromEnvelope;
  // A compatible host's structured message (Mistral's 422 detail): its detail is the message.
  const detail = hostErrorDetail(json);
  if (detail) {
    return new ProxyError(kindOfStatus(status), detail.message, {
      status,
      param: detail.param,
      code: detail.code,
      raw: body,
      retryAfter: retryAfterOf(headers),
      requestId: header(headers, 'x-request-id'),
      upstreamType: detail.type,
    });
  }
  const text = STATUS_TEXT[status];
  return new ProxyError(kindOfStatus(status), looseMessage(json) ?? `The upstream returned HTTP ${status}${text ? ` ${text}` : ''}.`, {
    status,
    raw: body,
    retryAfter: retryAfterOf(headers),
    requestId: header(headers, 'x-request-id'),
  });
}

/** Whether `raw` is an OpenAI envelope (so the upstream's own type/code are OpenAI's). */
function isOpenAIEnvelope(raw: string | undefined): boolean {
  if (!raw) return false;
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const e = body['error'] as Record<string, unknown> | undefined;
    return (
      body['type'] === undefined &&
      !!e &&
      typeof e === 'object' &&
      typeof e['message'] === 'string' &&
      typeof e['code'] !== 'number'
    );
  } catch {
    return false;
  }
}

/**
 * Kind → status, `type`, `code`. 401 uses `invalid_request_error` + `invalid_api_key` as the real
 * service does (fixture error-401-invalid-api-key.json). `overloaded` (Anthropic 529) becomes 503:
 * OpenAI's own overload status, which every OpenAI client retries.
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

export function encodeError(err: ProxyError): EncodedError {
  const env = envelopeOf(err);
  let { type, code } = env;
  if (err.upstreamType && isOpenAIEnvelope(err.raw)) {
    type = err.upstreamType;
    code = err.code ?? null;
  }
  const out: EncodedError = {
    status: env.status,
    body: { error: { message: err.message, type, param: err.param ?? null, code } },
  };
  if (err.retryAfter !== undefined) out.headers = { 'retry-after': formatRetryAfter(err.retryAfter) };
  return out;
}
