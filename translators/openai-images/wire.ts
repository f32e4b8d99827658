/**
 * OpenAI Images wire shapes (valibot, loose: unknown fields pass). Value lists that depend on the
 * model are checked in decode-request.ts, not here.
 * Reference: ../../../shared/spec/images.md and the `openai` SDK's resources/images.d.ts.
 */
import * as v from 'valibot';
import { assertNever, type ImageRequest } from '../../src/canonical/index.ts';

const int = v.pipe(v.number(), v.integer());

/**
 * The parameters of generations (JSON) and of edits / variations (form fields, after numeric and
 * boolean strings were read as numbers and booleans). `null` means "not given" for every field.
 */
export const OpenAIImageRequestSchema = v.looseObject({
  prompt: v.nullish(v.string()),
  model: v.nullish(v.string()),
  n: v.nullish(int),
  quality: v.nullish(v.string()),
  response_format: v.nullish(v.picklist(['url', 'b64_json'])),
  size: v.nullish(v.string()),
  style: v.nullish(v.string()),
  user: v.nullish(v.string()),
  background: v.nullish(v.string()),
  output_format: v.nullish(v.string()),
  output_compression: v.nullish(int),
  moderation: v.nullish(v.string()),
  input_fidelity: v.nullish(v.string()),
  partial_images: v.nullish(int),
  stream: v.nullish(v.boolean()),
});
export type OpenAIImageRequest = v.InferOutput<typeof OpenAIImageRequestSchema>;

/** Form fields read as numbers / booleans before validation (multipart carries only strings). */
export const NUMERIC_FORM_FIELDS: readonly string[] = ['n', 'output_compression', 'partial_images'];
export const BOOLEAN_FORM_FIELDS: readonly string[] = ['stream'];

export const OpenAIImageDataSchema = v.looseObject({
  url: v.nullish(v.string()),
  b64_json: v.nullish(v.string()),
  revised_prompt: v.nullish(v.string()),
});
export type OpenAIImageData = v.InferOutput<typeof OpenAIImageDataSchema>;

const count = v.nullish(v.number());

export const OpenAIImageUsageSchema = v.looseObject({
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
  input_tokens_details: v.nullish(
    v.looseObject({ text_tokens: count, image_tokens: count }),
  ),
});
export type OpenAIImageUsage = v.InferOutput<typeof OpenAIImageUsageSchema>;

/** A response body; `data` must hold at least one image (an empty list is no answer). */
export const OpenAIImagesResponseSchema = v.looseObject({
  created: v.nullish(v.number()),
  data: v.pipe(v.array(OpenAIImageDataSchema), v.minLength(1, 'no images in data')),
  usage: v.nullish(OpenAIImageUsageSchema),
  background: v.nullish(v.string()),
  output_format: v.nullish(v.string()),
  quality: v.nullish(v.string()),
  size: v.nullish(v.string()),
});
export type OpenAIImagesResponse = v.InferOutput<typeof OpenAIImagesResponseSchema>;

/** Top-level gpt-image response fields carried in `ImageResponse.extras`, in wire order. */
export const RESPONSE_EXTRA_FIELDS = ['background', 'output_format', 'quality', 'size'] as const;

/** `{"error":{"message","type","param","code"}}` — the envelope of every OpenAI API error. */
export const OpenAIErrorBodySchema = v.looseObject({
  error: v.looseObject({
    message: v.nullish(v.string()),
    type: v.nullish(v.string()),
    param: v.nullish(v.string()),
    code: v.nullish(v.union([v.string(), v.number()])),
  }),
});
export type OpenAIErrorBody = v.InferOutput<typeof OpenAIErrorBodySchema>;

/** The route segment of an image operation: `/images/{generations|edits|variations}`. */
export function opPath(op: ImageRequest['op']): 'generations' | 'edits' | 'variations' {
  switch (op) {
    case 'generate':
      return 'generations';
    case 'edit':
      return 'edits';
    case 'variation':
      return 'variations';
    default:
      return assertNever(op, 'image op');
  }
}
