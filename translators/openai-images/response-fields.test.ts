/**
 * Images responses field by field: null means absent on the way in and is never echoed on the
 * way out; usage adds up; an unusable upstream body is a 502 that keeps (a bounded copy of) it.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import type { ImageRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeImageResponse, mediaTypeOfFormat } from './decode-response.ts';
import { encodeImageResponse } from './encode-response.ts';

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

describe('decodeImageResponse', () => {
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

describe('encodeImageResponse', () => {
  it('never echoes null top-level fields', () => {
    const body = encodeImageResponse(
      { created: 5, images: [{ url: 'https://proxy/a' }], extras: { background: null, output_format: null, quality: 'high', size: null } },
      { ...req, responseFormat: 'url' },
    );
    expect(body).toEqual({ created: 5, data: [{ url: 'https://proxy/a' }], quality: 'high' });
  });
});
