/**
 * The official `openai` SDK's images calls through Interlingua to a Gemini image model: a mock
 * generateContent upstream answering with an inlineData image and a text part.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MASK_INSTRUCTION, VARIATION_INSTRUCTION } from '../../translators/gemini/image-encode.ts';
import { png, webp } from '../../translators/openai-images/test-images.ts';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, startProxy, type RunningProxy } from '../support/proxy.ts';
import { imagesConfig } from './images-support.ts';

const FIXTURE = 'image-generation.json';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe.each(TARGETS)('%s: openai SDK images → Interlingua → Gemini image model', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let client: OpenAI;
  const expected = fixtureJson('gemini', FIXTURE);
  const [textPart, imagePart] = expected.candidates[0].content.parts;

  beforeAll(async () => {
    mock = await startMockUpstream();
    proxy = await startProxy(imagesConfig(mock.url), {}, target);
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
    mock.reply(fixtureReply('gemini', FIXTURE));
  });

  it('generate: generateContent with TEXT+IMAGE, size as aspect ratio; image, revised prompt and usage back', async () => {
    const res = await client.images.generate({ model: 'gemini-2.5-flash-image', prompt: 'A red fox asleep in the snow', size: '1792x1024', response_format: 'b64_json' });
    expect(mock.requests).toHaveLength(1);
    const sent = mock.requests[0]!;
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe(UPSTREAM_KEYS.gemini);
    expect(sent.json).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A red fox asleep in the snow' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '16:9' } },
    });
    expect(res.data).toEqual([{ b64_json: imagePart.inlineData.data, revised_prompt: textPart.text }]);
    expect(res.usage).toMatchObject({ input_tokens: 14, output_tokens: 1307, total_tokens: 1321 });
  });

  it('n=3 fans out into three calls, merged in order with usage summed', async () => {
    const res = await client.images.generate({ model: 'nano-banana', prompt: 'A fox', n: 3, response_format: 'b64_json' });
    expect(mock.requests).toHaveLength(3);
    for (const r of mock.requests) expect(r.url).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(res.data).toHaveLength(3);
    expect(res.usage?.total_tokens).toBe(3 * 1321);
  });

  it('url wanted: the inline image is hosted on the proxy and served with its type', async () => {
    const res = await client.images.generate({ model: 'gemini-2.5-flash-image', prompt: 'A fox', response_format: 'url' });
    const url = res.data![0]!.url!;
    expect(url.startsWith(`${proxy.url}/v1/images/hosted/`)).toBe(true);
    const got = await fetch(url);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer())).toEqual(Buffer.from(imagePart.inlineData.data, 'base64'));
  });

  it('edit with several images: every image as inlineData after the prompt', async () => {
    const images = [png(64, 64), webp(32, 48)];
    await client.images.edit({
      model: 'gemini-2.5-flash-image',
      image: [await toFile(images[0]!, 'a.png', { type: 'image/png' }), await toFile(images[1]!, 'b.webp', { type: 'image/webp' })],
      prompt: 'Put the cat on the sofa',
      response_format: 'b64_json',
    });
    expect(mock.requests[0]!.json.contents[0].parts).toEqual([
      { text: 'Put the cat on the sofa' },
      { inlineData: { mimeType: 'image/png', data: b64(images[0]!) } },
      { inlineData: { mimeType: 'image/webp', data: b64(images[1]!) } },
    ]);
  });

  it('variation: the image plus an instruction to vary it', async () => {
    const image = png(256, 256);
    const res = await client.images.createVariation({ model: 'gemini-2.5-flash-image', image: await toFile(image, 'a.png', { type: 'image/png' }), response_format: 'b64_json' });
    expect(res.data![0]!.b64_json).toBe(imagePart.inlineData.data);
    expect(mock.requests[0]!.json.contents[0].parts).toEqual([{ text: VARIATION_INSTRUCTION }, { inlineData: { mimeType: 'image/png', data: b64(image) } }]);
    expect(mock.requests[0]!.json.contents[0].parts[0].text).not.toContain(MASK_INSTRUCTION);
  });

  it('a mask: 400 naming mask, nothing sent', async () => {
    const err = await client.images
      .edit({
        model: 'gemini-2.5-flash-image',
        image: await toFile(png(64, 64), 'a.png', { type: 'image/png' }),
        mask: await toFile(png(64, 64, { trns: true }), 'm.png', { type: 'image/png' }),
        prompt: 'x',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('mask');
    expect((err as Error).message).toMatch(/Masks are not supported by Gemini image models/);
    expect(mock.requests).toHaveLength(0);
  });

  it('no image for safety: moderation_blocked 400; Gemini errors translated', async () => {
    mock.reply(fixtureReply('gemini', 'image-no-image-safety.json'));
    const err = await client.images.generate({ model: 'gemini-2.5-flash-image', prompt: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('moderation_blocked');
    mock.reply(fixtureReply('gemini', 'error-429-resource-exhausted.json'));
    const limited = await client.images.generate({ model: 'gemini-2.5-flash-image', prompt: 'x' }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
  });
});
