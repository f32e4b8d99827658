/**
 * Model lists: the caller's `GET /v1beta/models` in Gemini's shape, and the upstream's own list
 * (`GET {baseUrl}/v1beta/models` → `models[].name` without the `models/` prefix, only models that
 * can generate content or embed it).
 */
import type { ModelInfo, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
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

/** A model named as an embedding model (`gemini-embedding-001`, `text-embedding-3-small`, `cohere.embed-v4:0`). */
const EMBEDDING_MODEL = /embed/i;

export function encodeModelList(models: ModelInfo[]) {
  return {
    models: models.map((m) => ({
      name: `models/${m.id.replace(/^models\//, '')}`,
      displayName: m.id,
      supportedGenerationMethods: EMBEDDING_MODEL.test(m.id) ? ['embedContent', 'batchEmbedContents'] : ['generateContent', 'streamGenerateContent', 'countTokens'],
      ...(m.contextWindow !== undefined && { inputTokenLimit: m.contextWindow }),
      ...(m.maxOutputTokens !== undefined && { outputTokenLimit: m.maxOutputTokens }),
    })),
  };
}
