/** Image requests toward a Gemini image model: the edges of prompts, sizes, masks and dropped fields. */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ImageRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { MASK_INSTRUCTION, VARIATION_INSTRUCTION } from './image-encode.ts';
import { createGeminiImages, geminiImages } from './index.ts';

const target: UpstreamTarget = { name: 'g', model: 'gemini-2.5-flash-image', apiKey: 'K', options: {} };
const png = new Uint8Array([1, 2, 3]);
const b64 = Buffer.from(png).toString('base64');
const encode = (req: ImageRequest, images = geminiImages) => {
  const { value, warnings } = images.encodeImageRequest(req, target, testContext());
  return { requests: value.map((r) => ({ ...r, body: JSON.parse(r.body as string) })), warnings };
};
const partsOf = (req: ImageRequest, images = geminiImages) => encode(req, images).requests[0]!.body.contents[0].parts;

describe('gemini image requests: edges', () => {
  it('one POST generateContent, never a stream, with the upstream headers', () => {
    const { requests } = encode({ op: 'generate', model: 'm', prompt: 'p', images: [] });
    expect(requests).toEqual([
      {
        method: 'POST',
        path: '/v1beta/models/gemini-2.5-flash-image:generateContent',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'K' },
        body: { contents: [{ role: 'user', parts: [{ text: 'p' }] }], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } },
        stream: false,
      },
    ]);
  });

  it('prompts: none is an empty text; a variation prompt follows the instruction; an image without type is PNG', () => {
    expect(partsOf({ op: 'generate', model: 'm', images: [] })).toEqual([{ text: '' }]);
    expect(partsOf({ op: 'edit', model: 'm', images: [{ data: png, mediaType: '' }] })).toEqual([{ text: '' }, { inlineData: { mimeType: 'image/png', data: b64 } }]);
    expect(partsOf({ op: 'variation', model: 'm', prompt: 'bluer', images: [{ data: png, mediaType: 'image/jpeg' }] })).toEqual([
      { text: `${VARIATION_INSTRUCTION}\n\nbluer` },
      { inlineData: { mimeType: 'image/jpeg', data: b64 } },
    ]);
    const masked = partsOf({ op: 'edit', model: 'm', images: [{ data: png, mediaType: 'image/png' }], mask: { data: png, mediaType: 'image/png' } }, createGeminiImages({ mask: 'instruction' }));
    expect(masked[0]).toEqual({ text: `\n\n${MASK_INSTRUCTION}` });
  });

  it('a mask refused says which parameter and why, as unsupported', () => {
    let err: unknown;
    try {
      encode({ op: 'edit', model: 'm', prompt: 'p', images: [{ data: png, mediaType: 'image/png' }], mask: { data: png, mediaType: 'image/png' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProxyError);
    expect(err).toMatchObject({ kind: 'unsupported', param: 'mask', code: 'unsupported_parameter' });
  });

  it('sizes: auto says nothing; a size that is no size is dropped with a warning', () => {
    expect(encode({ op: 'generate', model: 'm', prompt: 'p', images: [], size: 'auto' }).warnings).toEqual([]);
    const odd = encode({ op: 'generate', model: 'm', prompt: 'p', images: [], size: 'big' });
    expect(odd.warnings).toEqual([{ code: 'dropped', path: 'size', detail: 'big' }]);
    expect(odd.requests[0]!.body.generationConfig).toEqual({ responseModalities: ['TEXT', 'IMAGE'] });
  });

  it('extras set to null or left undefined are not reported; n of 1 is no fan-out', () => {
    expect(encode({ op: 'generate', model: 'm', prompt: 'p', images: [], n: 1, extras: { background: null, moderation: undefined, output_format: 'png' } }).warnings).toEqual([
      { code: 'dropped', path: 'output_format' },
    ]);
  });
});
