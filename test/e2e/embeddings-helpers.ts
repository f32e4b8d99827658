/**
 * Shared pieces of the embeddings end-to-end suites: a vector every mock derives from its text
 * (float32-exact values, so base64 round trips compare equal), and mocks of each upstream's
 * embeddings wire that answer from what they received.
 */
import type { MockReply, ReceivedRequest } from '../support/mock-upstream.ts';

/** The vector a mock gives a text: exact in float32, different per text and size. */
export function vecOf(text: string, dims = 4): number[] {
  const out = [text.length + 0.5, text.charCodeAt(0) / 4, -dims, text.charCodeAt(text.length - 1) / 8];
  while (out.length < dims) out.push(out.length / 16);
  return out.slice(0, dims);
}

const json = (body: unknown, status = 200): MockReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** OpenAI `/embeddings`: the vectors listed in reverse order (each with its index), usage counted. */
export function openaiEmbeddingsReply(req: ReceivedRequest): MockReply {
  const inputs: Array<string | number[]> = typeof req.json.input === 'string' ? [req.json.input] : req.json.input;
  const texts = inputs.map((i) => (typeof i === 'string' ? i : `tokens:${i.join(',')}`));
  const data = texts.map((t, index) => ({ object: 'embedding', index, embedding: vecOf(t, req.json.dimensions) })).reverse();
  return json({ object: 'list', data, model: `${req.json.model}-served`, usage: { prompt_tokens: texts.length * 3, total_tokens: texts.length * 3 } });
}

/** Gemini `batchEmbedContents`: one `values` per request, of its text and `outputDimensionality`. */
export function geminiEmbeddingsReply(req: ReceivedRequest): MockReply {
  const requests: any[] = req.json.requests;
  return json({ embeddings: requests.map((r) => ({ values: vecOf(r.content.parts.map((p: any) => p.text).join(''), r.outputDimensionality) })) });
}

/** Vertex AI `predict`: one prediction per instance, with its token count. */
export function vertexPredictReply(req: ReceivedRequest): MockReply {
  const instances: any[] = req.json.instances;
  const dims = req.json.parameters?.outputDimensionality;
  return json({ predictions: instances.map((i) => ({ embeddings: { values: vecOf(i.content, dims), statistics: { token_count: 2, truncated: false } } })), metadata: { billableCharacterCount: 10 } });
}

/** Bedrock Titan v2: one text, its vector, its token count. */
export function titanReply(req: ReceivedRequest): MockReply {
  return json({ embedding: vecOf(req.json.inputText, req.json.dimensions), inputTextTokenCount: 5, embeddingsByType: { float: vecOf(req.json.inputText, req.json.dimensions) } });
}

/** Bedrock Cohere: `embeddings.float`, one per text; the token count in Bedrock's header. */
export function cohereReply(req: ReceivedRequest): MockReply {
  const texts: string[] = req.json.texts;
  const reply = json({ id: 'c-1', response_type: 'embeddings_by_type', texts, embeddings: { float: texts.map((t) => vecOf(t, req.json.output_dimension)) } });
  return { ...reply, headers: { ...reply.headers, 'x-amzn-bedrock-input-token-count': String(texts.length * 2) } };
}

/** A float32 little-endian base64 of numbers, as OpenAI encodes vectors. */
export function float32Base64(values: number[]): string {
  return Buffer.from(new Float32Array(values).buffer).toString('base64');
}
