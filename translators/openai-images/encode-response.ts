/**
 * Caller side: canonical `ImageResponse` → OpenAI images response body
 * `{created, background?, data:[{url}|{b64_json}, revised_prompt?], output_format?, quality?, size?, usage?}`.
 */
import type { GeneratedImage, ImageRequest, ImageResponse, ImageUsage } from '../../src/canonical/index.ts';
import { RESPONSE_EXTRA_FIELDS } from './wire.ts';

export function encodeImageResponse(res: ImageResponse, req: ImageRequest): unknown {
  const extras = res.extras ?? {};
  const out: Record<string, unknown> = { created: res.created };
  if (extras.background != null) out.background = extras.background;
  out.data = res.images.map((image) => encodeImage(image, req.responseFormat));
  for (const name of RESPONSE_EXTRA_FIELDS) {
    if (name !== 'background' && extras[name] != null) out[name] = extras[name];
  }
  if (res.usage) out.usage = encodeUsage(res.usage);
  return out;
}

/**
 * One `data[]` item. The flow converts between URL and base64 before this runs; should an image
 * still carry only the other form, it is sent as it is rather than lost.
 */
function encodeImage(image: GeneratedImage, format: ImageRequest['responseFormat']): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  const useUrl = image.url !== undefined && (format === 'url' || image.b64 === undefined);
  if (useUrl) item.url = image.url;
  else if (image.b64 !== undefined) item.b64_json = image.b64;
  if (image.revisedPrompt !== undefined) item.revised_prompt = image.revisedPrompt;
  return item;
}

function encodeUsage(usage: ImageUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: {
      text_tokens: usage.inputTextTokens ?? usage.inputTokens - (usage.inputImageTokens ?? 0),
      image_tokens: usage.inputImageTokens ?? 0,
    },
    output_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
  };
}
