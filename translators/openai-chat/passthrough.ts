/**
 * Same dialect both sides: the caller's body sent as it is (or its bytes, forwarded), only the
 * model renamed and a session's cache key added; a host that wants the body otherwise
 * (host-quirks.ts) gets it adapted.
 */
import type { CallerInput, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { upstreamHeaders } from './encode-request.ts';
import { adaptBody, adaptsBody } from './host-quirks.ts';

/** `encodePassthrough` for a body forwarded as bytes (only its `model` renamed), where the host takes it as it is. */
export function forwardRequest(input: CallerInput, peeked: { model: string; stream: boolean }, target: UpstreamTarget) {
  if (adaptsBody(target.options)) return undefined;
  const bare = { headers: input.headers, params: input.params, query: input.query, body: peeked };
  // Stryker disable next-line StringLiteral: the raw body is what this leaves out
  const { body: _, ...request } = encodePassthrough(bare, '', target);
  return { request, model: peeked.model === target.model ? undefined : target.model };
}

/** Caller headers worth forwarding to an OpenAI upstream on the passthrough path. */
const FORWARDED_HEADERS = ['openai-organization', 'openai-project', 'openai-beta'];

export function encodePassthrough(
  input: CallerInput,
  rawBody: string,
  target: UpstreamTarget,
): UpstreamHttpRequest {
  const body = input.body as Record<string, unknown> | null;
  const sameModel = body !== null && typeof body === 'object' && body['model'] === target.model;
  const headers = upstreamHeaders(target);
  for (const name of FORWARDED_HEADERS) {
    const value = input.headers[name];
    if (value !== undefined && headers[name] === undefined) headers[name] = value;
  }
  // The route already parsed the body: re-serialize that (key order kept) only on a rename, or
  // where the host needs the body otherwise (host-quirks.ts).
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const adapted = isObject && adaptsBody(target.options) ? adaptBody(body, target.options) : undefined;
  // A session's key for the prompt cache when the caller sent none.
  const cacheKey = isObject && body['prompt_cache_key'] === undefined ? target.options.promptCacheKey : undefined;
  // Stryker disable next-line ConditionalExpression: an undefined key is left out of the JSON all the same
  const withKey = cacheKey !== undefined ? { prompt_cache_key: cacheKey } : {};
  const out = adapted
    ? JSON.stringify({ ...adapted, model: target.model, ...withKey })
    : (sameModel && cacheKey === undefined) || !isObject
      ? rawBody
      : JSON.stringify({ ...body, model: target.model, ...withKey });
  return {
    method: 'POST',
    path: '/chat/completions',
    headers,
    body: out,
    stream: body !== null && typeof body === 'object' && body['stream'] === true,
  };
}
