/**
 * What a caller reads when an uploaded image or mask breaks a documented limit: the message names
 * the offending file, the limit and what was sent, with OpenAI's error code.
 */
import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeImageRequest } from './decode-request.ts';
import type { ImageFormFields, ImageFormFile } from './read-form.ts';
import { jpeg, png, webp } from './test-images.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const ctx = testContext();
const f = (data: Uint8Array, filename?: string): ImageFormFile => ({ data, mediaType: 'image/png', ...(filename ? { filename } : {}) });
const form = (fields: Record<string, string>, images: ImageFormFile[], files: Record<string, ImageFormFile[]> = {}): ImageFormFields => ({
  fields,
  images,
  files,
});
const run = (op: 'edit' | 'variation', body: ImageFormFields) => decodeImageRequest({ body, headers: {}, params: {}, query: {} }, op, ctx);

/** The 400 the call throws: [param, code, message]. */
function refusal(op: 'edit' | 'variation', body: ImageFormFields): [string | undefined, string | undefined, string] {
  const err = proxyErrorOf(() => run(op, body));
  expect(err.status).toBe(400);
  return [err.param, err.code, err.message];
}

const MB = 1024 * 1024;
const square = png(512, 512);
const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 2, 0, 3, 0]);
const text = new TextEncoder().encode('definitely not an image');

describe('image count', () => {
  it('says an image is required', () => {
    expect(refusal('edit', form({ prompt: 'x' }, []))).toEqual(['image', 'missing_required_parameter', "Missing required parameter: 'image'."]);
  });

  it('names the model, the operation and the limit', () => {
    expect(refusal('edit', form({ model: 'dall-e-2', prompt: 'x' }, [f(square), f(square)]))[2]).toBe(
      "Invalid 'image': dall-e-2 edits take at most 1 image, but got 2.",
    );
    expect(refusal('variation', form({}, [f(square), f(square)]))[2]).toBe(
      "Invalid 'image': dall-e-2 variations take at most 1 image, but got 2.",
    );
    const seventeen = Array.from({ length: 17 }, () => f(png(8, 8)));
    expect(refusal('edit', form({ model: 'gpt-image-1', prompt: 'x' }, seventeen))).toEqual([
      'image',
      'invalid_value',
      "Invalid 'image': gpt-image-1 edits take at most 16 images, but got 17.",
    ]);
  });

  it('takes one image per variation even for a model it has no limits for', () => {
    expect(run('variation', form({ model: 'my-model' }, [f(square)])).value.images).toHaveLength(1);
    expect(refusal('variation', form({ model: 'my-model' }, [f(square), f(square)]))[2]).toBe(
      "Invalid 'image': my-model variations take at most 1 image, but got 2.",
    );
    // Edits of unknown models take any number.
    expect(run('edit', form({ model: 'my-model', prompt: 'x' }, [f(square), f(square), f(square)])).value.images).toHaveLength(3);
  });
});

