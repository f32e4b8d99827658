/** Gemini image answers: which parts are images, the revised prompt, and the no-image message. */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ImageRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { geminiImages } from './index.ts';

const req: ImageRequest = { op: 'generate', model: 'm', prompt: 'p', images: [] };
const decode = (body: unknown) => geminiImages.decodeImageResponse(body, req, testContext());
const failure = (body: unknown) => {
  try {
    decode(body);
  } catch (e) {
    if (e instanceof ProxyError) return e;
    throw e;
  }
  throw new Error('expected a ProxyError');
};

describe('gemini image answers', () => {
  it('images from every candidate; other media and empty texts are neither images nor prompt; the prompt pieces joined and trimmed', () => {
    const res = decode({
      candidates: [
        { content: { parts: [{ text: ' A fox' }, { inlineData: { mimeType: 'audio/wav', data: 'SND' } }, { text: '' }, { inlineData: { mimeType: 'image/png', data: 'IMG1' } }] } },
        { content: { parts: [{ text: ', red. ' }, { inlineData: { mimeType: 'image/webp', data: 'IMG2' } }] } },
        { finishReason: 'STOP' },
      ],
    });
    expect(res.images).toEqual([
      { b64: 'IMG1', mediaType: 'image/png', revisedPrompt: 'A fox, red.' },
      { b64: 'IMG2', mediaType: 'image/webp', revisedPrompt: 'A fox, red.' },
    ]);
    expect(res).not.toHaveProperty('usage');
  });

  it('no image: the first candidate finish reason decides, a safety one is a moderation refusal', () => {
    const blocked = failure({ candidates: [{ content: { parts: [{ text: 'no' }] }, finishReason: 'IMAGE_SAFETY' }, { finishReason: 'STOP' }] });
    expect([blocked.kind, blocked.status, blocked.code, blocked.message]).toEqual([
      'invalid-request',
      400,
      'moderation_blocked',
      "Your request was rejected by the upstream's safety system: the image was withheld (IMAGE_SAFETY).",
    ]);
    expect(failure({ candidates: [{ content: { parts: [{ text: 'x' }] } }, { finishReason: 'SAFETY' }] }).code).toBe('moderation_blocked');
  });

  it("no image: the model's words are quoted up to 500 characters", () => {
    const long = 'w'.repeat(600);
    expect(failure({ candidates: [{ content: { parts: [{ text: long }] }, finishReason: 'OTHER' }] }).message).toBe(`The Gemini image model returned no image (finishReason OTHER): ${'w'.repeat(500)}`);
  });

  it('usage without any count is no usage; prompt details without modality count nothing', () => {
    const img = { candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'I' } }] } }] };
    expect(decode({ ...img, usageMetadata: { cachedContentTokenCount: 3 } })).not.toHaveProperty('usage');
    expect(decode({ ...img, usageMetadata: { candidatesTokenCount: 2, promptTokensDetails: [{ tokenCount: 4 }, null, { modality: 'IMAGE' }, { modality: 'TEXT', tokenCount: 1 }] } }).usage).toEqual({
      inputTokens: 0,
      outputTokens: 2,
      totalTokens: 2,
      inputTextTokens: 1,
      inputImageTokens: 0,
    });
  });
});
