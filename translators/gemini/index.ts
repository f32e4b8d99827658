/**
 * The Gemini generateContent dialect, both sides.
 * Spec: shared/spec/generate-content-and-messages.md part A; wire facts: fixtures and
 * https://ai.google.dev/api/generate-content.
 */
import { EVERY_WEB_TOOL } from '../../src/canonical/index.ts';
import { decodeModelList, encodeModelListRequest } from './model-list.ts';
import type { ChatDialect, CallerInput, EmbeddingCaller, ImageUpstream, ModelInfo, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { decodeCountTokens, encodeCountTokens, encodeRequest, methodPath, modelName, upstreamHeaders } from './encode-request.ts';
import { encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { createStreamEncoder } from './stream-encoder.ts';
import { createGeminiImages } from './image-upstream.ts';
import { decodeEmbeddingRequest, encodeEmbeddingResponse } from './embeddings-caller.ts';
import { settingNames } from './setting-names.ts';

const METHODS = new Set(['generateContent', 'streamGenerateContent', 'countTokens']);
/** `alt` values whose answer the proxy can read (`proto` and `media` are not JSON). */
const ALTS = new Set(['sse', 'json']);

/**
 * Same dialect both sides. The model lives in the URL (one encoded segment, `methodPath`), so
 * the body goes through byte for byte, except a countTokens `generateContentRequest.model`,
 * set to the routed model whenever it names another one. `alt=sse|json` is kept (without it
 * the service answers a streamed JSON array); the caller's `?key=` is never forwarded: the key
 * goes in `x-goog-api-key`.
 */
function encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget): UpstreamHttpRequest {
  const method = METHODS.has(input.params.method ?? '') ? input.params.method! : 'generateContent';
  const alt = input.query.alt !== undefined && ALTS.has(input.query.alt) ? `?alt=${input.query.alt}` : '';
  return {
    method: 'POST',
    path: methodPath(target, `${method}${alt}`),
    headers: upstreamHeaders(target),
    body: method === 'countTokens' ? withInnerModel(rawBody, modelName(target.model)) : rawBody,
    stream: method === 'streamGenerateContent',
  };
}

/** `encodePassthrough` with the body forwarded as bytes: as it is, the model being in the URL. */
function forwardRequest(input: CallerInput, _peeked: { model: string; stream: boolean }, target: UpstreamTarget) {
  if (input.params.method === 'countTokens') return undefined;
  const { body: _, ...request } = encodePassthrough(input, '', target);
  return { request };
}

/** A countTokens body whose inner `generateContentRequest.model` names `model` (`models/` or not). */
function withInnerModel(rawBody: string, model: string): string {
  try {
    const parsed = JSON.parse(rawBody) as Record<string, unknown>;
    const inner = parsed.generateContentRequest ?? parsed.generate_content_request;
    if (!inner || typeof inner !== 'object' || !('model' in inner)) return rawBody;
    const fields = inner as Record<string, unknown>;
    if (typeof fields.model === 'string' && modelName(fields.model) === model) return rawBody;
    fields.model = `models/${model}`;
    return JSON.stringify(parsed);
  } catch {
    // Not JSON: forward unchanged and let the upstream answer.
    return rawBody;
  }
}

/** A model named as an embedding model (`gemini-embedding-001`, `text-embedding-3-small`, `cohere.embed-v4:0`). */
const EMBEDDING_MODEL = /embed/i;

function encodeModelList(models: ModelInfo[]) {
  return {
    models: models.map((m) => ({
      name: `models/${m.id.replace(/^models\//, '')}`,
      displayName: m.id,
      supportedGenerationMethods: EMBEDDING_MODEL.test(m.id) ? ['embedContent', 'batchEmbedContents'] : ['generateContent', 'streamGenerateContent', 'countTokens'],
      ...(m.contextWindow !== undefined && { inputTokenLimit: m.contextWindow }),
      ...(m.maxOutputTokens !== undefined && { outputTokenLimit: m.maxOutputTokens }),
    })),
  };
}

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
  encodeCountTokensResponse: (n) => ({ totalTokens: n }),

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
