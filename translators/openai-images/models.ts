/**
 * Per-model limits of the OpenAI Images API, for the real and the neutral model names.
 * Spec: ../../../shared/spec/images.md ("Endpoints", "Limits") and the `openai` SDK's
 * `ImageGenerateParams` / `ImageEditParams` docs. Unknown models get no model-specific checks.
 */
import type { ImageRequest } from '../../src/canonical/index.ts';

/** The three documented model generations (`image-model-a/b/c`). */
export type OpenAIImageFamily = 'dall-e-2' | 'dall-e-3' | 'gpt-image';

export interface OpenAIImageLimits {
  family: OpenAIImageFamily;
  /** Prompt length in characters (code points). */
  promptMax: number;
  nMax: number;
  ops: readonly ImageRequest['op'][];
  sizes: readonly string[];
  /** `auto` is accepted for every model: the SDK documents it as the default for all of them. */
  qualities: readonly string[];
  /** Only dall-e-3 has `style`. */
  styles: readonly string[];
  /** Input image media types for edits / variations. */
  imageTypes: readonly string[];
  /** Input images must be strictly smaller than this many bytes. */
  imageMaxBytes: number;
  maxImages: number;
  /** dall-e-2 input images must be square. */
  square: boolean;
  /** dall-e-2: without a mask, the image's own transparency marks the area to edit. */
  alphaWithoutMask: boolean;
  /** Whether the gpt-image parameters (background, output_format…) are accepted. */
  gptImageParams: boolean;
  /** The model always answers with base64 and rejects `response_format` upstream. */
  alwaysB64: boolean;
}

const MB = 1024 * 1024;

const dallE2: OpenAIImageLimits = {
  family: 'dall-e-2',
  promptMax: 1000,
  nMax: 10,
  ops: ['generate', 'edit', 'variation'],
  sizes: ['256x256', '512x512', '1024x1024'],
  qualities: ['standard', 'auto'],
  styles: [],
  imageTypes: ['image/png'],
  imageMaxBytes: 4 * MB,
  maxImages: 1,
  square: true,
  alphaWithoutMask: true,
  gptImageParams: false,
  alwaysB64: false,
};

const dallE3: OpenAIImageLimits = {
  family: 'dall-e-3',
  promptMax: 4000,
  nMax: 1,
  ops: ['generate'],
  sizes: ['1024x1024', '1792x1024', '1024x1792'],
  qualities: ['standard', 'hd', 'auto'],
  styles: ['vivid', 'natural'],
  imageTypes: [],
  imageMaxBytes: 0,
  maxImages: 0,
  square: false,
  alphaWithoutMask: false,
  gptImageParams: false,
  alwaysB64: false,
};

const gptImage: OpenAIImageLimits = {
  family: 'gpt-image',
  promptMax: 32000,
  nMax: 10,
  ops: ['generate', 'edit'],
  sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  qualities: ['low', 'medium', 'high', 'auto'],
  styles: [],
  imageTypes: ['image/png', 'image/webp', 'image/jpeg'],
  imageMaxBytes: 25 * MB,
  maxImages: 16,
  square: false,
  alphaWithoutMask: false,
  gptImageParams: true,
  alwaysB64: true,
};

/** Mask: a PNG under 4 MB with the first image's dimensions (all models). */
export const MASK_MAX_BYTES = 4 * MB;

/** The model when the caller names none (spec: `image-model-a`). */
export const DEFAULT_IMAGE_MODEL = 'dall-e-2';
/** The model the real service picks when gpt-image-only parameters are used without a model. */
export const DEFAULT_GPT_IMAGE_MODEL = 'gpt-image-1';

/** The family of a model name, or `undefined` for a model these limits do not know. */
export function imageFamilyOf(model: string): OpenAIImageFamily | undefined {
  switch (model) {
    case 'dall-e-2':
    case 'image-model-a':
      return 'dall-e-2';
    case 'dall-e-3':
    case 'image-model-b':
      return 'dall-e-3';
    case 'image-model-c':
      return 'gpt-image';
    default:
      // gpt-image-1, gpt-image-1.5, gpt-image-1-mini and their dated snapshots.
      return /^gpt-image-1(?:\.5|-mini)?(?:-\d{4}-\d{2}-\d{2})?$/.test(model) ? 'gpt-image' : undefined;
  }
}

export function imageLimitsOf(model: string): OpenAIImageLimits | undefined {
  const family = imageFamilyOf(model);
  return family === undefined ? undefined : limitsOfFamily(family);
}

export function limitsOfFamily(family: OpenAIImageFamily): OpenAIImageLimits {
  switch (family) {
    case 'dall-e-2':
      return dallE2;
    case 'dall-e-3':
      return dallE3;
    case 'gpt-image':
      return gptImage;
  }
}

/** gpt-image-only request fields (kept in `ImageRequest.extras`). */
export const GPT_IMAGE_PARAMS = [
  'background',
  'output_format',
  'output_compression',
  'moderation',
  'input_fidelity',
  'partial_images',
] as const;

/** Sizes ⇄ aspect ratios live in the canonical model: the Gemini image upstream needs them too. */
export { parseSize, sizeToAspectRatio } from '../../src/canonical/index.ts';
