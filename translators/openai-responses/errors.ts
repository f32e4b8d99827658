/**
 * Errors both ways. HTTP errors use OpenAI's envelope, shared with Chat Completions
 * (translators/vendor/openai/errors.ts). In a stream, a Response fails with `response.failed`
 * carrying `response.error {code, message}`, usually after an `error` event; clients act on the
 * code: Codex stops on `context_length_exceeded` and `insufficient_quota`, and retries
 * `rate_limit_exceeded` after the wait it reads from "try again in N s" in the message
 * (codex-rs/codex-api/src/sse/responses.rs).
 */
import {
  decodeOpenAIError,
  encodeOpenAIError,
  openAIErrorFromBody,
  openAIErrorKind,
  retryAfterOfMessage,
} from '../vendor/openai/index.ts';
import {
  ProxyError,
} from '../../src/canonical/index.ts';
import type { EncodedError } from '../types.ts';

export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  return decodeOpenAIError(status, body, headers);
}

export function encodeError(err: ProxyError): EncodedError {
  return encodeOpenAIError(err);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * An in-stream `error` event → ProxyError. The API reference documents `code`, `message`, `param`
 * at the top; the service also sends them nested in `error` (with `type`).
 */
export function errorOfEvent(event: Record<string, unknown>, raw: string): ProxyError {
  const nested = event['error'] && typeof event['error'] === 'object' ? (event['error'] as Record<string, unknown>) : undefined;
  const src = nested ?? event;
  const envelope = { error: { message: text(src['message']) ?? 'The upstream stream failed.', type: text(src['type']), param: text(src['param']), code: text(src['code']) } };
  return openAIErrorFromBody(200, envelope, raw) ?? new ProxyError('upstream', envelope.error.message, { raw });
}

/** `response.error {code, message}` of a failed Response → ProxyError (kind by code, wait from the message). */
export function errorOfFailedResponse(error: { code?: unknown; message?: unknown } | null | undefined, raw: string): ProxyError {
  const code = text(error?.code);
  const message = text(error?.message) ?? 'The upstream response failed.';
  return new ProxyError(openAIErrorKind(200, undefined, code), message, { code, raw, retryAfter: retryAfterOfMessage(message) });
}

/** Messages other vendors use when the prompt does not fit (so a client can compact and go on). */
const CONTEXT_TOO_LONG = /context[ _](?:window|length)|prompt is too long|maximum context|exceeds the maximum number of tokens|input is too long/i;

/** A codeword the client acts on, for a failure of this kind. */
function codeOf(err: ProxyError): string {
  if (err.code === 'context_length_exceeded' || err.code === 'insufficient_quota' || err.upstreamType === 'insufficient_quota') {
    return err.code === 'context_length_exceeded' ? err.code : 'insufficient_quota';
  }
  switch (err.kind) {
    case 'rate-limit':
      return 'rate_limit_exceeded';
    case 'invalid-request':
    case 'unsupported':
    case 'too-large':
      return CONTEXT_TOO_LONG.test(err.message) ? 'context_length_exceeded' : 'invalid_prompt';
    case 'authentication':
      return 'invalid_api_key';
    case 'permission':
      return 'permission_denied';
    case 'not-found':
      return 'model_not_found';
    case 'overloaded':
    case 'upstream':
    case 'timeout':
      return 'server_error';
  }
}

/**
 * A ProxyError as a failed Response's `error`. A known wait is written into the message the way
 * OpenAI does ("Please try again in 7s."), since that is where Codex reads it.
 */
export function responseErrorOf(err: ProxyError): { code: string; message: string } {
  const code = codeOf(err);
  let message = err.message;
  if (code === 'rate_limit_exceeded' && err.retryAfter !== undefined && retryAfterOfMessage(message) === undefined) {
    message = `${message.replace(/\s*$/, '')}${/[.!?]$/.test(message.trim()) ? '' : '.'} Please try again in ${Number(err.retryAfter.toFixed(3))}s.`;
  }
  return { code, message };
}

/** The `error` event a failing stream sends before `response.failed` (documented and wire forms). */
export function errorEventOf(err: ProxyError): Record<string, unknown> {
  const { code, message } = responseErrorOf(err);
  const type = encodeOpenAIError(err).body.error.type;
  const param = err.param ?? null;
  return { code, message, param, error: { type, code, message, param } };
}
