import { describe, expect, it } from 'vitest';
import { ProxyError, type ImageRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { decodeImageRequest } from './decode-request.ts';
import { encodeImageRequest } from './encode-request.ts';
import { readImageForm } from './read-form.ts';
import { jpeg, png } from './test-images.ts';

const ctx = testContext();

const target = (model: string, extra: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  name: 'openai',
  model,
  apiKey: 'sk-upstream',
  options: {},
  ...extra,
});

const gen = (fields: Partial<ImageRequest>): ImageRequest => ({ op: 'generate', model: 'x', prompt: 'a cat', images: [], ...fields });

const jsonOf = (body: unknown) => JSON.parse(body as string) as Record<string, unknown>;

describe('encodeImageRequest: generations', () => {
  it('posts JSON to /images/generations with a bearer key', () => {
    const req = gen({ model: 'dall-e-3', n: 1, size: '1792x1024', quality: 'hd', style: 'vivid', responseFormat: 'url', user: 'u1' });
    const { value, warnings } = encodeImageRequest(req, target('dall-e-3'), ctx);
    expect(value).toHaveLength(1);
    const [call] = value;
    expect(call).toMatchObject({
      method: 'POST',
      path: '/images/generations',
      headers: { authorization: 'Bearer sk-upstream', 'content-type': 'application/json' },
      stream: false,
    });
    expect(jsonOf(call!.body)).toEqual({
      model: 'dall-e-3', prompt: 'a cat', size: '1792x1024', quality: 'hd', style: 'vivid',
      response_format: 'url', user: 'u1', n: 1,
    });
    expect(warnings).toEqual([]);
    expect(call!.path).not.toContain('sk-');
  });

  it('never sends response_format to gpt-image models; replays gpt-image extras', () => {
    const req = gen({
      model: 'gpt-image-1', responseFormat: 'url', quality: 'high',
      extras: { background: 'transparent', output_format: 'webp', output_compression: 50, moderation: 'low' },
    });
    const body = jsonOf(encodeImageRequest(req, target('gpt-image-1'), ctx).value[0]!.body);
    expect(body).toEqual({
      model: 'gpt-image-1', prompt: 'a cat', quality: 'high',
      background: 'transparent', output_format: 'webp', output_compression: 50, moderation: 'low',
    });
  });

  it('sends the target model and fits values to it, with warnings', () => {
    const req = gen({ model: 'dall-e-3', size: '1792x1024', quality: 'hd', style: 'natural', responseFormat: 'b64_json' });
    const { value, warnings } = encodeImageRequest(req, target('gpt-image-1'), ctx);
    expect(jsonOf(value[0]!.body)).toEqual({ model: 'gpt-image-1', prompt: 'a cat', size: '1536x1024', quality: 'high' });
    expect(warnings).toEqual([
      { code: 'approximated', path: 'size', detail: '1792x1024->1536x1024' },
      { code: 'approximated', path: 'quality', detail: 'hd->high' },
      { code: 'dropped', path: 'style' },
    ]);
    const small = encodeImageRequest(gen({ size: '256x256' }), target('gpt-image-1'), ctx);
    expect(jsonOf(small.value[0]!.body).size).toBe('1024x1024');
    const auto = encodeImageRequest(gen({ size: 'auto', quality: 'auto', extras: { background: 'opaque' } }), target('dall-e-2'), ctx);
    expect(jsonOf(auto.value[0]!.body)).toEqual({ model: 'dall-e-2', prompt: 'a cat', quality: 'auto' });
    expect(auto.warnings).toEqual([{ code: 'dropped', path: 'size', detail: 'auto' }, { code: 'dropped', path: 'background' }]);
  });

  it('fans n out for dall-e-3, which makes one image per call', () => {
    const { value } = encodeImageRequest(gen({ model: 'dall-e-2', n: 3 }), target('dall-e-3'), ctx);
    expect(value.map((r) => jsonOf(r.body).n)).toEqual([1, 1, 1]);
    const one = encodeImageRequest(gen({ n: 3 }), target('dall-e-2'), ctx).value;
    expect(one.map((r) => jsonOf(r.body).n)).toEqual([3]);
  });

  it('sends everything as is to unknown models, and extra headers without a key', () => {
    const req = gen({ size: '999x777', quality: 'ultra', style: 'anime', responseFormat: 'b64_json', extras: { seed: 7 } });
    const { value, warnings } = encodeImageRequest(
      req,
      target('flux-pro', { apiKey: undefined, options: { headers: { 'x-title': 'app' } } }),
      ctx,
    );
    expect(value[0]!.headers).toEqual({ 'x-title': 'app', 'content-type': 'application/json' });
    expect(value[0]!.path).toBe('/images/generations');
    expect(jsonOf(value[0]!.body)).toEqual({
      model: 'flux-pro', prompt: 'a cat', size: '999x777', quality: 'ultra', style: 'anime', response_format: 'b64_json', seed: 7,
    });
    expect(warnings).toEqual([]);
  });
});

