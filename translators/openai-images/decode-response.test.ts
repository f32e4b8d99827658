import { describe, expect, it } from 'vitest';
import { ProxyError, type ImageRequest, type ImageResponse } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeImageResponse, mediaTypeOfFormat } from './decode-response.ts';
import { encodeImageResponse } from './encode-response.ts';

const ctx = testContext(1_750_000_000_123);

const req: ImageRequest = { op: 'generate', model: 'dall-e-3', prompt: 'x', images: [] };

const decode = (name: string) => decodeImageResponse(fixtureJson('openai-images', name), req, ctx);

describe('decodeImageResponse', () => {
  it('decodes b64 items with a revised prompt on the first only', () => {
    const res = decode('generations-b64-revised-prompt.json');
    expect(res.created).toBe(1770935200);
    expect(res.images).toHaveLength(2);
    expect(res.images[0]).toEqual({
      b64: 'iVBORw0KGgoAAAANSUhEUgAABAAAAAQACAIAAADwf7zUAAA3CGNhQlgAADcIanVtYgAAAB5qdW1kYzJwYQARABCAAACqADibcQNj',
      mediaType: 'image/png',
      revisedPrompt: expect.stringMatching(/^A small and adorable baby sea otter\./),
    });
    expect(res.images[1]!.revisedPrompt).toBeUndefined();
    expect(res.usage).toBeUndefined();
    expect(res.extras).toBeUndefined();
  });

  it('decodes a dall-e-3 URL with revised prompt', () => {
    const res = decode('generations-dalle3-url-revised-prompt.json');
    expect(res.created).toBe(1704435764);
    expect(res.images).toEqual([
      {
        url: expect.stringMatching(/^https:\/\/oaidalleapiprodscus\.blob\.core\.windows\.net\/private\/.*sig=REDACTED$/),
        revisedPrompt: 'A small and adorable Maltese dog',
      },
    ]);
  });

  it('decodes gpt-image usage and the top-level output fields', () => {
    expect(decode('generations-gpt-image-1-usage-real.json')).toEqual<ImageResponse>({
      created: 1749327175,
      images: [{ b64: 'iVBORw0KGgoAAAANSUhEUgAA...TRUNCATED', mediaType: 'image/png' }],
      usage: { inputTokens: 36, outputTokens: 4160, totalTokens: 4196, inputTextTokens: 36, inputImageTokens: 0 },
      extras: { background: 'opaque', output_format: 'png', quality: 'high', size: '1024x1024' },
    });
    expect(decode('generations-gpt-image-usage.json')).toEqual<ImageResponse>({
      created: 1713833628,
      images: [{ b64: '...', mediaType: 'image/png' }],
      usage: { inputTokens: 50, outputTokens: 50, totalTokens: 100, inputTextTokens: 10, inputImageTokens: 40 },
    });
  });

  it('decodes an edit without usage', () => {
    const res = decode('edits-gpt-image-output-metadata.json');
    expect(res.usage).toBeUndefined();
    expect(res.extras).toEqual({ background: 'opaque', output_format: 'png', quality: 'high', size: '1024x1024' });
    expect(res.images[0]!.b64).toMatch(/^iVBOR/);
  });

  it('decodes dall-e-2 variations with two URLs', () => {
    expect(decode('variations-url.json')).toEqual({ created: 1589478378, images: [{ url: 'https://...' }, { url: 'https://...' }] });
  });

  it('takes the media type from output_format, else from the base64 magic', () => {
    const jpegOut = decodeImageResponse({ created: 1, data: [{ b64_json: 'iVBOR' }], output_format: 'jpeg' }, req, ctx);
    expect(jpegOut.images[0]!.mediaType).toBe('image/jpeg');
    const sniffed = decodeImageResponse({ created: 1, data: [{ b64_json: '/9j/4AAQ' }, { b64_json: 'UklGRiIAAAB' }] }, req, ctx);
    expect(sniffed.images.map((i) => i.mediaType)).toEqual(['image/jpeg', 'image/webp']);
  });

  it('fills a missing created from the context clock and rejects non-objects', () => {
    expect(decodeImageResponse({ data: [{ url: 'https://x/1.png' }] }, req, ctx)).toEqual({ created: 1_750_000_000, images: [{ url: 'https://x/1.png' }] });
    for (const body of [null, 'x', [], { data: 'nope' }, { hello: 'world' }, { created: 1 }, { data: [] }, { data: [5] }]) {
      expect(() => decodeImageResponse(body, req, ctx), JSON.stringify(body)).toThrow(ProxyError);
    }
  });

  it('re-encodes every response fixture to an equal body', () => {
    for (const name of [
      'generations-b64-revised-prompt.json',
      'generations-dalle3-url-revised-prompt.json',
      'generations-gpt-image-1-usage-real.json',
      'generations-gpt-image-usage.json',
      'edits-gpt-image-output-metadata.json',
      'variations-url.json',
    ]) {
      const wire = fixtureJson('openai-images', name);
      expect(encodeImageResponse(decodeImageResponse(wire, req, ctx), req), name).toEqual(wire);
    }
  });
});

