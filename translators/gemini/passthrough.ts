/** Same dialect both sides: the caller's request sent as it is, to the routed model's URL. */
import type { CallerInput, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { methodPath, modelName, upstreamHeaders } from './encode-request.ts';

const METHODS = new Set(['generateContent', 'streamGenerateContent', 'countTokens']);

/** `alt` values whose answer the proxy can read (`proto` and `media` are not JSON). */
const ALTS = new Set(['sse', 'json']);

/**
 * Same dialect both sides. The model lives in the URL (one encoded segment, `methodPath`), so
 * the body goes through byte for byte, except a countTokens `generateContentRequest.model`,
 * set to the routed model whenever it names another one. `alt=sse|json` is kept (without it
 * the service answers a streamed JSON array); the caller's `?key=` is never forwarded: the key
 * goes in `x-goog-api-key`.
 */
export function encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget): UpstreamHttpRequest {
  const method = METHODS.has(input.params.method ?? '') ? input.params.method! : 'generateContent';
  const alt = input.query.alt !== undefined && ALTS.has(input.query.alt) ? `?alt=${input.query.alt}` : '';
  return {
    method: 'POST',
    path: methodPath(target, `${method}${alt}`),
    headers: upstreamHeaders(target),
    body: method === 'countTokens' ? withInnerModel(rawBody, modelName(target.model)) : rawBody,
    stream: method === 'streamGenerateContent',
  };
}

/** `encodePassthrough` with the body forwarded as bytes: as it is, the model being in the URL. */
export function forwardRequest(input: CallerInput, _peeked: { model: string; stream: boolean }, target: UpstreamTarget) {
  if (input.params.method === 'countTokens') return undefined;
  const { body: _, ...request } = encodePassthrough(input, '', target);
  return { request };
}

/** A countTokens body whose inner `generateContentRequest.model` names `model` (`models/` or not). */
function withInnerModel(rawBody: string, model: string): string {
  try {
    const parsed = JSON.parse(rawBody) as Record<string, unknown>;
    const inner = parsed.generateContentRequest ?? parsed.generate_content_request;
    if (!inner || typeof inner !== 'object' || !('model' in inner)) return rawBody;
    const fields = inner as Record<string, unknown>;
    if (typeof fields.model === 'string' && modelName(fields.model) === model) return rawBody;
    fields.model = `models/${model}`;
    return JSON.stringify(parsed);
  } catch {
    // Not JSON: forward unchanged and let the upstream answer.
    return rawBody;
  }
}
