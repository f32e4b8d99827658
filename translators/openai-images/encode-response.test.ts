import { describe, expect, it } from 'vitest';
import type { ImageRequest, ImageResponse } from '../../src/canonical/index.ts';
import { encodeImageResponse } from './encode-response.ts';

const req = (responseFormat?: ImageRequest['responseFormat']): ImageRequest => ({
  op: 'generate', model: 'dall-e-3', prompt: 'x', images: [], ...(responseFormat ? { responseFormat } : {}),
});

describe('encodeImageResponse', () => {
  it('writes url or b64_json per item, plus revised_prompt', () => {
    const res: ImageResponse = {
      created: 1700000000,
      images: [
        { url: 'https://proxy/img/abc', b64: 'AAAA', revisedPrompt: 'better' },
        { url: 'https://proxy/img/def' },
      ],
    };
    expect(encodeImageResponse(res, req('url'))).toEqual({
      created: 1700000000,
      data: [{ url: 'https://proxy/img/abc', revised_prompt: 'better' }, { url: 'https://proxy/img/def' }],
    });
    expect(encodeImageResponse(res, req('b64_json'))).toEqual({
      created: 1700000000,
      data: [{ b64_json: 'AAAA', revised_prompt: 'better' }, { url: 'https://proxy/img/def' }],
    });
    expect(encodeImageResponse({ created: 1, images: [{ b64: 'B' }] }, req('url'))).toEqual({ created: 1, data: [{ b64_json: 'B' }] });
  });

  it('writes gpt-image usage and top-level fields in wire order', () => {
    const body = encodeImageResponse(
      {
        created: 5,
        images: [{ b64: 'iVBOR', mediaType: 'image/png' }],
        usage: { inputTokens: 12, outputTokens: 100, totalTokens: 112, inputImageTokens: 2 },
        extras: { size: '1024x1024', background: 'opaque', quality: 'high', output_format: 'png', ignored: 1 },
      },
      req(),
    );
    expect(Object.keys(body as object)).toEqual(['created', 'background', 'data', 'output_format', 'quality', 'size', 'usage']);
    expect((body as { usage: unknown }).usage).toEqual({
      input_tokens: 12,
      input_tokens_details: { text_tokens: 10, image_tokens: 2 },
      output_tokens: 100,
      total_tokens: 112,
    });
  });
});

describe('encodeImageResponse', () => {
  const req: ImageRequest = { op: 'generate', model: 'gpt-image-1', prompt: 'x', images: [] };

  it('never echoes null top-level fields', () => {
    const body = encodeImageResponse(
      { created: 5, images: [{ url: 'https://proxy/a' }], extras: { background: null, output_format: null, quality: 'high', size: null } },
      { ...req, responseFormat: 'url' },
    );
    expect(body).toEqual({ created: 5, data: [{ url: 'https://proxy/a' }], quality: 'high' });
  });
});
