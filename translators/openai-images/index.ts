/**
 * The OpenAI Images dialect (`/v1/images/generations | edits | variations`), both sides.
 *
 * Multipart bodies (edits, variations): `decodeImageRequest` is synchronous and pure, so the flow
 * first reads the parsed `FormData` with the async `readImageForm(form)` (which only awaits each
 * file's bytes) and passes the resulting `ImageFormFields` as `input.body`. Generations pass the
 * parsed JSON body. Passing a raw `FormData` is a programming error and throws.
 *
 * Decisions worth knowing:
 * - `response_format` is accepted for GPT image models too (the real service answers 400
 *   `unknown_parameter`): the proxy can host base64 images at a URL, so it honours it. It is never
 *   sent upstream to a GPT image model. When the caller gave none, `responseFormat` is filled with
 *   the model's default (`url` for dall-e, `b64_json` for GPT image models); for unknown models it
 *   stays unset, meaning "return what the upstream returned".
 * - No model named: `dall-e-2`, or `gpt-image-1` when gpt-image-only parameters (or several
 *   images, or quality low/medium/high) are used, as the real service does.
 * - `stream: true` is refused (400, param `stream`): the contract has no image stream.
 * - `n` 1–10 is checked for every model (it also bounds upstream fan-out); all other limits only
 *   for the known models (dall-e-2, dall-e-3, gpt-image-1 / -1.5 / -1-mini, image-model-a/b/c).
 */
import type { ImageCaller, ImageUpstream } from '../types.ts';
import { decodeImageRequest } from './decode-request.ts';
import { decodeImageResponse } from './decode-response.ts';
import { encodeImageRequest } from './encode-request.ts';
import { encodeImageResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';

export const openaiImages: ImageCaller & ImageUpstream = {
  id: 'openai-images',
  vendor: 'openai',
  decodeImageRequest,
  encodeImageResponse,
  encodeError,
  encodeImageRequest,
  decodeImageResponse,
  decodeError,
};

export { readImageForm } from './read-form.ts';
export type { ImageFormFields, ImageFormFile } from './read-form.ts';
export { sizeToAspectRatio } from './models.ts';
export { sniffImage } from './image-bytes.ts';
export type { ImageInfo } from './image-bytes.ts';
