import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import type { ImageRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeImageRequest } from './decode-request.ts';
import { readImageForm } from './read-form.ts';
import type { ImageFormFields, ImageFormFile } from './read-form.ts';
import { file, jpeg, png, webp } from './test-images.ts';

const ctx = testContext();
const input = (body: unknown) => ({ body, headers: {}, params: {}, query: {} });
const generate = (body: unknown) => decodeImageRequest(input(body), 'generate', ctx);
const f = (data: Uint8Array, mediaType = 'image/png', filename?: string): ImageFormFile => ({
  data,
  mediaType,
  ...(filename ? { filename } : {}),
});
const form = (
  fields: Record<string, string>,
  images: ImageFormFile[],
  files: Record<string, ImageFormFile[]> = {},
): ImageFormFields => ({ fields, images, files });
const edit = (body: ImageFormFields) => decodeImageRequest(input(body), 'edit', ctx);
const variation = (body: ImageFormFields) => decodeImageRequest(input(body), 'variation', ctx);

/** The call throws an invalid-request ProxyError (400) naming `param`. */
function rejects(fn: () => unknown, param: string, kind = 'invalid-request'): ProxyError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a rejection naming '${param}'`).toBeInstanceOf(ProxyError);
  const err = caught as ProxyError;
  expect(err.param).toBe(param);
  expect(err.kind).toBe(kind);
  expect(err.status).toBe(400);
  expect(err.message).toContain(param);
  return err;
}

const MB = 1024 * 1024;
const square = png(512, 512);

describe('decodeImageRequest: generations', () => {
  it('decodes the gpt-image fixture request', () => {
    const { value, warnings } = generate(fixtureJson('openai-images', 'generations-gpt-image-usage.request.json'));
    expect(value).toEqual<ImageRequest>({
      op: 'generate',
      model: 'gpt-image-1.5',
      prompt: 'A cute baby sea otter',
      images: [],
      n: 1,
      size: '1024x1024',
      responseFormat: 'b64_json',
    });
    expect(warnings).toEqual([]);
  });

  it('decodes every dall-e-3 parameter', () => {
    const { value } = generate({
      model: 'dall-e-3',
      prompt: 'a lighthouse',
      n: 1,
      quality: 'hd',
      response_format: 'b64_json',
      size: '1792x1024',
      style: 'natural',
      user: 'user-1',
    });
    expect(value).toEqual<ImageRequest>({
      op: 'generate',
      model: 'dall-e-3',
      prompt: 'a lighthouse',
      images: [],
      n: 1,
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
      responseFormat: 'b64_json',
      user: 'user-1',
    });
  });

  it('defaults to dall-e-2 with url output; null means absent', () => {
    const { value } = generate({ prompt: 'x', n: null, size: null, quality: null, style: null, response_format: null });
    expect(value).toEqual({ op: 'generate', model: 'dall-e-2', prompt: 'x', images: [], responseFormat: 'url' });
    expect(generate({ model: 'image-model-b', prompt: 'x' }).value.responseFormat).toBe('url');
  });

  it('picks gpt-image-1 when gpt-image parameters are used without a model', () => {
    expect(generate({ prompt: 'x', background: 'transparent' }).value.model).toBe('gpt-image-1');
    expect(generate({ prompt: 'x', quality: 'high' }).value.model).toBe('gpt-image-1');
    expect(generate({ prompt: 'x', quality: 'standard' }).value.model).toBe('dall-e-2');
  });

  it('keeps gpt-image parameters and unknown fields in extras', () => {
    const { value } = generate({
      model: 'gpt-image-1',
      prompt: 'x',
      quality: 'low',
      size: 'auto',
      background: 'transparent',
      output_format: 'webp',
      output_compression: 80,
      moderation: 'low',
      partial_images: 2,
      some_new_field: { a: 1 },
    });
    expect(value.extras).toEqual({
      background: 'transparent',
      output_format: 'webp',
      output_compression: 80,
      moderation: 'low',
      partial_images: 2,
      some_new_field: { a: 1 },
    });
    expect(value.quality).toBe('low');
    expect(value.size).toBe('auto');
  });

  it('accepts response_format for gpt-image models (the proxy hosts URLs) instead of the real 400', () => {
    expect(generate({ model: 'gpt-image-1', prompt: 'x', response_format: 'url' }).value.responseFormat).toBe('url');
  });

  it('applies no model-specific checks to unknown models', () => {
    const { value } = generate({
      model: 'gemini-2.5-flash-image',
      prompt: 'p'.repeat(50_000),
      size: '999x777',
      quality: 'ultra',
      style: 'anime',
      background: 'whatever',
    });
    expect(value).toMatchObject({ size: '999x777', quality: 'ultra', style: 'anime', extras: { background: 'whatever' } });
    expect(value.responseFormat).toBeUndefined();
    rejects(() => generate({ model: 'gemini-2.5-flash-image', prompt: 'x', n: 11 }), 'n');
  });

  it('counts prompt length in characters, not UTF-16 units', () => {
    expect(generate({ prompt: '😀'.repeat(1000) }).value.prompt).toHaveLength(2000);
  });

  it('rejects a missing or too long prompt, per model and for both names', () => {
    rejects(() => generate({ model: 'dall-e-2' }), 'prompt');
    rejects(() => generate({ prompt: '' }), 'prompt');
    rejects(() => generate({ prompt: null }), 'prompt');
    rejects(() => generate({ prompt: 42 }), 'prompt');
    expect(generate({ prompt: 'a'.repeat(1000) }).value.prompt).toHaveLength(1000);
    for (const [model, max] of [
      ['dall-e-2', 1000], ['image-model-a', 1000], ['dall-e-3', 4000], ['image-model-b', 4000],
      ['gpt-image-1', 32000], ['image-model-c', 32000], ['gpt-image-1-mini', 32000],
    ] as const) {
      expect(generate({ model, prompt: 'a'.repeat(max) }).value.prompt).toHaveLength(max);
      const err = rejects(() => generate({ model, prompt: 'a'.repeat(max + 1) }), 'prompt');
      expect(err.code).toBe('string_above_max_length');
      expect(err.message).toContain(String(max));
    }
  });

  it('rejects n outside 1–10, and n > 1 for dall-e-3', () => {
    rejects(() => generate({ prompt: 'x', n: 0 }), 'n');
    rejects(() => generate({ prompt: 'x', n: 11 }), 'n');
    rejects(() => generate({ prompt: 'x', n: 1.5 }), 'n');
    rejects(() => generate({ prompt: 'x', n: '2' }), 'n');
    expect(generate({ prompt: 'x', n: 10 }).value.n).toBe(10);
    rejects(() => generate({ model: 'dall-e-3', prompt: 'x', n: 2 }), 'n');
    rejects(() => generate({ model: 'image-model-b', prompt: 'x', n: 2 }), 'n');
  });

  it('rejects sizes a model does not make', () => {
    const cases: Array<[string, string[], string[]]> = [
      ['dall-e-2', ['256x256', '512x512', '1024x1024'], ['1792x1024', '1536x1024', 'auto']],
      ['dall-e-3', ['1024x1024', '1792x1024', '1024x1792'], ['256x256', '1536x1024', 'auto']],
      ['gpt-image-1', ['1024x1024', '1536x1024', '1024x1536', 'auto'], ['256x256', '1792x1024']],
      ['image-model-c', ['auto'], ['512x512']],
    ];
    for (const [model, ok, bad] of cases) {
      for (const size of ok) expect(generate({ model, prompt: 'x', size }).value.size).toBe(size);
      for (const size of bad) rejects(() => generate({ model, prompt: 'x', size }), 'size');
    }
  });

  it('rejects quality and style where a model does not support them', () => {
    expect(generate({ model: 'dall-e-3', prompt: 'x', quality: 'standard' }).value.quality).toBe('standard');
    rejects(() => generate({ model: 'dall-e-3', prompt: 'x', quality: 'high' }), 'quality');
    rejects(() => generate({ model: 'dall-e-2', prompt: 'x', quality: 'hd' }), 'quality');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', quality: 'hd' }), 'quality');
    expect(generate({ model: 'dall-e-3', prompt: 'x', style: 'vivid' }).value.style).toBe('vivid');
    rejects(() => generate({ model: 'dall-e-3', prompt: 'x', style: 'anime' }), 'style');
    rejects(() => generate({ model: 'dall-e-2', prompt: 'x', style: 'vivid' }), 'style');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', style: 'natural' }), 'style');
  });

  it('rejects bad response_format, gpt-image parameters on dall-e, and bad gpt-image values', () => {
    rejects(() => generate({ prompt: 'x', response_format: 'png' }), 'response_format');
    rejects(() => generate({ model: 'dall-e-2', prompt: 'x', background: 'transparent' }), 'background');
    rejects(() => generate({ model: 'dall-e-3', prompt: 'x', output_format: 'png' }), 'output_format');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', background: 'green' }), 'background');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', output_format: 'gif' }), 'output_format');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', output_compression: 101 }), 'output_compression');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', output_compression: 'high' }), 'output_compression');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', moderation: 'off' }), 'moderation');
    rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', partial_images: 4 }), 'partial_images');
    rejects(() => generate({ prompt: 'x', model: 3 }), 'model');
    rejects(() => generate({ prompt: 'x', user: 3 }), 'user');
  });

  it('refuses stream: true (no image stream in the contract)', () => {
    const err = rejects(() => generate({ model: 'gpt-image-1', prompt: 'x', stream: true }), 'stream', 'unsupported');
    expect(err.status).toBe(400);
    expect(generate({ prompt: 'x', stream: false }).value.extras).toBeUndefined();
  });

  it('never lets a TypeError escape for odd JSON bodies', () => {
    for (const body of [null, undefined, [], 3, 'x', true, [{ prompt: 'x' }]]) {
      expect(() => generate(body)).toThrow(ProxyError);
    }
  });
});

describe('decodeImageRequest: edits', () => {
  it('decodes a dall-e-2 edit with image and mask; types come from the bytes', () => {
    const mask = png(512, 512, { colourType: 6 });
    const { value } = edit(
      form(
        { prompt: 'add a hat', n: '2', size: '512x512', response_format: 'b64_json', user: 'u' },
        [f(square, 'application/octet-stream', 'otter.png')],
        { mask: [f(mask, '', 'mask.png')] },
      ),
    );
    expect(value).toEqual<ImageRequest>({
      op: 'edit',
      model: 'dall-e-2',
      prompt: 'add a hat',
      images: [{ data: square, mediaType: 'image/png', filename: 'otter.png' }],
      mask: { data: mask, mediaType: 'image/png', filename: 'mask.png' },
      n: 2,
      size: '512x512',
      responseFormat: 'b64_json',
      user: 'u',
    });
  });

  it('decodes a gpt-image-1 edit with several PNG / JPEG / WEBP images', () => {
    const images = [png(1024, 1024), jpeg(800, 600), webp(1536, 1024)];
    const { value } = edit(
      form({ model: 'gpt-image-1', prompt: 'a gift basket', input_fidelity: 'high', quality: 'high' }, images.map((d) => f(d, ''))),
    );
    expect(value.images.map((i) => i.mediaType)).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    expect(value.images[1]!.data).toBe(images[1]);
    expect(value.extras).toEqual({ input_fidelity: 'high' });
    expect(value.responseFormat).toBe('b64_json');
  });

  it('reads a real FormData through readImageForm', async () => {
    const fd = new FormData();
    fd.append('model', 'image-model-c');
    fd.append('prompt', 'combine');
    fd.append('image[]', file(png(64, 64), 'a.png'));
    fd.append('image[]', file(jpeg(64, 64), 'b.jpg', 'image/jpeg'));
    fd.append('mask', file(png(64, 64), 'm.png'));
    fd.append('n', '3');
    const { value } = decodeImageRequest(input(await readImageForm(fd)), 'edit', ctx);
    expect(value).toMatchObject({ model: 'image-model-c', prompt: 'combine', n: 3 });
    expect(value.images.map((i) => i.filename)).toEqual(['a.png', 'b.jpg']);
    expect(value.mask?.filename).toBe('m.png');
  });

  it('picks gpt-image-1 for several images without a model', () => {
    expect(edit(form({ prompt: 'x' }, [f(png(8, 8)), f(png(8, 8))])).value.model).toBe('gpt-image-1');
  });

  it('rejects dall-e-2 edit images that are not one square PNG under 4 MB with transparency', () => {
    rejects(() => edit(form({ prompt: 'x' }, [])), 'image');
    rejects(() => edit(form({ model: 'dall-e-2', prompt: 'x' }, [f(square), f(square)])), 'image');
    rejects(() => edit(form({ prompt: 'x' }, [f(jpeg(512, 512), 'image/png')])), 'image');
    rejects(() => edit(form({ prompt: 'x' }, [f(webp(512, 512))])), 'image');
    rejects(() => edit(form({ prompt: 'x' }, [f(new TextEncoder().encode('not an image'))])), 'image');
    rejects(() => edit(form({ model: 'image-model-a', prompt: 'x' }, [f(png(512, 256))])), 'image');
    rejects(() => edit(form({ prompt: 'x' }, [f(png(512, 512, { size: 4 * MB }))])), 'image');
    expect(edit(form({ prompt: 'x' }, [f(png(512, 512, { size: 4 * MB - 1 }))])).value.images).toHaveLength(1);
    // No mask: the image itself must carry transparency.
    const rgb = png(512, 512, { colourType: 2 });
    rejects(() => edit(form({ prompt: 'x' }, [f(rgb)])), 'image');
    expect(edit(form({ prompt: 'x' }, [f(png(512, 512, { colourType: 2, trns: true }))])).value.images).toHaveLength(1);
    expect(edit(form({ prompt: 'x' }, [f(rgb)], { mask: [f(png(512, 512))] })).value.mask).toBeDefined();
  });

  it('rejects masks that are not a PNG under 4 MB with the image dimensions', () => {
    rejects(() => edit(form({ prompt: 'x' }, [f(square)], { mask: [f(jpeg(512, 512))] })), 'mask');
    rejects(() => edit(form({ prompt: 'x' }, [f(square)], { mask: [f(png(256, 256))] })), 'mask');
    rejects(() => edit(form({ prompt: 'x' }, [f(square)], { mask: [f(png(512, 512, { size: 4 * MB }))] })), 'mask');
    rejects(() => edit(form({ prompt: 'x' }, [f(square)], { mask: [f(square), f(square)] })), 'mask');
    // With several images the mask applies to (and must match) the first.
    const first = webp(1536, 1024);
    rejects(() => edit(form({ model: 'gpt-image-1', prompt: 'x' }, [f(first), f(square)], { mask: [f(png(512, 512))] })), 'mask');
    expect(
      edit(form({ model: 'gpt-image-1', prompt: 'x' }, [f(first), f(square)], { mask: [f(png(1536, 1024))] })).value.mask,
    ).toBeDefined();
  });

  it('rejects gpt-image edit images beyond 16, of other formats, or of 25 MB', () => {
    const model = 'gpt-image-1';
    const many = Array.from({ length: 16 }, () => f(png(8, 8)));
    expect(edit(form({ model, prompt: 'x' }, many)).value.images).toHaveLength(16);
    rejects(() => edit(form({ model, prompt: 'x' }, [...many, f(png(8, 8))])), 'image');
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 2, 0, 3, 0]);
    rejects(() => edit(form({ model, prompt: 'x' }, [f(png(8, 8)), f(gif, 'image/png')])), 'image');
    rejects(() => edit(form({ model, prompt: 'x' }, [f(jpeg(8, 8, 25 * MB))])), 'image');
    expect(edit(form({ model, prompt: 'x' }, [f(jpeg(8, 8, 25 * MB - 1))])).value.images).toHaveLength(1);
    // Non-square and opaque images are fine for gpt-image.
    expect(edit(form({ model, prompt: 'x' }, [f(png(300, 100, { colourType: 2 }))])).value.images).toHaveLength(1);
  });

  it('rejects edit prompts and fields per model', () => {
    rejects(() => edit(form({}, [f(square)])), 'prompt');
    rejects(() => edit(form({ prompt: 'a'.repeat(1001) }, [f(square)])), 'prompt');
    expect(edit(form({ model: 'gpt-image-1', prompt: 'a'.repeat(32000) }, [f(square)])).value.prompt).toHaveLength(32000);
    rejects(() => edit(form({ model: 'gpt-image-1', prompt: 'a'.repeat(32001) }, [f(square)])), 'prompt');
    rejects(() => edit(form({ prompt: 'x', n: 'two' }, [f(square)])), 'n');
    rejects(() => edit(form({ prompt: 'x', n: '11' }, [f(square)])), 'n');
    rejects(() => edit(form({ prompt: 'x', size: '1536x1024' }, [f(square)])), 'size');
    rejects(() => edit(form({ prompt: 'x', quality: 'hd' }, [f(square)])), 'quality');
    rejects(() => edit(form({ prompt: 'x', stream: 'true' }, [f(square)])), 'stream', 'unsupported');
    rejects(() => edit(form({ prompt: 'x', image: 'https://example.com/a.png' }, [])), 'image');
    rejects(() => edit(form({ prompt: 'x' }, [f(square)], { extra: [f(square)] })), 'extra');
    rejects(() => edit(form({ model: 'dall-e-3', prompt: 'x' }, [f(square)])), 'model');
    rejects(() => edit(form({ model: 'image-model-b', prompt: 'x' }, [f(square)])), 'model');
  });

  it('passes images of unknown models unchecked, keeping the declared type', () => {
    const { value } = edit(form({ model: 'my-model', prompt: 'x' }, [f(new Uint8Array([1, 2, 3]), 'image/heic')]));
    expect(value.images[0]!.mediaType).toBe('image/heic');
    const bare = edit(form({ model: 'my-model', prompt: 'x' }, [f(new Uint8Array([1]), '')])).value;
    expect(bare.images[0]!.mediaType).toBe('application/octet-stream');
  });

  it('throws a programming error for an unread FormData', () => {
    expect(() => decodeImageRequest(input(new FormData()), 'edit', ctx)).toThrow(/readImageForm/);
  });
});

describe('decodeImageRequest: variations', () => {
  it('decodes a dall-e-2 variation; a prompt is dropped with a warning', () => {
    const { value, warnings } = variation(form({ n: '2', size: '256x256', prompt: 'ignored' }, [f(square, 'image/png', 'a.png')]));
    expect(value).toEqual<ImageRequest>({
      op: 'variation',
      model: 'dall-e-2',
      images: [{ data: square, mediaType: 'image/png', filename: 'a.png' }],
      n: 2,
      size: '256x256',
      responseFormat: 'url',
    });
    expect(warnings).toEqual([{ code: 'dropped', path: 'prompt' }]);
  });

  it('rejects variations on other models and of bad images', () => {
    rejects(() => variation(form({ model: 'gpt-image-1' }, [f(square)])), 'model');
    rejects(() => variation(form({ model: 'dall-e-3' }, [f(square)])), 'model');
    rejects(() => variation(form({ model: 'image-model-c' }, [f(square)])), 'model');
    rejects(() => variation(form({}, [])), 'image');
    rejects(() => variation(form({}, [f(square), f(square)])), 'image');
    rejects(() => variation(form({}, [f(png(512, 300))])), 'image');
    rejects(() => variation(form({}, [f(jpeg(512, 512))])), 'image');
    rejects(() => variation(form({}, [f(png(512, 512, { size: 4 * MB }))])), 'image');
    rejects(() => variation(form({}, [f(square)], { mask: [f(square)] })), 'mask');
    rejects(() => variation(form({ size: '1792x1024' }, [f(square)])), 'size');
    // Variations need no transparency.
    expect(variation(form({}, [f(png(256, 256, { colourType: 2 }))])).value.images).toHaveLength(1);
  });
});
