/**
 * The caller side, out: the vectors as OpenAI's list (`data[].embedding` in input order, as
 * numbers or as base64 of their little-endian float32 bytes, as the caller asked), the model and
 * the usage (estimated ones included: the flow flags them in a header).
 */
import { ProxyError, vectorBase64, vectorValues, type EmbeddingRequest, type EmbeddingResponse } from '../../src/canonical/index.ts';

export function encodeEmbeddingResponse(res: EmbeddingResponse, req: EmbeddingRequest): unknown {
  const data = res.vectors.map((v, index) => {
    let embedding: number[] | string;
    if (req.encoding === 'base64') embedding = vectorBase64(v);
    else {
      const values = vectorValues(v);
      if (!values) throw new ProxyError('upstream', 'Upstream returned an embedding in base64 that is not float32 bytes.');
      embedding = values;
    }
    return { object: 'embedding', index, embedding };
  });
  const usage = res.usage ?? { inputTokens: 0, totalTokens: 0 };
  return { object: 'list', data, model: res.model ?? req.model, usage: { prompt_tokens: usage.inputTokens, total_tokens: usage.totalTokens } };
}
