/**
 * Errors both ways, in OpenAI's envelope `{"error":{"message","type","param","code"}}`: the
 * table and reader are shared with the Responses dialect (translators/vendor/openai/errors.ts); what
 * is Chat Completions' own is the in-stream error frame. See fixtures error-*.json.
 */
import {
  decodeOpenAIError,
  encodeOpenAIError,
  looseErrorMessage,
  openAIErrorFromBody,
  openAIErrorKind,
  openAIRetryAfter,
  hostErrorDetail,
} from '../vendor/openai/index.ts';
import {
  kindOfStatus,
  ProxyError,
} from '../../src/canonical/index.ts';
import type { EncodedError } from '../types.ts';

export const retryAfterOf = openAIRetryAfter;
export const looseMessage = looseErrorMessage;

/**
 * An error sent inside a 200 stream, or `undefined`: OpenAI's (and compatible hosts')
 * `{"error":{…}}`, or older vLLM's top-level `{"object":"error","message","type","param","code"}`
 * (`code` is the HTTP status there).
 */
export function streamErrorOf(json: unknown, raw: string): ProxyError | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const body = json as Record<string, unknown>;
  if (body['error'] != null) {
    return openAIErrorFromBody(200, json, raw) ?? new ProxyError('upstream', looseMessage(json) ?? 'The upstream stream failed.', { raw });
  }
  if (body['object'] !== 'error') return undefined;
  const detail = hostErrorDetail(json);
  const code = body['code'];
  const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : undefined;
  const type = typeof body['type'] === 'string' ? body['type'] : undefined;
  const codeText = code != null && code !== '' ? String(code) : undefined;
  const message = typeof body['message'] === 'string' && body['message'] ? body['message'] : detail?.message ?? 'The upstream stream failed.';
  return new ProxyError(status !== undefined ? kindOfStatus(status) : openAIErrorKind(200, type, codeText), message, {
    status,
    code: codeText,
    param: typeof body['param'] === 'string' ? body['param'] : detail?.param,
    raw,
    upstreamType: type,
  });
}

export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  return decodeOpenAIError(status, body, headers);
}

export function encodeError(err: ProxyError): EncodedError {
  return encodeOpenAIError(err);
}
