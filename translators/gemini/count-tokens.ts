/** Token counting: Gemini's `countTokens` (the caller's route and an upstream's endpoint). */
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import type { TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { encodeBody, methodPath, modelName, upstreamHeaders } from './encode-request.ts';

/** The caller's answer: `{ totalTokens }`. */
export function encodeCountTokensResponse(inputTokens: number): unknown {
  return { totalTokens: inputTokens };
}

/** The fields a Gemini countTokens answer may carry (v1beta and Vertex). */
const COUNT_TOKENS_FIELDS = new Set(['totalTokens', 'cachedContentTokenCount', 'promptTokensDetails', 'cacheTokensDetails', 'totalBillableCharacters']);

function wrongCountShape(): ProxyError {
  return new ProxyError('upstream', 'The Gemini countTokens answer has no totalTokens.');
}

/**
 * countTokens with everything that counts: `generateContentRequest` carries system instruction
 * and tools too (https://ai.google.dev/api/tokens#method:-models.counttokens).
 */
export function encodeCountTokens(req: ChatRequest, target: UpstreamTarget, _ctx: TranslateContext): UpstreamHttpRequest {
  const path = methodPath(target, 'countTokens');
  const model = modelName(target.model);
  const { contents, systemInstruction, tools, toolConfig, generationConfig } = encodeBody(req, model).value;
  // Fields the body does not have are undefined here, and JSON leaves them out.
  const body =
    target.options.countTokensBody === 'direct'
      ? // Vertex AI takes the fields themselves (and refuses the wrapper with a 400).
        { contents, systemInstruction, tools, generationConfig }
      : { generateContentRequest: { model: `models/${model}`, contents, systemInstruction, tools, toolConfig } };
  return { method: 'POST', path, headers: upstreamHeaders(target), body: JSON.stringify(body), stream: false };
}

/**
 * `totalTokens` of a countTokens answer. Proto3 JSON leaves a zero out, so `{}` counts 0; any
 * other shape (not an object, a non-number count, none of the answer's fields) is the upstream's
 * error (502), never a count of 0.
 */
export function decodeCountTokens(body: unknown): number {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw wrongCountShape();
  const o = body as Record<string, unknown>;
  const n = o.totalTokens;
  if (Number.isFinite(n)) return n as number;
  if (n !== undefined || Object.keys(o).some((k) => !COUNT_TOKENS_FIELDS.has(k))) throw wrongCountShape();
  return 0;
}
