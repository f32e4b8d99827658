/**
 * Same dialect both sides: the caller's request sent as it is, only the model and the
 * credentials changed (create, and the by-id routes: retrieve, delete, cancel).
 */
import type { Warning } from '../../src/canonical/index.ts';
import type { CallerInput, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { isRecord } from './decode-validate.ts';
import { INTERACTIONS_PATH, idSegment, upstreamHeaders } from './encode-request.ts';

/** Query parameters GET takes (`stream`, `last_event_id`, `include_input`), kept as they came. */
function withQuery(path: string, query: Record<string, string>): string {
  const q = new URLSearchParams(query).toString();
  return q ? `${path}?${q}` : path;
}

/**
 * Caller headers worth forwarding on the passthrough path: `api-revision` picks the wire schema
 * the answer comes in (the docs' curl examples send `Api-Revision: 2026-05-20`), so the caller's
 * choice must reach the upstream that answers it.
 */
const FORWARDED_HEADERS = ['api-revision'];

/**
 * `encodePassthrough` of a create call whose body is forwarded as bytes (only its `model`
 * renamed): the request without its body, and the model the body must be given.
 */
export function forwardRequest(input: CallerInput, peeked: { model: string; stream: boolean }, target: UpstreamTarget) {
  if (input.params['method'] !== undefined) return undefined;
  const bare = { headers: input.headers, params: input.params, query: input.query, body: peeked };
  // Stryker disable next-line StringLiteral: the body made from this raw text is discarded
  const { body: _, ...request } = encodePassthrough(bare, '', target);
  return { request, model: peeked.model === target.model ? undefined : target.model };
}

/**
 * Same dialect both sides: the caller's body byte for byte unless the model is renamed (then
 * only `model` changes; `store`, `previous_interaction_id`, `background`, hosted tools all left
 * to the upstream), credentials replaced. The route names what it serves in `params.method`:
 * none → `POST /v1beta/interactions`; with the interaction id in `params.id`: `retrieve` →
 * `GET /v1beta/interactions/{id}` (query kept; `stream=true` streams), `delete` → `DELETE …/{id}`,
 * `cancel` → `POST …/{id}/cancel`.
 */
export function encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget, _warnings?: Warning[]): UpstreamHttpRequest {
  const headersFor = (stream: boolean) => {
    const headers = upstreamHeaders(target, stream);
    for (const name of FORWARDED_HEADERS) {
      const value = input.headers[name];
      if (value !== undefined && headers[name] === undefined) headers[name] = value;
    }
    return headers;
  };
  const byId = (method: 'GET' | 'DELETE' | 'POST', suffix = '') => {
    const streaming = method === 'GET' && input.query['stream'] === 'true';
    const { 'content-type': _json, ...headers } = headersFor(streaming);
    const path = `${INTERACTIONS_PATH}/${idSegment(input.params['id'])}${suffix}`;
    return { method, path: method === 'GET' ? withQuery(path, input.query) : path, headers, stream: streaming };
  };
  switch (input.params['method']) {
    case 'retrieve':
      return byId('GET');
    case 'delete':
      return byId('DELETE');
    case 'cancel':
      return byId('POST', '/cancel');
    default:
      break;
  }
  const body = isRecord(input.body) ? input.body : undefined;
  const stream = body?.['stream'] === true;
  const out = !body || body['model'] === target.model ? rawBody : JSON.stringify({ ...body, model: target.model });
  return { method: 'POST', path: INTERACTIONS_PATH, headers: headersFor(stream), body: out, stream };
}
