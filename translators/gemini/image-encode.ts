/**
 * Upstream side of images on Gemini: canonical `ImageRequest` → generateContent call(s) on a
 * Gemini image model (https://ai.google.dev/gemini-api/docs/image-generation).
 *
 * - `responseModalities: ["TEXT","IMAGE"]`; the prompt is the text part, input images follow as
 *   `inlineData` parts.
 * - `size` → `generationConfig.imageConfig.aspectRatio` (the nearest listed ratio; the pixel size
 *   is the model's own), `auto` → nothing.
 * - `n` > 1 → n identical calls (one image each), merged by the flow in order.
 * - Variations → the image plus an instruction to vary it.
 * - A mask has no Gemini equivalent: refused (400, param `mask`) unless the upstream is built
 *   with `mask: 'instruction'`, which sends the mask as a further image with an instruction.
 * - quality, style, user and the gpt-image fields have no place: dropped with a warning.
 */
import {
  ProxyError,
  assertNever,
  nearestAspectRatio,
  sizeToAspectRatio,
  type Converted,
  type ImageInput,
  type ImageRequest,
  type Warning,
} from '../../src/canonical/index.ts';
import {
  bytesToBase64,
} from '../../src/kit/index.ts';
import type { TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { methodPath, upstreamHeaders } from './encode-request.ts';
import type { GeminiOutPart } from './wire.ts';

export interface GeminiImageOptions {
  /** What to do with an edit's mask: refuse it (default), or describe it in an instruction. */
  mask?: 'refuse' | 'instruction';
}

export const VARIATION_INSTRUCTION =
  'Create a variation of this image: keep its subject, composition and style, and change the details so that the result is a new, different image.';

export const MASK_INSTRUCTION =
  'The last image is a mask for the first one: change only the areas where the mask is fully transparent, and keep everything else exactly as it is.';

export interface GeminiImageRequestBody {
  contents: Array<{ role: 'user'; parts: GeminiOutPart[] }>;
  generationConfig: { responseModalities: string[]; imageConfig?: { aspectRatio: string } };
}

export function encodeImageRequest(
  req: ImageRequest,
  target: UpstreamTarget,
  _ctx: TranslateContext,
  options: GeminiImageOptions = {},
): Converted<UpstreamHttpRequest[]> {
  const warnings: Warning[] = [];
  const parts = partsOf(req, { mask: options.mask ?? target.options.imageMask }, warnings);
  const generationConfig: GeminiImageRequestBody['generationConfig'] = { responseModalities: ['TEXT', 'IMAGE'] };
  const aspectRatio = aspectRatioOf(req.size, warnings);
  if (aspectRatio) generationConfig.imageConfig = { aspectRatio };
  for (const name of ['quality', 'style', 'user'] as const) {
    if (req[name] !== undefined) warnings.push({ code: 'dropped', path: name });
  }
  for (const [name, value] of Object.entries(req.extras ?? {})) {
    if (value !== undefined && value !== null) warnings.push({ code: 'dropped', path: name });
  }
  const n = req.n ?? 1;
  if (n > 1) warnings.push({ code: 'approximated', path: 'n', detail: 'fan-out' });

  const body: GeminiImageRequestBody = { contents: [{ role: 'user', parts }], generationConfig };
  const request: UpstreamHttpRequest = {
    method: 'POST',
    path: methodPath(target, 'generateContent'),
    headers: upstreamHeaders(target),
    body: JSON.stringify(body),
    stream: false,
  };
  return { value: Array.from({ length: n }, () => ({ ...request, headers: { ...request.headers } })), warnings };
}

function partsOf(req: ImageRequest, options: GeminiImageOptions, warnings: Warning[]): GeminiOutPart[] {
  const images = req.images.map(inline);
  switch (req.op) {
    case 'generate':
      return [{ text: req.prompt ?? '' }];
    case 'variation':
      return [{ text: req.prompt ? `${VARIATION_INSTRUCTION}\n\n${req.prompt}` : VARIATION_INSTRUCTION }, ...images];
    case 'edit': {
      if (!req.mask) return [{ text: req.prompt ?? '' }, ...images];
      if (options.mask !== 'instruction') {
        throw new ProxyError(
          'unsupported',
          "Masks are not supported by Gemini image models: send the edit without 'mask' and describe the area to change in the prompt, or route it to an OpenAI image model.",
          { param: 'mask', code: 'unsupported_parameter' },
        );
      }
      warnings.push({ code: 'approximated', path: 'mask', detail: 'instruction' });
      return [{ text: `${req.prompt ?? ''}\n\n${MASK_INSTRUCTION}` }, ...images, inline(req.mask)];
    }
    default:
      return assertNever(req.op, 'image op');
  }
}

function inline(image: ImageInput): GeminiOutPart {
  return { inlineData: { mimeType: image.mediaType || 'image/png', data: bytesToBase64(image.data) } };
}

/** `1792x1024` → `16:9`; a size of no listed ratio → the nearest one; `auto` → none. */
function aspectRatioOf(size: string | undefined, warnings: Warning[]): string | undefined {
  if (size === undefined || size === 'auto') return undefined;
  const ratio = sizeToAspectRatio(size) ?? nearestAspectRatio(size);
  if (!ratio) {
    warnings.push({ code: 'dropped', path: 'size', detail: size });
    return undefined;
  }
  warnings.push({ code: 'approximated', path: 'size', detail: `${size}->${ratio}` });
  return ratio;
}
