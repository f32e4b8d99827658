/**
 * The upstream side, in: OpenAI's list (`data[]` with `index`, `embedding` as numbers or base64,
 * `model`, `usage`), each vector put at its index; one missing is a 502.
 */
import { ProxyError, type EmbeddingRequest, type EmbeddingResponse, type EmbeddingVector } from '../../src/canonical/index.ts';

function shape(detail: string): ProxyError {
  return new ProxyError('upstream', `Upstream returned an embeddings response of an unexpected shape (${detail}).`);
}

export function decodeEmbeddingResponse(body: unknown, req: EmbeddingRequest): EmbeddingResponse {
  const b = body as { data?: unknown; model?: unknown; usage?: { prompt_tokens?: unknown; total_tokens?: unknown } } | null;
  if (typeof b !== 'object' || b === null || !Array.isArray(b.data)) throw shape('no data list');
  const vectors: Array<EmbeddingVector | undefined> = new Array(req.inputs.length);
  b.data.forEach((item: { index?: unknown; embedding?: unknown }, i: number) => {
    const index = typeof item?.index === 'number' ? item.index : i;
    if (!Number.isInteger(index) || index < 0 || index >= req.inputs.length) throw shape(`index ${String(item?.index)}`);
    const e = item.embedding;
    if (typeof e === 'string') vectors[index] = { type: 'base64', base64: e };
    else if (Array.isArray(e) && e.every((x) => typeof x === 'number')) vectors[index] = { type: 'floats', values: e as number[] };
    else throw shape(`data[${i}].embedding`);
  });
  const missing = vectors.findIndex((v) => v === undefined);
  if (missing >= 0 || b.data.length !== req.inputs.length) throw shape(`${b.data.length} vectors for ${req.inputs.length} inputs`);
  const u = b.usage;
  const usage =
    u && typeof u.prompt_tokens === 'number'
      ? { inputTokens: u.prompt_tokens, totalTokens: typeof u.total_tokens === 'number' ? u.total_tokens : u.prompt_tokens }
      : undefined;
  return { ...(typeof b.model === 'string' && { model: b.model }), vectors: vectors as EmbeddingVector[], ...(usage && { usage }) };
}
