/**
 * Upstream side: a Gemini generateContent response → canonical `ChatResponse`.
 *
 * - `candidates[].index` may be absent: the position is used.
 * - Parts: `thought: true` → reasoning; `thoughtSignature` from any part is kept on that part
 *   (an empty-text part that only carries one → a reasoning part with empty text);
 *   `functionCall` → tool-call with the Gemini id, else `call_<turn>_<position>` (see ids.ts);
 *   `executableCode` / `codeExecutionResult` → fenced text (see decode-contents.ts).
 * - A blocked prompt (HTTP 200, `promptFeedback.blockReason`, no candidates) → `promptBlocked`.
 */
import * as v from 'valibot';
import { ProxyError, type ChatResponse, type Choice, type ChatRequest, type Part } from '../../src/canonical/index.ts';
import { safeParseAsIs } from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import { codeFence, fileDataPart, mediaPart, outputFence } from './decode-contents.ts';
import { decodeFinishReason } from './finish-reason.ts';
import { decodeLogprobs } from './logprobs.ts';
import { syntheticCallId } from './ids.ts';
import { hasUsage, decodeUsage } from './usage.ts';
import { GeminiGenerateContentResponseSchema, type GeminiGenerateContentResponse, type GeminiPart } from './wire.ts';
import { decodeGrounding } from './grounding.ts';

/**
 * A generateContent body, checked once: an object with at least one candidate, or with none
 * and a `promptFeedback.blockReason`. Anything else (`{}`, `[]`, `{"candidates":"x"}`) is
 * not an answer: a 502, never an empty success.
 */
export function parseGenerateContentResponse(body: unknown): GeminiGenerateContentResponse {
  // Valid as it is (nearly always): no copy.
  const parsed = safeParseAsIs(v.safeParse, GeminiGenerateContentResponseSchema, body);
  if (parsed.success && !Array.isArray(body)) {
    const res = parsed.output;
    if ((res.candidates?.length ?? 0) > 0 || res.promptFeedback?.blockReason) return res;
  }
  throw new ProxyError('upstream', 'Gemini returned a response that is not a GenerateContentResponse.', {
    raw: (JSON.stringify(body) ?? '').slice(0, 2000),
  });
}

/** One Gemini response part → canonical parts (`nextId` numbers calls without ids). */
export function decodeResponsePart(part: GeminiPart, nextId: () => string): Part[] {
  const signature = part.thoughtSignature ? { origin: 'gemini' as const, value: part.thoughtSignature } : undefined;
  const sig = signature ? { signature } : {};
  if (part.functionCall) {
    const fc = part.functionCall;
    return [{ type: 'tool-call', id: fc.id ?? nextId(), name: fc.name ?? '', arguments: JSON.stringify(fc.args ?? {}), ...sig }];
  }
  if (part.inlineData) return [mediaPart(part.inlineData.mimeType, { type: 'base64', data: part.inlineData.data })];
  if (part.fileData) return [fileDataPart(part.fileData.fileUri, part.fileData.mimeType)];
  if (part.executableCode) return [{ type: 'text', text: codeFence(part.executableCode) }];
  if (part.codeExecutionResult) return [{ type: 'text', text: outputFence(part.codeExecutionResult) }];
  const text = part.text ?? '';
  if (part.thought === true || (text === '' && signature)) return [{ type: 'reasoning', text, ...sig }];
  if (text === '') return [];
  return [{ type: 'text', text, ...sig }];
}

export function decodeResponse(body: unknown, req: ChatRequest, ctx: TranslateContext): ChatResponse {
  const res = parseGenerateContentResponse(body);
  const turn = req.messages.length;
  const out: ChatResponse = {
    id: res.responseId ?? ctx.newId('gemini-'),
    model: res.modelVersion ?? req.model,
    created: Math.floor(ctx.now() / 1000),
    choices: [],
  };
  if (hasUsage(res.usageMetadata)) out.usage = decodeUsage(res.usageMetadata);

  const candidates = res.candidates ?? [];
  if (candidates.length === 0 && res.promptFeedback?.blockReason) {
    out.promptBlocked = { reason: res.promptFeedback.blockReason, raw: res.promptFeedback };
    return out;
  }
  candidates.forEach((c, position) => {
    const index = c.index ?? position;
    let calls = 0;
    const content: Part[] = [];
    for (const part of c.content?.parts ?? []) {
      content.push(...decodeResponsePart(part, () => syntheticCallId(turn, calls++, index)));
    }
    // Google Search and URL context: web search parts and citations (grounding.ts).
    decodeGrounding(c as Record<string, unknown>, content, `${out.id}_${index}`);
    const hasToolCalls = content.some((p) => p.type === 'tool-call');
    const choice: Choice = { index, content, finishReason: decodeFinishReason(c.finishReason, hasToolCalls) };
    const logprobs = decodeLogprobs((c as Record<string, unknown>).logprobsResult);
    if (logprobs) choice.logprobs = logprobs;
    const extras: Record<string, unknown> = {};
    for (const key of ['safetyRatings', 'citationMetadata', 'groundingMetadata', 'finishMessage', 'avgLogprobs', 'urlContextMetadata']) {
      const value = (c as Record<string, unknown>)[key];
      if (value !== undefined) extras[key] = value;
    }
    if (Object.keys(extras).length > 0) choice.extras = { dialect: 'gemini', fields: extras };
    out.choices.push(choice);
  });
  if (res.promptFeedback) out.extras = { dialect: 'gemini', fields: { promptFeedback: res.promptFeedback } };
  return out;
}
