import { describe, expect, it } from 'vitest';
import { ProxyError, type ImageRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { MASK_INSTRUCTION, VARIATION_INSTRUCTION } from './image-encode.ts';
import { createGeminiImages, geminiImages } from './index.ts';

const target: UpstreamTarget = {
  name: 'g',
  model: 'models/gemini-2.5-flash-image',
  apiKey: 'UPKEY',
  options: {},
};
const ctx = testContext();
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const gen = (extra: Partial<ImageRequest> = {}): ImageRequest => ({ op: 'generate', model: 'm', prompt: 'a fox', images: [], ...extra });
const bodyOf = (r: { body?: unknown }) => JSON.parse(r.body as string);

describe('gemini image upstream: encode', () => {
  it('generation: one generateContent call, TEXT+IMAGE modalities, key in the header', () => {
    const { value, warnings } = geminiImages.encodeImageRequest(gen(), target, ctx);
    expect(value).toHaveLength(1);
    expect(value[0]!.path).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(value[0]!.path).not.toContain('UPKEY');
    expect(value[0]!.headers['x-goog-api-key']).toBe('UPKEY');
    expect(bodyOf(value[0]!)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a fox' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'] },
    });
    expect(warnings).toEqual([]);
  });

  it('size → imageConfig.aspectRatio (nearest ratio for odd sizes, none for auto)', () => {
    const ratio = (size: string) => bodyOf(geminiImages.encodeImageRequest(gen({ size }), target, ctx).value[0]!).generationConfig.imageConfig;
    expect(ratio('1792x1024')).toEqual({ aspectRatio: '16:9' });
    expect(ratio('1024x1536')).toEqual({ aspectRatio: '2:3' });
    expect(ratio('256x256')).toEqual({ aspectRatio: '1:1' });
    expect(ratio('2000x100')).toEqual({ aspectRatio: '21:9' });
    expect(ratio('auto')).toBeUndefined();
    const { warnings } = geminiImages.encodeImageRequest(gen({ size: '1792x1024' }), target, ctx);
    expect(warnings).toContainEqual({ code: 'approximated', path: 'size', detail: '1792x1024->16:9' });
  });

  it('n > 1 → n identical calls, reported as a fan-out', () => {
    const { value, warnings } = geminiImages.encodeImageRequest(gen({ n: 3 }), target, ctx);
    expect(value).toHaveLength(3);
    expect(new Set(value.map((r) => r.body)).size).toBe(1);
    expect(warnings).toContainEqual({ code: 'approximated', path: 'n', detail: 'fan-out' });
  });

  it('edit: prompt, then every input image as inlineData', () => {
    const req = gen({ op: 'edit', images: [{ data: png, mediaType: 'image/png' }, { data: png, mediaType: 'image/webp' }] });
    const body = bodyOf(geminiImages.encodeImageRequest(req, target, ctx).value[0]!);
    const b64 = Buffer.from(png).toString('base64');
    expect(body.contents[0].parts).toEqual([
      { text: 'a fox' },
      { inlineData: { mimeType: 'image/png', data: b64 } },
      { inlineData: { mimeType: 'image/webp', data: b64 } },
    ]);
  });

  it('variation: the image plus an instruction to vary it', () => {
    const req: ImageRequest = { op: 'variation', model: 'm', images: [{ data: png, mediaType: 'image/png' }] };
    const parts = bodyOf(geminiImages.encodeImageRequest(req, target, ctx).value[0]!).contents[0].parts;
    expect(parts[0]).toEqual({ text: VARIATION_INSTRUCTION });
    expect(parts[1].inlineData.mimeType).toBe('image/png');
  });

  it('mask: a 400 naming mask, unless the upstream approximates it', () => {
    const req = gen({ op: 'edit', images: [{ data: png, mediaType: 'image/png' }], mask: { data: png, mediaType: 'image/png' } });
    const err = (() => {
      try {
        geminiImages.encodeImageRequest(req, target, ctx);
      } catch (e) {
        return e;
      }
    })() as ProxyError;
    expect(err).toBeInstanceOf(ProxyError);
    expect([err.status, err.param]).toEqual([400, 'mask']);
    expect(err.message).toMatch(/Masks are not supported/);
    const { value, warnings } = createGeminiImages({ mask: 'instruction' }).encodeImageRequest(req, target, ctx);
    const parts = bodyOf(value[0]!).contents[0].parts;
    expect(parts[0].text).toBe(`a fox\n\n${MASK_INSTRUCTION}`);
    expect(parts).toHaveLength(3);
    expect(warnings).toContainEqual({ code: 'approximated', path: 'mask', detail: 'instruction' });
    // The same switch from the upstream's config (`imageMask`).
    const configured = geminiImages.encodeImageRequest(req, { ...target, options: { imageMask: 'instruction' } }, ctx);
    expect(bodyOf(configured.value[0]!).contents[0].parts).toHaveLength(3);
  });

  it('quality, style, user and gpt-image fields are dropped with warnings', () => {
    const { value, warnings } = geminiImages.encodeImageRequest(
      gen({ quality: 'hd', style: 'vivid', user: 'u1', extras: { background: 'transparent' } }),
      target,
      ctx,
    );
    expect(Object.keys(bodyOf(value[0]!))).toEqual(['contents', 'generationConfig']);
    expect(warnings.map((w) => w.path).sort()).toEqual(['background', 'quality', 'style', 'user']);
  });
});

