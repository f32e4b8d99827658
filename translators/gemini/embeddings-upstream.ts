/**
 * Gemini embeddings upstreams: the Gemini API (AI Studio) `batchEmbedContents` — at most 100
 * requests a call, the routed model in the URL and in every request — and Vertex AI's `predict`
 * for its text-embedding and gemini-embedding models (`instances[]` with `content`, `task_type`,
 * `title`; `parameters.outputDimensionality`; one instance a call for gemini-embedding models,
 * 250 for the others), which the vertex provider addresses under the project and location.
 * Text only: token arrays are the caller's 400. The answers carry no token count (AI Studio) or
 * one per vector (Vertex AI `statistics.token_count`).
 */
import { ProxyError, type Converted, type EmbeddingRequest, type EmbeddingResponse, type EmbeddingUsage } from '../../src/canonical/index.ts';
import type { EmbeddingUpstream, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { decodeError } from './errors.ts';
import { methodPath, modelName, upstreamHeaders } from './encode-request.ts';
import { TASK_TYPE } from './embeddings-tasks.ts';
import { MAX_BATCH } from './embeddings-caller.ts';

function textOnly(req: EmbeddingRequest, target: UpstreamTarget): string[] {
  return req.inputs.map((i) => {
    if (i.type === 'tokens') throw new ProxyError('invalid-request', `The upstream '${target.name}' embeds text only: token arrays cannot be sent to ${target.model}.`, { param: 'input', code: 'invalid_type' });
    return i.text;
  });
}

function shape(detail: string): ProxyError {
  return new ProxyError('upstream', `Upstream returned an embeddings response of an unexpected shape (${detail}).`);
}

function valuesOf(e: unknown, where: string): number[] {
  const values = (e as { values?: unknown } | null)?.values;
  if (!Array.isArray(values) || !values.every((x) => typeof x === 'number')) throw shape(where);
  return values as number[];
}

function request(path: string, target: UpstreamTarget, body: unknown): UpstreamHttpRequest {
  return { method: 'POST', path, headers: upstreamHeaders(target), body: JSON.stringify(body), stream: false };
}

export const geminiEmbeddings: EmbeddingUpstream = {
  batchSize: () => MAX_BATCH,
  encodeEmbeddingRequest(req, target): Converted<UpstreamHttpRequest> {
    const texts = textOnly(req, target);
    const model = `models/${modelName(target.model)}`;
    // A title or size not asked for is undefined here, and JSON leaves it out.
    const requests = req.inputs.map((input, i) => ({
      model,
      content: { parts: [{ text: texts[i] }] },
      ...(input.task && { taskType: TASK_TYPE[input.task] }),
      title: input.title,
      outputDimensionality: req.dimensions,
    }));
    const warnings = req.user !== undefined ? [{ code: 'dropped' as const, path: 'user' }] : [];
    return { value: request(methodPath(target, 'batchEmbedContents'), target, { requests }), warnings };
  },
  decodeEmbeddingResponse(body, req): EmbeddingResponse {
    const list = (body as { embeddings?: unknown } | null)?.embeddings;
    if (!Array.isArray(list) || list.length !== req.inputs.length) throw shape(`${Array.isArray(list) ? list.length : 'no'} embeddings for ${req.inputs.length} inputs`);
    const tokens = (body as { usageMetadata?: { promptTokenCount?: unknown } }).usageMetadata?.promptTokenCount;
    const usage: EmbeddingUsage | undefined = typeof tokens === 'number' ? { inputTokens: tokens, totalTokens: tokens } : undefined;
    return { vectors: list.map((e, i) => ({ type: 'floats' as const, values: valuesOf(e, `embeddings[${i}]`) })), ...(usage && { usage }) };
  },
  decodeError,
};

/** gemini-embedding models on Vertex AI take one instance a call. */
const ONE_A_CALL = /gemini-embedding/;

export const vertexEmbeddings: EmbeddingUpstream = {
  batchSize: (model) => (ONE_A_CALL.test(model) ? 1 : 250),
  encodeEmbeddingRequest(req, target): Converted<UpstreamHttpRequest> {
    const texts = textOnly(req, target);
    // (A title not asked for is undefined here, and JSON leaves it out.)
    const instances = req.inputs.map((input, i) => ({ content: texts[i], ...(input.task && { task_type: TASK_TYPE[input.task] }), title: input.title }));
    const body = { instances, ...(req.dimensions !== undefined && { parameters: { outputDimensionality: req.dimensions } }) };
    const warnings = req.user !== undefined ? [{ code: 'dropped' as const, path: 'user' }] : [];
    return { value: request(methodPath(target, 'predict'), target, body), warnings };
  },
  decodeEmbeddingResponse(body, req): EmbeddingResponse {
    const list = (body as { predictions?: unknown } | null)?.predictions;
    if (!Array.isArray(list) || list.length !== req.inputs.length) throw shape(`${Array.isArray(list) ? list.length : 'no'} predictions for ${req.inputs.length} inputs`);
    let tokens = 0;
    let counted = true;
    const vectors = list.map((p: { embeddings?: { statistics?: { token_count?: unknown } } } | null, i) => {
      const count = p?.embeddings?.statistics?.token_count;
      if (typeof count === 'number') tokens += count;
      else counted = false;
      return { type: 'floats' as const, values: valuesOf(p?.embeddings, `predictions[${i}].embeddings`) };
    });
    return { vectors, ...(counted && { usage: { inputTokens: tokens, totalTokens: tokens } }) };
  },
  decodeError,
};
