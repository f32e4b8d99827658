/**
 * Same dialect both sides: the caller's request sent as it is (or its bytes, forwarded), only the
 * model renamed and a session's cache key added, for create and every by-id route.
 */
import { ProxyError } from '../../src/canonical/index.ts';
import { isJsonObject } from '../../src/kit/index.ts';
import type { CallerInput, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { upstreamHeaders } from './encode-request.ts';
import type { Wire } from './encode-settings.ts';

/** Caller headers worth forwarding to an OpenAI upstream on the passthrough path. */
const FORWARDED_HEADERS = ['openai-organization', 'openai-project', 'openai-beta'];

/** A response id as exactly one path segment (`.`/`..` and the empty id refused). */
function idSegment(id: string | undefined): string {
  const encoded = encodeURIComponent(id ?? '');
  if (encoded === '' || encoded === '.' || encoded === '..') {
    throw new ProxyError('invalid-request', `The response id '${id ?? ''}' cannot be sent to the upstream.`, { param: 'response_id' });
  }
  return encoded;
}

/** `encodePassthrough` of a create call whose body is forwarded as bytes (only its `model` renamed). */
export function forwardRequest(input: CallerInput, peeked: { model: string; stream: boolean }, target: UpstreamTarget) {
  if (input.params.method !== undefined) return undefined;
  const bare = { headers: input.headers, params: input.params, query: input.query, body: peeked };
  // Stryker disable next-line StringLiteral: the body is dropped here, whatever it was
  const { body: _, ...request } = encodePassthrough(bare, '', target);
  return { request, model: peeked.model === target.model ? undefined : target.model };
}

/**
 * Same dialect both sides: the caller's body byte for byte unless the model is renamed
 * (`store`, `previous_response_id`, `background`, `conversation`, built-in tools all left to the
 * upstream), credentials replaced. The route names what it serves in `params.method`:
 * none → `POST /responses`; `input_tokens` → `POST /responses/input_tokens`; with the response id
 * in `params.id`: `retrieve` → `GET /responses/{id}` (query kept), `delete` →
 * `DELETE /responses/{id}`, `input_items` → `GET /responses/{id}/input_items`, `cancel` →
 * `POST /responses/{id}/cancel`.
 */
export function encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget): UpstreamHttpRequest {
  const headers = upstreamHeaders(target);
  for (const name of FORWARDED_HEADERS) {
    const value = input.headers[name];
    if (value !== undefined && headers[name] === undefined) headers[name] = value;
  }
  const query = new URLSearchParams(input.query).toString();
  const withQuery = (path: string) => (query ? `${path}?${query}` : path);
  const { 'content-type': _json, ...getHeaders } = headers;
  switch (input.params.method) {
    case 'retrieve':
      return { method: 'GET', path: withQuery(`/responses/${idSegment(input.params.id)}`), headers: getHeaders, stream: input.query.stream === 'true' };
    case 'input_items':
      return { method: 'GET', path: withQuery(`/responses/${idSegment(input.params.id)}/input_items`), headers: getHeaders, stream: false };
    case 'delete':
      return { method: 'DELETE', path: `/responses/${idSegment(input.params.id)}`, headers: getHeaders, stream: false };
    case 'cancel':
      return { method: 'POST', path: `/responses/${idSegment(input.params.id)}/cancel`, headers: getHeaders, stream: false };
    // Stryker disable next-line ConditionalExpression: the switch's last case; without its break the switch ends there all the same
    default:
      break;
  }
  const body: Wire | undefined = isJsonObject(input.body) ? input.body : undefined;
  const count = input.params.method === 'input_tokens';
  const compact = input.params.method === 'compact';
  // A session's key for the prompt cache when the caller sent none (not to a token count).
  const cacheKey = !count && body && body['prompt_cache_key'] === undefined ? target.options.promptCacheKey : undefined;
  const out = !body || (body['model'] === target.model && cacheKey === undefined) ? rawBody : JSON.stringify({ ...body, model: target.model, ...(cacheKey !== undefined && { prompt_cache_key: cacheKey }) });
  return {
    method: 'POST',
    path: count ? '/responses/input_tokens' : compact ? '/responses/compact' : '/responses',
    headers,
    body: out,
    stream: !count && body?.['stream'] === true,
  };
}
