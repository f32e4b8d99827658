/**
 * Cohere Embed on Bedrock (`cohere.embed-english-v3`, `-multilingual-v3`, `cohere.embed-v4:0`):
 * up to 96 `texts` a call, one `input_type` each (the flow splits a request by task), floats
 * asked (`embedding_types: ["float"]`); v4 takes `output_dimension` (256, 512, 1024, 1536), the
 * v3 models have one size. The answer's body carries no token count: Bedrock's
 * `x-amzn-bedrock-input-token-count` header does (without it, the flow estimates).
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-embed.html
 *
 * Tasks: Gemini's four that Cohere has map both ways; the others are approximated by the nearest
 * input type and reported; none is `search_document` (v3 requires one).
 */
import type { EmbeddingTask, Warning } from '../../src/canonical/index.ts';
import type { EmbeddingUpstream } from '../types.ts';
import { checkSize, decodeError, invokeRequest, isVector, shape, textsOf } from './wire.ts';

export const INPUT_TYPE: Readonly<Record<EmbeddingTask, { type: string; exact: boolean }>> = {
  query: { type: 'search_query', exact: true },
  document: { type: 'search_document', exact: true },
  classification: { type: 'classification', exact: true },
  clustering: { type: 'clustering', exact: true },
  similarity: { type: 'clustering', exact: false },
  'question-answering': { type: 'search_query', exact: false },
  'fact-verification': { type: 'search_query', exact: false },
  'code-query': { type: 'search_query', exact: false },
};

const V4 = /embed-v4/;

export const cohereEmbeddings: EmbeddingUpstream = {
  batchSize: () => 96,
  encodeEmbeddingRequest(req, target) {
    const texts = textsOf(req, target);
    const v4 = V4.test(target.model);
    checkSize(req, target, v4 ? [256, 512, 1024, 1536] : []);
    const task = req.inputs[0]?.task;
    const mapped = task ? INPUT_TYPE[task] : undefined;
    const warnings: Warning[] = [];
    if (task && mapped && !mapped.exact) warnings.push({ code: 'approximated', path: 'taskType', detail: mapped.type });
    if (req.inputs.some((i) => i.title !== undefined)) warnings.push({ code: 'dropped', path: 'title' });
    if (req.user !== undefined) warnings.push({ code: 'dropped', path: 'user' });
    const body = {
      texts,
      input_type: mapped?.type ?? 'search_document',
      embedding_types: ['float'],
      ...(v4 && req.dimensions !== undefined && { output_dimension: req.dimensions }),
    };
    return { value: invokeRequest(target, body), warnings };
  },
  decodeEmbeddingResponse(body, req, _ctx, headers = {}) {
    const e = (body as { embeddings?: unknown } | null)?.embeddings;
    const list = Array.isArray(e) ? e : (e as { float?: unknown } | undefined)?.float;
    if (!Array.isArray(list) || list.length !== req.inputs.length || !list.every(isVector)) throw shape(`${Array.isArray(list) ? list.length : 'no'} float embeddings for ${req.inputs.length} texts`);
    const counted = Number(headers['x-amzn-bedrock-input-token-count'] ?? NaN);
    const usage = Number.isInteger(counted) && counted >= 0 ? { inputTokens: counted, totalTokens: counted } : undefined;
    return { vectors: list.map((values) => ({ type: 'floats' as const, values })), ...(usage && { usage }) };
  },
  decodeError,
};
