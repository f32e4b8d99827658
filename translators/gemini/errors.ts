/**
 * Errors: Gemini's `{error:{code,message,status,details}}` ⇄ ProxyError, by Google's one table
 * (translators/vendor/google/errors.ts, shared with the Interactions dialect).
 */
import {
  decodeGoogleError,
  encodeGoogleError,
  encodeGoogleErrorBody,
  parseGoogleError,
  proxyErrorOfGoogle,
  type GoogleErrorBody,
} from '../vendor/google/index.ts';
import {
  type ProxyError,
} from '../../src/canonical/index.ts';
import type { EncodedError } from '../types.ts';

/** Parse a Gemini error body (object form, or the `[{"error":…}]` array form). */
export const parseGeminiError = parseGoogleError;

/** Build the ProxyError for a parsed Gemini error. */
export const proxyErrorOf = proxyErrorOfGoogle;

export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  return decodeGoogleError(status, body, headers);
}

export type GeminiErrorOut = GoogleErrorBody;

export function encodeErrorBody(err: ProxyError): GeminiErrorOut {
  return encodeGoogleErrorBody(err);
}

export function encodeError(err: ProxyError): EncodedError {
  return encodeGoogleError(err);
}
