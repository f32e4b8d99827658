/**
 * The Gemini generateContent dialect, both sides.
 * Spec: shared/spec/generate-content-and-messages.md part A; wire facts: fixtures and
 * https://ai.google.dev/api/generate-content.
 */
import { EVERY_WEB_TOOL } from '../../src/canonical/index.ts';
import type { ChatDialect, EmbeddingCaller, ImageUpstream } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { createStreamEncoder } from './stream-encoder.ts';
import { createGeminiImages } from './image-upstream.ts';
import { decodeEmbeddingRequest, encodeEmbeddingResponse } from './embeddings-caller.ts';
import { settingNames } from './setting-names.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';
import { decodeModelList, encodeModelList, encodeModelListRequest } from './model-list.ts';
import { decodeCountTokens, encodeCountTokens, encodeCountTokensResponse } from './count-tokens.ts';

export const gemini: ChatDialect = {
  id: 'gemini',
  settingNames,
  vendor: 'gemini',
  hostedWebTools: () => EVERY_WEB_TOOL,
  inlineMediaOnly: true,
  multipleChoices: true,

  decodeRequest: (input) => decodeRequest(input),
  // The model and the method are in the path: generateContent or streamGenerateContent.
  forward: {
    model: { in: 'path', streamMethod: 'streamGenerateContent' },
    conversation: 'contents',
    standIn: [{ role: 'user', parts: [{ text: '.' }] }],
    reads: { params: ['model', 'method'] },
  },
  encodeResponse: (res) => encodeResponse(res),
  createStreamEncoder,
  streamFraming: (input) => (input.query.alt === 'sse' ? 'sse' : 'json-array'),
  encodeError,
  encodeModelList,
  encodeCountTokensResponse,

  encodeRequest,
  decodeResponse,
  createStreamDecoder,
  decodeError,
  encodePassthrough,
  forwardRequest,
  encodeModelListRequest,
  decodeModelList,
  encodeCountTokens,
  decodeCountTokens,
};

/** Gemini image models as an image upstream (masks refused; see image-encode.ts). */
export const geminiImages: ImageUpstream = createGeminiImages();
export { createGeminiImages, type GeminiImageOptions } from './image-upstream.ts';

/** Gemini embeddings, the caller side (`embedContent`, `batchEmbedContents`). */
export const geminiEmbeddingCaller: EmbeddingCaller = { id: 'gemini', decodeEmbeddingRequest, encodeEmbeddingResponse, encodeError };
export { geminiEmbeddings, vertexEmbeddings } from './embeddings-upstream.ts';