describe('encodeImageRequest: edits and variations', () => {
  const image = png(512, 512);
  const mask = png(512, 512, { colourType: 4 });

  it('re-encodes an edit as multipart with the files as Blobs', async () => {
    const req: ImageRequest = {
      op: 'edit', model: 'dall-e-2', prompt: 'add a hat', n: 2, size: '512x512', responseFormat: 'b64_json', user: 'u',
      images: [{ data: image, mediaType: 'image/png', filename: 'otter.png' }],
      mask: { data: mask, mediaType: 'image/png' },
    };
    const [call] = encodeImageRequest(req, target('dall-e-2'), ctx).value;
    expect(call!.path).toBe('/images/edits');
    expect(call!.headers).toEqual({ authorization: 'Bearer sk-upstream' }); // fetch sets the multipart boundary
    const form = call!.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect([...form.keys()]).toEqual(['model', 'prompt', 'size', 'response_format', 'user', 'n', 'image', 'mask']);
    expect(form.get('n')).toBe('2');
    expect(form.get('prompt')).toBe('add a hat');
    const sent = form.get('image') as File;
    expect(sent.name).toBe('otter.png');
    expect(sent.type).toBe('image/png');
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(image);
    const sentMask = form.get('mask') as File;
    expect(sentMask.name).toBe('mask.png');
    expect(new Uint8Array(await sentMask.arrayBuffer())).toEqual(mask);
  });

  it('sends several images as repeated image[] and stringifies extras', async () => {
    const req: ImageRequest = {
      op: 'edit', model: 'gpt-image-1', prompt: 'combine', responseFormat: 'b64_json',
      images: [{ data: image, mediaType: 'image/png' }, { data: jpeg(64, 64), mediaType: 'image/jpeg' }],
      extras: { input_fidelity: 'high', output_compression: 70 },
    };
    const form = encodeImageRequest(req, target('gpt-image-1'), ctx).value[0]!.body as FormData;
    expect(form.has('image')).toBe(false);
    expect(form.has('response_format')).toBe(false);
    const files = form.getAll('image[]') as File[];
    expect(files.map((f) => [f.name, f.type])).toEqual([['image.png', 'image/png'], ['image1.jpg', 'image/jpeg']]);
    expect(form.get('output_compression')).toBe('70');
    expect(form.get('input_fidelity')).toBe('high');
  });

  it('sends a variation without prompt or mask', () => {
    const req: ImageRequest = { op: 'variation', model: 'dall-e-2', images: [{ data: image, mediaType: 'image/png' }], n: 2 };
    const [call] = encodeImageRequest(req, target('dall-e-2'), ctx).value;
    expect(call!.path).toBe('/images/variations');
    expect([...(call!.body as FormData).keys()]).toEqual(['model', 'n', 'image']);
  });

  it('refuses operations the target model cannot do', () => {
    const req: ImageRequest = { op: 'variation', model: 'dall-e-2', images: [{ data: image, mediaType: 'image/png' }] };
    expect(() => encodeImageRequest(req, target('gpt-image-1'), ctx)).toThrow(ProxyError);
    expect(() => encodeImageRequest({ ...req, op: 'edit', prompt: 'x' }, target('dall-e-3'), ctx)).toThrow(/edits/);
  });
});

describe('round trip: decode(encode(req)) equals req', () => {
  const input = (body: unknown) => ({ body, headers: {}, params: {}, query: {} });

  it('holds for generations', () => {
    const reqs: ImageRequest[] = [
      gen({ model: 'dall-e-3', n: 1, size: '1024x1792', quality: 'standard', style: 'vivid', responseFormat: 'url', user: 'u' }),
      gen({ model: 'dall-e-2', n: 4, size: '256x256', responseFormat: 'b64_json' }),
      gen({ model: 'gpt-image-1', size: 'auto', quality: 'low', responseFormat: 'b64_json', extras: { background: 'opaque' } }),
    ];
    for (const req of reqs) {
      const [call] = encodeImageRequest(req, target(req.model), ctx).value;
      expect(decodeImageRequest(input(JSON.parse(call!.body as string)), 'generate', ctx).value).toEqual(req);
    }
  });

  it('holds for multipart edits', async () => {
    const req: ImageRequest = {
      op: 'edit', model: 'gpt-image-1', prompt: 'x', n: 2, size: '1536x1024', responseFormat: 'b64_json',
      images: [
        { data: png(1536, 1024), mediaType: 'image/png', filename: 'a.png' },
        { data: jpeg(10, 10), mediaType: 'image/jpeg', filename: 'b.jpg' },
      ],
      mask: { data: png(1536, 1024), mediaType: 'image/png', filename: 'm.png' },
      extras: { input_fidelity: 'low' },
    };
    const [call] = encodeImageRequest(req, target('gpt-image-1'), ctx).value;
    const fields = await readImageForm(call!.body as FormData);
    expect(decodeImageRequest(input(fields), 'edit', ctx).value).toEqual(req);
  });
});