describe('decodeImageResponse', () => {
  const ctx = testContext(1_750_000_000_000);

  const req: ImageRequest = { op: 'generate', model: 'gpt-image-1', prompt: 'x', images: [] };

  const decode = (body: unknown) => decodeImageResponse(body, req, ctx);

  function failure(body: unknown): ProxyError {
    try {
      decode(body);
    } catch (e) {
      expect(e).toBeInstanceOf(ProxyError);
      return e as ProxyError;
    }
    throw new Error('expected a failure');
  }

  it('treats null item fields as absent', () => {
    expect(decode({ created: 1, data: [{ url: null, b64_json: 'iVBORw0K', revised_prompt: null }] }).images).toEqual([
      { b64: 'iVBORw0K', mediaType: 'image/png' },
    ]);
    expect(decode({ created: 1, data: [{ url: 'https://x/1.png', b64_json: null }] }).images).toEqual([{ url: 'https://x/1.png' }]);
  });

  it('adds up usage when total_tokens is missing, and keeps the token details that are given', () => {
    expect(decode({ created: 1, data: [{ url: 'u' }], usage: { input_tokens: 30, output_tokens: 12 } }).usage).toEqual({
      inputTokens: 30, outputTokens: 12, totalTokens: 42,
    });
    expect(decode({ created: 1, data: [{ url: 'u' }], usage: { input_tokens: 30, output_tokens: 12, total_tokens: 50 } }).usage?.totalTokens).toBe(50);
    expect(
      decode({ created: 1, data: [{ url: 'u' }], usage: { input_tokens: 30, output_tokens: 12, input_tokens_details: { text_tokens: null, image_tokens: 20 } } })
        .usage,
    ).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42, inputImageTokens: 20 });
    expect(
      decode({ created: 1, data: [{ url: 'u' }], usage: { input_tokens: 30, output_tokens: 12, input_tokens_details: { text_tokens: 10 } } }).usage,
    ).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42, inputTextTokens: 10 });
  });

  it('is a 502 upstream error naming the problem and keeping the body as JSON text', () => {
    const err = failure({ created: 1, data: [] });
    expect(err).toMatchObject({ kind: 'upstream', status: 502, message: 'Unexpected images response from upstream: no images in data' });
    expect(err.raw).toBe('{"created":1,"data":[]}');
    expect(failure(undefined).raw).toBe('undefined');
  });

  it('keeps at most 2000 characters of a huge bad body', () => {
    const err = failure({ data: 'x'.repeat(10_000) });
    expect(err.raw).toHaveLength(2000);
    expect(err.raw!.startsWith('{"data":"xxx')).toBe(true);
  });

  it('names the media type of each output_format', () => {
    expect(['png', 'jpeg', 'jpg', 'webp', 'gif', undefined].map(mediaTypeOfFormat)).toEqual([
      'image/png', 'image/jpeg', 'image/jpeg', 'image/webp', undefined, undefined,
    ]);
    expect(decode({ created: 1, data: [{ b64_json: '/9j/' }], output_format: 'webp' }).images[0]!.mediaType).toBe('image/webp');
  });
});
