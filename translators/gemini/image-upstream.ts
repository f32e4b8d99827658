/**
 * Gemini as an image upstream (`ImageUpstream`): image-encode.ts and image-decode.ts, with the
 * dialect's own error table. `createGeminiImages({ mask: 'instruction' })` builds one that
 * approximates masks instead of refusing them.
 */
import type { ImageUpstream } from '../types.ts';
import { decodeError } from './errors.ts';
import { decodeImageResponse } from './image-decode.ts';
import { encodeImageRequest, type GeminiImageOptions } from './image-encode.ts';

export function createGeminiImages(options: GeminiImageOptions = {}): ImageUpstream {
  return {
    vendor: 'gemini',
    encodeImageRequest: (req, target, ctx) => encodeImageRequest(req, target, ctx, options),
    decodeImageResponse,
    decodeError,
  };
}

export type { GeminiImageOptions };
