/**
 * Embeddings: one request and answer model for every dialect that embeds text (OpenAI
 * `/embeddings`, Gemini `embedContent` / `batchEmbedContents`, Vertex AI `predict`, Bedrock Titan
 * and Cohere). Vectors are float32 values, as every vendor computes them; base64 is their
 * little-endian float32 bytes, as OpenAI encodes them.
 */
import { base64ToBytes, bytesToBase64 } from '../kit/index.ts';

/** What the vectors are for, where a vendor tunes them for it (Gemini `taskType`, Cohere `input_type`). */
export type EmbeddingTask =
  | 'query'
  | 'document'
  | 'similarity'
  | 'classification'
  | 'clustering'
  | 'question-answering'
  | 'fact-verification'
  | 'code-query';

/** One thing to embed: text, or (OpenAI) an array of token ids; what it is for, a document's title. */
export type EmbeddingInput = ({ type: 'text'; text: string } | { type: 'tokens'; tokens: readonly number[] }) & {
  task?: EmbeddingTask;
  /** A document's title (Gemini, Vertex AI: with the `document` task). */
  title?: string;
};

export interface EmbeddingRequest {
  model: string;
  /** At least one; in the order the vectors come back. */
  inputs: EmbeddingInput[];
  /** The vector size wanted (OpenAI `dimensions`, Gemini `outputDimensionality`, Titan `dimensions`). */
  dimensions?: number;
  /** How the caller wants the vectors written. */
  encoding: 'float' | 'base64';
  user?: string;
}

/** One vector: its values, or its little-endian float32 bytes in base64 as an upstream sent them. */
export type EmbeddingVector = { type: 'floats'; values: number[] } | { type: 'base64'; base64: string };

export interface EmbeddingUsage {
  inputTokens: number;
  totalTokens: number;
  /** Counted by the proxy (about four characters a token), not reported by the upstream. */
  estimated?: boolean;
}

export interface EmbeddingResponse {
  /** The model the upstream says answered, if it says. */
  model?: string;
  /** One per input, in input order. */
  vectors: EmbeddingVector[];
  usage?: EmbeddingUsage;
}

/** A vector's values (decoded from base64 when it came so); undefined for base64 that is not float32 bytes. */
export function vectorValues(v: EmbeddingVector): number[] | undefined {
  if (v.type === 'floats') return v.values;
  const bytes = base64ToBytes(v.base64);
  if (!bytes || bytes.byteLength % 4 !== 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** A vector as base64 of its little-endian float32 bytes (as it came, when it came so). */
export function vectorBase64(v: EmbeddingVector): string {
  if (v.type === 'base64') return v.base64;
  const bytes = new Uint8Array(v.values.length * 4);
  const view = new DataView(bytes.buffer);
  v.values.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return bytesToBase64(bytes);
}

/** Tokens of the inputs as the proxy estimates them: a token array's length, else four characters a token. */
export function estimateEmbeddingTokens(inputs: readonly EmbeddingInput[]): number {
  let n = 0;
  for (const i of inputs) n += i.type === 'tokens' ? i.tokens.length : Math.max(1, Math.ceil(i.text.length / 4));
  return n;
}

/** Usage of several calls as one: undefined unless every call reported its own. */
export function sumEmbeddingUsage(list: ReadonlyArray<EmbeddingUsage | undefined>): EmbeddingUsage | undefined {
  if (list.length === 0 || list.some((u) => !u)) return undefined;
  let inputTokens = 0;
  let totalTokens = 0;
  for (const u of list as EmbeddingUsage[]) {
    inputTokens += u.inputTokens;
    totalTokens += u.totalTokens;
  }
  return { inputTokens, totalTokens };
}
