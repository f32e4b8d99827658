import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/support/fixtures.ts';
import { openaiImages, readImageForm, sizeToAspectRatio, sniffImage } from './index.ts';
import { file, png } from './test-images.ts';

describe('openaiImages', () => {
  it('implements both sides of the images contract', () => {
    expect(openaiImages.id).toBe('openai-images');
    expect(openaiImages.vendor).toBe('openai');
    for (const fn of ['decodeImageRequest', 'encodeImageResponse', 'encodeError', 'encodeImageRequest', 'decodeImageResponse', 'decodeError'] as const) {
      expect(typeof openaiImages[fn], fn).toBe('function');
    }
    expect(sizeToAspectRatio('1792x1024')).toBe('16:9');
    expect(sniffImage(png(2, 2))?.mediaType).toBe('image/png');
  });

  it('runs a multipart edit end to end: form → canonical → upstream form', async () => {
    const ctx = testContext();
    const fd = new FormData();
    fd.append('prompt', 'add a hat');
    fd.append('image', file(png(256, 256), 'otter.png'));
    const { value: req } = openaiImages.decodeImageRequest(
      { body: await readImageForm(fd), headers: {}, params: {}, query: {} },
      'edit',
      ctx,
    );
    const { value: calls } = openaiImages.encodeImageRequest(
      req,
      { name: 'o', model: 'dall-e-2', apiKey: 'k', options: {} },
      ctx,
    );
    const sent = (calls[0]!.body as FormData).get('image') as File;
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(png(256, 256));
    expect((calls[0]!.body as FormData).get('response_format')).toBe('url');
  });
});
