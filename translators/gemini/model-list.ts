/**
 * The upstream's own model list: `GET {baseUrl}/v1beta/models` → `models[].name` without the
 * `models/` prefix, only models that can generate content or embed it.
 */
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { upstreamHeaders } from './encode-request.ts';

export function encodeModelListRequest(target: UpstreamTarget): UpstreamHttpRequest {
  const { 'content-type': _json, ...headers } = upstreamHeaders(target);
  return { method: 'GET', path: '/v1beta/models?pageSize=1000', headers, stream: false };
}

export function decodeModelList(body: unknown): string[] {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return [];
  const out: string[] = [];
  for (const m of models as Array<{ name?: unknown; supportedGenerationMethods?: unknown } | null>) {
    if (typeof m?.name !== 'string') continue;
    const methods = m.supportedGenerationMethods;
    if (Array.isArray(methods) && !methods.includes('generateContent') && !methods.includes('embedContent') && !methods.includes('batchEmbedContents')) continue;
    out.push(m.name.replace(/^models\//, ''));
  }
  return out;
}
