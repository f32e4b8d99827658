/** Model lists: the caller's `GET /v1/models` in OpenAI's shape, and the upstream's own (`GET {baseUrl}/models` → `data[].id`). */
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { upstreamHeaders } from './encode-request.ts';

export function encodeModelListRequest(target: UpstreamTarget): UpstreamHttpRequest {
  const { 'content-type': _json, ...headers } = upstreamHeaders(target);
  return { method: 'GET', path: '/models', headers, stream: false };
}

export function decodeModelList(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string');
}

export function encodeModelList(models: { id: string; ownedBy: string; created: number }[]): unknown {
  return {
    object: 'list',
    data: models.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.ownedBy })),
  };
}
