/** The upstream's own model list: `GET {baseUrl}/v1/models` → `data[].id`. */
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
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
