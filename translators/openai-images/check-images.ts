/**
 * Limits on uploaded images and masks (spec "Edit image" / "Image variations" / "Limits"):
 * dall-e-2 takes one square PNG under 4 MB, with transparency when no mask is given;
 * gpt-image takes up to 16 PNG / WEBP / JPEG files under 25 MB each; a mask is a PNG under 4 MB
 * with the first image's dimensions. Formats come from the bytes, not the declared type.
 */
import type { ImageInput, ImageRequest } from '../../src/canonical/index.ts';
import { invalid } from './errors.ts';
import { sniffImage } from './image-bytes.ts';
import type { ImageInfo } from './image-bytes.ts';
import { MASK_MAX_BYTES } from './models.ts';
import type { OpenAIImageLimits } from './models.ts';
import type { ImageFormFile } from './read-form.ts';

const NAMES: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WEBP' };

export function checkImages(
  files: ImageFormFile[],
  op: ImageRequest['op'],
  model: string,
  limits: OpenAIImageLimits | undefined,
  hasMask: boolean,
): ImageInput[] {
  if (files.length === 0) throw invalid("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  const max = op === 'variation' ? 1 : (limits?.maxImages ?? Infinity);
  if (files.length > max) {
    throw invalid(`Invalid 'image': ${model} ${opText(op)} take at most ${max} image${max === 1 ? '' : 's'}, but got ${files.length}.`, 'image');
  }
  return files.map((file, i) => {
    const info = sniffImage(file.data);
    if (limits) checkImage(file, info, i, files.length, model, limits, op === 'edit' && !hasMask);
    return toInput(file, info);
  });
}

function checkImage(
  file: ImageFormFile,
  info: ImageInfo | undefined,
  index: number,
  count: number,
  model: string,
  limits: OpenAIImageLimits,
  needsAlpha: boolean,
): void {
  const which = count > 1 ? `image ${index + 1}` : 'the image';
  const allowed = limits.imageTypes.map((t) => NAMES[t] ?? t).join(', ');
  if (!info || !limits.imageTypes.includes(info.mediaType)) {
    throw invalid(`Invalid 'image': ${which} must be ${allowed} for ${model}, but is ${describe(info)}.`, 'image', 'invalid_image_format');
  }
  if (file.data.length >= limits.imageMaxBytes) {
    throw invalid(
      `Invalid 'image': ${which} must be under ${limits.imageMaxBytes / 1024 / 1024} MB for ${model}, but is ${file.data.length} bytes.`,
      'image',
      'image_too_large',
    );
  }
  if (limits.square) {
    if (info.width === undefined || info.height === undefined) {
      throw invalid(`Invalid 'image': ${which} is not a valid ${allowed} file.`, 'image', 'invalid_image_format');
    }
    if (info.width !== info.height) {
      throw invalid(`Invalid 'image': ${which} must be square for ${model}, but is ${info.width}x${info.height}.`, 'image', 'invalid_image_size');
    }
  }
  if (needsAlpha && limits.alphaWithoutMask && info.mediaType === 'image/png' && info.hasAlpha === false) {
    throw invalid(
      `Invalid 'image': without a 'mask', ${which} must have transparency (an alpha channel) to mark the area to edit.`,
      'image',
      'invalid_image_format',
    );
  }
}

export function checkMask(
  file: ImageFormFile,
  first: ImageInput | undefined,
  model: string,
  limits: OpenAIImageLimits | undefined,
): ImageInput {
  const info = sniffImage(file.data);
  if (limits) {
    if (info?.mediaType !== 'image/png') {
      throw invalid(`Invalid 'mask': the mask must be a PNG, but is ${describe(info)}.`, 'mask', 'invalid_image_format');
    }
    if (file.data.length >= MASK_MAX_BYTES) {
      throw invalid(`Invalid 'mask': the mask must be under 4 MB, but is ${file.data.length} bytes.`, 'mask', 'image_too_large');
    }
    const image = first ? sniffImage(first.data) : undefined;
    if (
      image?.width !== undefined && image.height !== undefined && info.width !== undefined &&
      info.height !== undefined && (image.width !== info.width || image.height !== info.height)
    ) {
      throw invalid(
        `Invalid 'mask': the mask (${info.width}x${info.height}) must have the same dimensions as the image (${image.width}x${image.height}) for ${model}.`,
        'mask',
        'invalid_image_size',
      );
    }
  }
  return toInput(file, info);
}

/** The sniffed type wins over the declared one (clients often send `application/octet-stream`). */
function toInput(file: ImageFormFile, info: ImageInfo | undefined): ImageInput {
  return {
    data: file.data,
    mediaType: info?.mediaType ?? (file.mediaType || 'application/octet-stream'),
    ...(file.filename !== undefined ? { filename: file.filename } : {}),
  };
}

function describe(info: ImageInfo | undefined): string {
  return info ? (NAMES[info.mediaType] ?? info.mediaType) : 'not a recognised image format';
}

function opText(op: ImageRequest['op']): string {
  return op === 'variation' ? 'variations' : 'edits';
}
