/**
 * OpenAI embeddings (`POST /v1/embeddings`), both sides: its own folder, as images have theirs,
 * since it is its own endpoint with its own request and answer, sharing only OpenAI's error
 * envelope and headers (translators/vendor/openai/). Toward upstreams it serves OpenAI, Azure
 * OpenAI and every OpenAI-compatible host with `/embeddings`.
 */
import { decodeOpenAIError, encodeOpenAIError } from '../vendor/openai/index.ts';
import type { EmbeddingCaller, EmbeddingUpstream } from '../types.ts';
import { decodeEmbeddingRequest } from './decode-request.ts';
import { decodeEmbeddingResponse } from './decode-response.ts';
import { encodeEmbeddingRequest, OPENAI_BATCH } from './encode-request.ts';
import { encodeEmbeddingResponse } from './encode-response.ts';

export const openaiEmbeddings: EmbeddingCaller & EmbeddingUpstream = {
  id: 'openai-embeddings',
  decodeEmbeddingRequest,
  encodeEmbeddingResponse,
  encodeError: encodeOpenAIError,
  batchSize: () => OPENAI_BATCH,
  encodeEmbeddingRequest,
  decodeEmbeddingResponse,
  decodeError: decodeOpenAIError,
};

export { lostFields } from './encode-request.ts';
