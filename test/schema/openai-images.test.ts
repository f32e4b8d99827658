/**
 * What an OpenAI Images caller receives, checked against OpenAI's OpenAPI document
 * (openai.schema.json: ImagesResponse, ErrorResponse): the responses of every images fixture
 * (OpenAI's own and a Gemini image model's), decoded by their upstream and encoded back for the
 * caller in each response format, and every error.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ErrorKind, type ImageRequest } from '../../src/canonical/index.ts';
import { geminiImages } from '../../translators/gemini/index.ts';
import { openaiImages } from '../../translators/openai-images/index.ts';
import type { ImageUpstream } from '../../translators/types.ts';
import { fixtureJson, fixtureText, testContext } from '../support/fixtures.ts';
import { checker } from './validate.ts';

const check = checker('openai');

const request = (model: string, responseFormat?: ImageRequest['responseFormat']): ImageRequest => ({
  op: 'generate',
  model,
  prompt: 'a lighthouse',
  images: [],
  ...(responseFormat ? { responseFormat } : {}),
});

const upstreamFixtures: Array<[string, ImageUpstream, string, string]> = [
  ['openai-images', openaiImages, 'generations-b64-revised-prompt.json', 'dall-e-3'],
  ['openai-images', openaiImages, 'generations-dalle3-url-revised-prompt.json', 'dall-e-3'],
  ['openai-images', openaiImages, 'generations-gpt-image-1-usage-real.json', 'gpt-image-1'],
  ['openai-images', openaiImages, 'generations-gpt-image-usage.json', 'gpt-image-1'],
  ['openai-images', openaiImages, 'edits-gpt-image-output-metadata.json', 'gpt-image-1'],
  ['openai-images', openaiImages, 'variations-url.json', 'dall-e-2'],
  ['gemini', geminiImages, 'image-generation.json', 'gemini-2.5-flash-image'],
];

describe('OpenAI images caller: responses conform to ImagesResponse', () => {
  it.each(upstreamFixtures.map(([dir, up, file, model]) => [`${dir}/${file}`, up, dir, file, model] as const))(
    '%s',
    (_name, upstream, dir, file, model) => {
      for (const format of [undefined, 'url', 'b64_json'] as const) {
        const req = request(model, format);
        const res = upstream.decodeImageResponse(fixtureJson(dir, file), req, testContext());
        expect(check.problems('ImagesResponse', openaiImages.encodeImageResponse(res, req))).toEqual([]);
      }
    },
  );
});

describe('OpenAI images caller: errors conform to ErrorResponse', () => {
  const kinds: ErrorKind[] = ['invalid-request', 'authentication', 'permission', 'not-found', 'too-large', 'rate-limit', 'overloaded', 'upstream', 'timeout', 'unsupported'];
  it.each(kinds)('%s', (kind) => {
    const { body } = openaiImages.encodeError(new ProxyError(kind, `a ${kind} problem`, { code: kind === 'upstream' ? 'no_image' : undefined }));
    expect(check.problems('ErrorResponse', body)).toEqual([]);
  });

  it.each(['error-400-moderation-blocked.json', 'error-400-unknown-parameter-response-format.json'])('upstream %s', (file) => {
    const err = openaiImages.decodeError(400, fixtureText('openai-images', file), {});
    expect(check.problems('ErrorResponse', openaiImages.encodeError(err).body)).toEqual([]);
  });

  it('a Gemini image model that withheld its image, and one that sent none', () => {
    for (const file of ['image-no-image-safety.json', 'prompt-blocked-prohibited-content.json']) {
      let err: unknown;
      try {
        geminiImages.decodeImageResponse(fixtureJson('gemini', file), request('gemini-2.5-flash-image'), testContext());
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ProxyError);
      expect(check.problems('ErrorResponse', openaiImages.encodeError(err as ProxyError).body)).toEqual([]);
    }
  });

  it('the check has teeth', () => {
    expect(check.problems('ImagesResponse', { data: [{ url: 'not a url' }], quality: 'hd' })).toEqual([
      "ImagesResponse/ must have required property 'created'",
      'ImagesResponse/data/0/url must match format "uri"',
      'ImagesResponse/quality must be equal to one of the allowed values ["low","medium","high"]',
    ]);
  });
});
