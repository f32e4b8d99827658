/** Model lists: the caller's `GET /v1/models` in Anthropic's shape, and the upstream's own (`GET {baseUrl}/v1/models` → `data[].id`). */
import type { ModelInfo, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { upstreamHeaders } from './host.ts';

export function encodeModelListRequest(target: UpstreamTarget): UpstreamHttpRequest {
  const { 'content-type': _json, ...headers } = upstreamHeaders(target, undefined, []);
  return { method: 'GET', path: '/v1/models?limit=1000', headers, stream: false };
}

export function decodeModelList(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string');
}

/**
 * `ListResponse[ModelInfo]`. What the proxy does not know about a model (capabilities, token
 * limits its route does not state, deprecation dates, model line) is null, as `ModelInfo` allows;
 * a configured, routable model is `active`.
 */
export function encodeModelList(models: ModelInfo[]): unknown {
  const data = models.map((m) => ({
    type: 'model',
    id: m.id,
    display_name: m.id,
    created_at: rfc3339(m.created),
    capabilities: null,
    max_input_tokens: m.contextWindow ?? null,
    max_tokens: m.maxOutputTokens ?? null,
    lifecycle: 'active',
    deprecated_at: null,
    retires_at: null,
    line: null,
  }));
  return {
    data,
    has_more: false,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
  };
}

/** Unix seconds → RFC 3339 without fractional seconds, as the Models API writes it. */
function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