describe('gemini image upstream: decode', () => {
  it('image parts → images, text alongside → revised prompt, usage by modality', () => {
    const body = fixtureJson('gemini', 'image-generation.json');
    const res = geminiImages.decodeImageResponse(body, gen(), ctx);
    const part = body.candidates[0].content.parts;
    expect(res.created).toBe(Math.floor(ctx.now() / 1000));
    expect(res.images).toEqual([{ b64: part[1].inlineData.data, mediaType: 'image/png', revisedPrompt: part[0].text }]);
    expect(res.usage).toEqual({ inputTokens: 14, outputTokens: 1307, totalTokens: 1321, inputTextTokens: 14, inputImageTokens: 0 });
  });

  it('thought images are not results', () => {
    const body = {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' }, thought: true }, { inlineData: { mimeType: 'image/jpeg', data: 'BBBB' } }] } }],
    };
    expect(geminiImages.decodeImageResponse(body, gen(), ctx).images).toEqual([{ b64: 'BBBB', mediaType: 'image/jpeg' }]);
  });

  it('no image for safety → moderation_blocked 400; otherwise a 502 quoting the model', () => {
    const e1 = catchError(() => geminiImages.decodeImageResponse(fixtureJson('gemini', 'image-no-image-safety.json'), gen(), ctx));
    expect([e1.status, e1.code]).toEqual([400, 'moderation_blocked']);
    expect(e1.message).toContain('IMAGE_SAFETY');
    const e2 = catchError(() => geminiImages.decodeImageResponse({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } }, gen(), ctx));
    expect(e2.code).toBe('moderation_blocked');
    const e3 = catchError(() =>
      geminiImages.decodeImageResponse({ candidates: [{ content: { parts: [{ text: 'I can only describe it.' }] }, finishReason: 'NO_IMAGE' }] }, gen(), ctx),
    );
    expect(e3.status).toBe(502);
    expect(e3.message).toContain('NO_IMAGE');
    expect(e3.message).toContain('I can only describe it.');
  });

  it.each([[{ hello: 'world' }], [[]], [{ candidates: 'x' }], [{ candidates: [] }], [{ usageMetadata: { totalTokenCount: 3 } }]])(
    'a body of the wrong shape (%j) is a 502 saying so',
    (body) => {
      const e = catchError(() => geminiImages.decodeImageResponse(body, gen(), ctx));
      expect([e.kind, e.status]).toEqual(['upstream', 502]);
      expect(e.message).toContain('not a GenerateContentResponse');
    },
  );

  it('usage: counts that are there, thoughts as output, the total computed when absent; none at all is no usage', () => {
    const img = { candidates: [{ content: { parts: [{ text: ' A ' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }, { text: 'fox. ' }, { inlineData: { mimeType: 'text/plain', data: 'eA==' } }] } }] };
    const decode = (usageMetadata?: unknown) => geminiImages.decodeImageResponse({ ...img, ...(usageMetadata ? { usageMetadata } : {}) }, gen(), ctx);
    expect(decode({ promptTokenCount: 5 }).usage).toEqual({ inputTokens: 5, outputTokens: 0, totalTokens: 5 });
    expect(decode({ candidatesTokenCount: 7, thoughtsTokenCount: 3 }).usage).toEqual({ inputTokens: 0, outputTokens: 10, totalTokens: 10 });
    expect(decode({ totalTokenCount: 9 }).usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 9 });
    expect(
      decode({ promptTokenCount: 20, candidatesTokenCount: 1, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 4 }, { modality: 'IMAGE', tokenCount: 10 }, { modality: 'IMAGE', tokenCount: 6 }, { modality: 'AUDIO' }] }).usage,
    ).toEqual({ inputTokens: 20, outputTokens: 1, totalTokens: 21, inputTextTokens: 4, inputImageTokens: 16 });
    const none = decode({ thoughtsTokenCount: 2 });
    expect(none).not.toHaveProperty('usage');
    // Text around the image is its revised prompt, joined as written; a non-image inline part is no result.
    expect(none.images).toEqual([{ b64: 'AAAA', mediaType: 'image/png', revisedPrompt: 'A fox.' }]);
  });

  it('no image: the message names the finish reason and quotes what the model said, or ends plainly', () => {
    const noImage = (candidate: Record<string, unknown>) => catchError(() => geminiImages.decodeImageResponse({ candidates: [candidate] }, gen(), ctx));
    expect(noImage({ content: { parts: [{ text: 'Only' }, { text: 'words. ' }] } }).message).toBe('The Gemini image model returned no image: Only words.');
    expect(noImage({ content: { parts: [] }, finishReason: 'STOP' }).message).toBe('The Gemini image model returned no image (finishReason STOP).');
    const e = noImage({ content: { parts: [] } });
    expect([e.message, e.kind, e.status, e.code]).toEqual(['The Gemini image model returned no image.', 'upstream', 502, 'no_image']);
    const blocked = catchError(() => geminiImages.decodeImageResponse({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } }, gen(), ctx));
    expect([blocked.message, blocked.upstreamType]).toEqual(["Your request was rejected by the upstream's safety system: the prompt was blocked (PROHIBITED_CONTENT).", 'image_generation_user_error']);
  });

  it('errors use the Gemini error table', () => {
    const err = geminiImages.decodeError(429, JSON.stringify({ error: { code: 429, message: 'Quota', status: 'RESOURCE_EXHAUSTED' } }), {});
    expect([err.kind, err.status]).toEqual(['rate-limit', 429]);
  });
});

function catchError(fn: () => unknown): ProxyError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProxyError) return e;
    throw e;
  }
  throw new Error('expected a ProxyError');
}
