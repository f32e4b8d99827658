/**
 * Errors by table. HTTP errors are Google's `{"error":{"code","message","status","details"?}}`
 * (google.rpc.Code status strings, https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes);
 * a failure inside a stream is an `error` event `{"error":{"message","code"}}` whose `code` is a
 * lowercase string (`gateway_timeout` in the docs' streaming guide). The `@google/genai` client
 * retries 408/409/429/5xx honouring `retry-after`, so the header is kept both ways.
 */
import * as v from 'valibot';
import {
  decodeGoogleError,
  encodeGoogleError,
  googleHttpStatus,
  googleStatusOf,
  kindOfGoogleStatus,
} from '../vendor/google/index.ts';
import {
  ProxyError,
} from '../../src/canonical/index.ts';
import type { EncodedError } from '../types.ts';
import type { InteractionsEventError } from './wire-events.ts';

/** Upstream HTTP error → ProxyError: status and raw body kept, `retry-after` (or RetryInfo) read (Google's one table). */
export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  return decodeGoogleError(status, body, headers);
}

export function encodeError(err: ProxyError): EncodedError {
  return encodeGoogleError(err);
}

/** The `error` of a stream's `error` event: a lowercase code (`gateway_timeout` for a timeout, as the docs show). */
export function errorEventOf(err: ProxyError): InteractionsEventError {
  const http = googleHttpStatus(err);
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
