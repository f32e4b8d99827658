/**
 * What the upstream receives when routing sends a request to an OpenAI image model: values it
 * takes pass unchanged, others are fitted or dropped with a warning, `n` beyond the model's
 * maximum fans out, and multipart fields carry exactly what was asked.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import type { ImageRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { encodeImageRequest } from './encode-request.ts';
import { png } from './test-images.ts';

const ctx = testContext();
const target = (model: string): UpstreamTarget => ({ name: 'openai', model, apiKey: 'sk-upstream', options: {} });
const gen = (fields: Partial<ImageRequest>): ImageRequest => ({ op: 'generate', model: 'x', prompt: 'a cat', images: [], ...fields });
const image = { data: png(512, 512), mediaType: 'image/png' };
const jsonOf = (body: unknown) => JSON.parse(body as string) as Record<string, unknown>;
const encode = (req: ImageRequest, model: string) => encodeImageRequest(req, target(model), ctx);

describe('fitting values to the target model', () => {
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