describe('fitting values to the target model', () => {
  const ctx = testContext();

  const target = (model: string): UpstreamTarget => ({ name: 'openai', model, apiKey: 'sk-upstream', options: {} });

  const gen = (fields: Partial<ImageRequest>): ImageRequest => ({ op: 'generate', model: 'x', prompt: 'a cat', images: [], ...fields });

  const image = { data: png(512, 512), mediaType: 'image/png' };

  const jsonOf = (body: unknown) => JSON.parse(body as string) as Record<string, unknown>;

  const encode = (req: ImageRequest, model: string) => encodeImageRequest(req, target(model), ctx);

  it('keeps sizes and qualities the model takes, without warnings', () => {
    for (const [model, size, quality] of [['dall-e-2', '512x512', 'standard'], ['dall-e-3', '1024x1024', 'hd'], ['dall-e-3', '1792x1024', 'standard']]) {
      const { value, warnings } = encode(gen({ size, quality }), model!);
      expect(jsonOf(value[0]!.body), model).toMatchObject({ size, quality });
      expect(warnings, model).toEqual([]);
    }
  });

  it('fits a size to the largest one of the nearest aspect ratio', () => {
    const { value, warnings } = encode(gen({ size: '1792x1024' }), 'dall-e-2');
    expect(jsonOf(value[0]!.body).size).toBe('1024x1024');
    expect(warnings).toEqual([{ code: 'approximated', path: 'size', detail: '1792x1024->1024x1024' }]);
    expect(jsonOf(encode(gen({ size: '2048x2048' }), 'dall-e-2').value[0]!.body).size).toBe('1024x1024');
  });

  it('maps qualities between dall-e-3 and gpt-image, and drops ones without an equivalent', () => {
    const high = encode(gen({ quality: 'high' }), 'dall-e-3');
    expect(jsonOf(high.value[0]!.body).quality).toBe('hd');
    expect(high.warnings).toEqual([{ code: 'approximated', path: 'quality', detail: 'high->hd' }]);
    const ultra = encode(gen({ quality: 'ultra' }), 'dall-e-3');
    expect(jsonOf(ultra.value[0]!.body)).not.toHaveProperty('quality');
    expect(ultra.warnings).toEqual([{ code: 'dropped', path: 'quality' }]);
  });

  it('fans n beyond the model maximum into calls of at most that many', () => {
    expect(encode(gen({ n: 15 }), 'dall-e-2').value.map((r) => jsonOf(r.body).n)).toEqual([10, 5]);
    expect(encode(gen({ n: 10 }), 'dall-e-2').value.map((r) => jsonOf(r.body).n)).toEqual([10]);
  });

  it('sends no null extras', () => {
    const body = jsonOf(encode(gen({ extras: { seed: null, background: 'opaque' } }), 'gpt-image-1').value[0]!.body);
    expect(body).toEqual({ model: 'gpt-image-1', prompt: 'a cat', background: 'opaque' });
  });

  it('refuses an operation the target cannot do as unsupported, naming the model', () => {
    let caught: unknown;
    try {
      encode({ op: 'variation', model: 'dall-e-2', images: [image] }, 'gpt-image-1');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ProxyError);
    expect(caught).toMatchObject({
      kind: 'unsupported', status: 400, param: 'model', message: "The upstream model 'gpt-image-1' cannot do image variations.",
    });
  });
});

describe('multipart edits and variations', () => {
  const ctx = testContext();

  const target = (model: string): UpstreamTarget => ({ name: 'openai', model, apiKey: 'sk-upstream', options: {} });

  const image = { data: png(512, 512), mediaType: 'image/png' };

  const encode = (req: ImageRequest, model: string) => encodeImageRequest(req, target(model), ctx);

  it('posts a non-streaming form without an n the caller did not give', () => {
    const [call] = encode({ op: 'edit', model: 'x', prompt: 'p', images: [image] }, 'dall-e-2').value;
    expect(call).toMatchObject({ method: 'POST', path: '/images/edits', stream: false });
    expect([...(call!.body as FormData).keys()]).toEqual(['model', 'prompt', 'image']);
  });

  it('sends object extras as JSON text', () => {
    const form = encode({ op: 'edit', model: 'x', prompt: 'p', images: [image], extras: { metadata: { a: 1 }, seed: 7 } }, 'my-model').value[0]!
      .body as FormData;
    expect(form.get('metadata')).toBe('{"a":1}');
    expect(form.get('seed')).toBe('7');
  });

  it('sends neither a prompt nor a mask with a variation, even when the request carries them', () => {
    const req: ImageRequest = { op: 'variation', model: 'x', prompt: 'ignored', images: [image], mask: image };
    const form = encode(req, 'dall-e-2').value[0]!.body as FormData;
    expect([...form.keys()]).toEqual(['model', 'image']);
  });
});
