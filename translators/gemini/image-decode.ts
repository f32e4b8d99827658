/**
 * Upstream side of images on Gemini: a generateContent response → canonical `ImageResponse`.
 * Image `inlineData` parts (thoughts excluded) are the images; the text parts alongside become
 * each image's `revisedPrompt`; `usageMetadata` is the usage (its per-modality prompt details
 * split input text and image tokens). No image: a safety stop or blocked prompt is OpenAI's
 * `moderation_blocked` 400, anything else a 502 quoting the model's words.
 */
import { ProxyError, type GeneratedImage, type ImageRequest, type ImageResponse, type ImageUsage } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { parseGenerateContentResponse } from './decode-response.ts';
import type { GeminiUsageMetadata } from './wire.ts';

/** Finish reasons that mean the image was withheld for safety, policy or recitation. */
const BLOCKED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

export function decodeImageResponse(body: unknown, _req: ImageRequest, ctx: TranslateContext): ImageResponse {
  const r = parseGenerateContentResponse(body);
  const blockReason = r.promptFeedback?.blockReason;
  if (blockReason) throw blocked(`the prompt was blocked (${blockReason})`);

  const images: GeneratedImage[] = [];
  const text: string[] = [];
  let finish: string | undefined;
  for (const candidate of r.candidates ?? []) {
    finish ??= candidate.finishReason;
    for (const part of candidate.content?.parts ?? []) {
      if (part.thought === true) continue;
      if (part.inlineData && part.inlineData.mimeType.startsWith('image/')) {
        images.push({ b64: part.inlineData.data, mediaType: part.inlineData.mimeType });
      } else if (part.text) text.push(part.text);
    }
  }
  if (images.length === 0) {
    if (finish && BLOCKED.has(finish)) throw blocked(`the image was withheld (${finish})`);
    const said = text.join(' ').trim();
    throw new ProxyError(
      'upstream',
      `The Gemini image model returned no image${finish ? ` (finishReason ${finish})` : ''}${said ? `: ${said.slice(0, 500)}` : '.'}`,
      { status: 502, code: 'no_image' },
    );
  }
  const revisedPrompt = text.join('').trim();
  const usage = r.usageMetadata ? decodeImageUsage(r.usageMetadata) : undefined;
  return {
    created: Math.floor(ctx.now() / 1000),
    images: revisedPrompt ? images.map((i) => ({ ...i, revisedPrompt })) : images,
    ...(usage ? { usage } : {}),
  };
}

function blocked(why: string): ProxyError {
  return new ProxyError('invalid-request', `Your request was rejected by the upstream's safety system: ${why}.`, {
    code: 'moderation_blocked',
    upstreamType: 'image_generation_user_error',
  });
}

interface ModalityCount {
  modality?: string;
  tokenCount?: number;
}

export function decodeImageUsage(u: GeminiUsageMetadata): ImageUsage | undefined {
  if (u.promptTokenCount === undefined && u.candidatesTokenCount === undefined && u.totalTokenCount === undefined) return undefined;
  const input = u.promptTokenCount ?? 0;
  const output = (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0);
  const usage: ImageUsage = { inputTokens: input, outputTokens: output, totalTokens: u.totalTokenCount ?? input + output };
  const details = (u as { promptTokensDetails?: unknown }).promptTokensDetails;
  if (Array.isArray(details)) {
    const count = (m: string) =>
      (details as ModalityCount[]).filter((d) => d?.modality === m).reduce((n, d) => n + (d.tokenCount ?? 0), 0);
    usage.inputTextTokens = count('TEXT');
    usage.inputImageTokens = count('IMAGE');
  }
  return usage;
}
