/**
 * Amazon Titan Text Embeddings on Bedrock (`amazon.titan-embed-text-v2:0`, v1): one text a call
 * (`inputText`); v2 takes `dimensions` (256, 512, 1024) and `normalize` (sent true, its default,
 * as OpenAI's and Gemini's vectors are unit length); v1 has one size. Answer: `embedding`,
 * `inputTextTokenCount`. https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html
 */
import type { EmbeddingUpstream } from '../types.ts';
import { checkSize, decodeError, invokeRequest, isVector, shape, textsOf } from './wire.ts';

const V2 = /titan-embed-text-v2/;

export const titanEmbeddings: EmbeddingUpstream = {
  batchSize: () => 1,
  encodeEmbeddingRequest(req, target) {
    const [inputText] = textsOf(req, target);
    const v2 = V2.test(target.model);
    checkSize(req, target, v2 ? [256, 512, 1024] : []);
    const body = v2 ? { inputText, ...(req.dimensions !== undefined && { dimensions: req.dimensions }), normalize: true } : { inputText };
    const warnings = [
      ...(req.inputs.some((i) => i.task) ? [{ code: 'dropped' as const, path: 'taskType', lossy: true }] : []),
      ...(req.inputs.some((i) => i.title !== undefined) ? [{ code: 'dropped' as const, path: 'title' }] : []),
      ...(req.user !== undefined ? [{ code: 'dropped' as const, path: 'user' }] : []),
    ];
    return { value: invokeRequest(target, body), warnings };
  },
  decodeEmbeddingResponse(body) {
    const b = body as { embedding?: unknown; inputTextTokenCount?: unknown } | null;
    if (!isVector(b?.embedding)) throw shape('no embedding');
    const n = b.inputTextTokenCount;
    return { vectors: [{ type: 'floats', values: b.embedding }], ...(typeof n === 'number' && { usage: { inputTokens: n, totalTokens: n } }) };
  },
  decodeError,
};
