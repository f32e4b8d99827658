/**
 * Upstream side: an OpenAI images response body → canonical `ImageResponse`.
 * `output_format` (gpt-image) gives the media type; without it the base64 is sniffed, and DALL·E
 * URLs are left without one.
 */
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import type { GeneratedImage, ImageRequest, ImageResponse, ImageUsage } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { OpenAIImagesResponseSchema, RESPONSE_EXTRA_FIELDS } from './wire.ts';
import type { OpenAIImageData, OpenAIImageUsage } from './wire.ts';

export function decodeImageResponse(body: unknown, _req: ImageRequest, ctx: TranslateContext): ImageResponse {
  const parsed = v.safeParse(OpenAIImagesResponseSchema, body);
  if (!parsed.success || Array.isArray(body)) {
    const raw = JSON.stringify(body) ?? String(body);
    const why = parsed.success ? 'an array' : parsed.issues[0].message;
    throw new ProxyError('upstream', `Unexpected images response from upstream: ${why}`, { raw: raw.slice(0, 2000) });
  }
  const r = parsed.output;
  const formatType = mediaTypeOfFormat(r.output_format ?? undefined);
  const extras: Record<string, unknown> = {};
  for (const name of RESPONSE_EXTRA_FIELDS) if (r[name] != null) extras[name] = r[name];
  const usage = r.usage ? decodeUsage(r.usage) : undefined;
  return {
    created: r.created ?? Math.floor(ctx.now() / 1000),
    images: r.data.map((item) => decodeImage(item, formatType)),
    ...(usage ? { usage } : {}),
    ...(Object.keys(extras).length > 0 ? { extras } : {}),
  };
}

function decodeImage(item: OpenAIImageData, formatType: string | undefined): GeneratedImage {
  const image: GeneratedImage = {};
  if (item.url != null) image.url = item.url;
  if (item.b64_json != null) image.b64 = item.b64_json;
  const mediaType = formatType ?? (item.b64_json != null ? sniffBase64(item.b64_json) : undefined);
  if (mediaType) image.mediaType = mediaType;
  if (item.revised_prompt != null) image.revisedPrompt = item.revised_prompt;
  return image;
}

function decodeUsage(u: OpenAIImageUsage): ImageUsage {
  const input = u.input_tokens ?? 0;
  const output = u.output_tokens ?? 0;
  const details = u.input_tokens_details;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: u.total_tokens ?? input + output,
    ...(details?.text_tokens != null ? { inputTextTokens: details.text_tokens } : {}),
    ...(details?.image_tokens != null ? { inputImageTokens: details.image_tokens } : {}),
  };
}

export function mediaTypeOfFormat(format: string | undefined): string | undefined {
  switch (format) {
    case 'png':
      return 'image/png';
    case 'jpeg':
    case 'jpg':
      return 'image/jpeg';
    case 'webp':
      return 'image/webp';
    default:
      return undefined;
  }
}

/** Magic bytes as they look in base64; OpenAI's default output is PNG. */
function sniffBase64(b64: string): string {
  if (b64.startsWith('/9j/')) return 'image/jpeg';
  if (b64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}