describe('image format, size and shape', () => {
  it('names the allowed formats and the sniffed one, and which image is wrong', () => {
    expect(refusal('edit', form({ prompt: 'x' }, [f(jpeg(512, 512))]))).toEqual([
      'image',
      'invalid_image_format',
      "Invalid 'image': the image must be PNG for dall-e-2, but is JPEG.",
    ]);
    expect(refusal('variation', form({}, [f(text)]))[2]).toBe(
      "Invalid 'image': the image must be PNG for dall-e-2, but is not a recognised image format.",
    );
    expect(refusal('edit', form({ model: 'gpt-image-1', prompt: 'x' }, [f(png(8, 8)), f(gif)]))).toEqual([
      'image',
      'invalid_image_format',
      "Invalid 'image': image 2 must be PNG, WEBP, JPEG for gpt-image-1, but is image/gif.",
    ]);
    expect(refusal('edit', form({ model: 'gpt-image-1', prompt: 'x' }, [f(text), f(png(8, 8))]))[2]).toBe(
      "Invalid 'image': image 1 must be PNG, WEBP, JPEG for gpt-image-1, but is not a recognised image format.",
    );
  });

  it('gives the size limit in MB and the size sent in bytes', () => {
    expect(refusal('edit', form({ prompt: 'x' }, [f(png(512, 512, { size: 4 * MB }))]))).toEqual([
      'image',
      'image_too_large',
      `Invalid 'image': the image must be under 4 MB for dall-e-2, but is ${4 * MB} bytes.`,
    ]);
    expect(refusal('edit', form({ model: 'gpt-image-1', prompt: 'x' }, [f(webp(8, 8)), f(jpeg(8, 8, 25 * MB))]))).toEqual([
      'image',
      'image_too_large',
      `Invalid 'image': image 2 must be under 25 MB for gpt-image-1, but is ${25 * MB} bytes.`,
    ]);
  });

  it('says a dall-e-2 image must be square, with its actual size', () => {
    expect(refusal('variation', form({}, [f(png(512, 300))]))).toEqual([
      'image',
      'invalid_image_size',
      "Invalid 'image': the image must be square for dall-e-2, but is 512x300.",
    ]);
  });

  it('refuses a PNG whose header is cut short (no dimensions to check)', () => {
    expect(refusal('variation', form({}, [f(png(512, 512).subarray(0, 20))]))).toEqual([
      'image',
      'invalid_image_format',
      "Invalid 'image': the image is not a valid PNG file.",
    ]);
  });

  it('explains the transparency rule of dall-e-2 edits without a mask', () => {
    expect(refusal('edit', form({ prompt: 'x' }, [f(png(512, 512, { colourType: 2 }))]))).toEqual([
      'image',
      'invalid_image_format',
      "Invalid 'image': without a 'mask', the image must have transparency (an alpha channel) to mark the area to edit.",
    ]);
  });
});

describe('mask', () => {
  it('must be a PNG, named by its sniffed type', () => {
    expect(refusal('edit', form({ prompt: 'x' }, [f(square)], { mask: [f(jpeg(512, 512))] }))).toEqual([
      'mask',
      'invalid_image_format',
      "Invalid 'mask': the mask must be a PNG, but is JPEG.",
    ]);
    expect(refusal('edit', form({ prompt: 'x' }, [f(square)], { mask: [f(text)] }))).toEqual([
      'mask',
      'invalid_image_format',
      "Invalid 'mask': the mask must be a PNG, but is not a recognised image format.",
    ]);
  });

  it('must be under 4 MB', () => {
    expect(refusal('edit', form({ model: 'gpt-image-1', prompt: 'x' }, [f(square)], { mask: [f(png(512, 512, { size: 4 * MB }))] }))).toEqual([
      'mask',
      'image_too_large',
      `Invalid 'mask': the mask must be under 4 MB, but is ${4 * MB} bytes.`,
    ]);
  });

  it('must match the image in width and in height', () => {
    for (const [w, h] of [[512, 256], [256, 512], [256, 256]] as const) {
      expect(refusal('edit', form({ prompt: 'x' }, [f(square)], { mask: [f(png(w, h))] }))).toEqual([
        'mask',
        'invalid_image_size',
        `Invalid 'mask': the mask (${w}x${h}) must have the same dimensions as the image (512x512) for dall-e-2.`,
      ]);
    }
    expect(run('edit', form({ prompt: 'x' }, [f(square)], { mask: [f(png(512, 512))] })).value.mask?.mediaType).toBe('image/png');
  });

  it('is accepted when the image header gives no dimensions to compare', () => {
    const noSof = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xd9]);
    const { value } = run('edit', form({ model: 'gpt-image-1', prompt: 'x' }, [f(noSof)], { mask: [f(png(512, 512))] }));
    expect(value.images[0]!.mediaType).toBe('image/jpeg');
    expect(value.mask?.mediaType).toBe('image/png');
  });

  it('is passed unchecked for a model without known limits', () => {
    const { value } = run('edit', form({ model: 'my-model', prompt: 'x' }, [f(square)], { mask: [f(jpeg(10, 10), 'm.jpg')] }));
    expect(value.mask).toEqual({ data: expect.any(Uint8Array), mediaType: 'image/jpeg', filename: 'm.jpg' });
  });
});
