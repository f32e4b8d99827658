/**
 * The registry: the only file that imports every dialect. Caller dialects by id; upstream
 * dialects by the config's `dialect` value (an `openai` upstream serves chat and images).
 */
import type { DialectId } from '../src/canonical/index.ts';
import { anthropic } from './anthropic/index.ts';
import { gemini, geminiEmbeddingCaller, geminiEmbeddings, geminiImages, vertexEmbeddings } from './gemini/index.ts';
import { cohereEmbeddings, titanEmbeddings } from './bedrock-embeddings/index.ts';
import { openaiEmbeddings } from './openai-embeddings/index.ts';
import { openaiChat } from './openai-chat/index.ts';
import { openaiImages, readImageForm } from './openai-images/index.ts';
import { openaiResponses } from './openai-responses/index.ts';
import { geminiInteractions } from './gemini-interactions/index.ts';
import type { ChatCaller, ChatUpstream, EmbeddingCaller, EmbeddingUpstream, ImageCaller, ImageUpstream } from './types.ts';

export type UpstreamDialect = 'openai' | 'anthropic' | 'gemini' | 'openai-responses' | 'gemini-interactions';

/**
 * The wire forms of embeddings toward upstreams: OpenAI's `/embeddings` (OpenAI, Azure, the
 * compatible hosts), Gemini's `batchEmbedContents`, Vertex AI's `predict`, and Bedrock's Titan
 * and Cohere bodies (src/flows/embeddings.ts picks one by provider, dialect and model id).
 */
export type EmbeddingWire = 'openai' | 'gemini' | 'vertex' | 'titan' | 'cohere';

export interface Registry {
  chatCallers: Record<Exclude<DialectId, 'openai-images' | 'openai-embeddings'>, ChatCaller>;
  chatUpstreams: Record<UpstreamDialect, ChatUpstream>;
  imageCaller: ImageCaller;
  imageUpstreams: Partial<Record<UpstreamDialect, ImageUpstream>>;
  /** Read a multipart images form into plain fields and byte arrays. */
  readImageForm(form: FormData): Promise<unknown>;
  embeddingCallers: { openai: EmbeddingCaller; gemini: EmbeddingCaller };
  embeddingUpstreams: Record<EmbeddingWire, EmbeddingUpstream>;
}

export const registry: Registry = {
  chatCallers: { 'openai-chat': openaiChat, anthropic, gemini, 'openai-responses': openaiResponses, 'gemini-interactions': geminiInteractions },
  chatUpstreams: { openai: openaiChat, anthropic, gemini, 'openai-responses': openaiResponses, 'gemini-interactions': geminiInteractions },
  imageCaller: openaiImages,
  imageUpstreams: { openai: openaiImages, ...(geminiImages ? { gemini: geminiImages } : {}) },
  readImageForm,
  embeddingCallers: { openai: openaiEmbeddings, gemini: geminiEmbeddingCaller },
  embeddingUpstreams: { openai: openaiEmbeddings, gemini: geminiEmbeddings, vertex: vertexEmbeddings, titan: titanEmbeddings, cohere: cohereEmbeddings },
};

/** Every chat dialect, for suites that run against all of them. */
export const chatDialects = [openaiChat, anthropic, gemini, openaiResponses, geminiInteractions] as const;
