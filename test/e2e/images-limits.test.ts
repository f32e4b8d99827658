/**
 * Per-model limits of the OpenAI Images API, enforced by the proxy before anything is sent: the
 * `openai` SDK gets a BadRequestError naming the parameter, the mock upstream gets nothing.
 * A representative set end to end; every limit is unit-tested in translators/openai-images.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jpeg, png } from '../../translators/openai-images/test-images.ts';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, startProxy, type RunningProxy } from '../support/proxy.ts';
import { imagesConfig } from './images-support.ts';

describe.each(TARGETS)('%s: openai SDK images → per-model limits', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let client: OpenAI;

  beforeAll(async () => {
    mock = await startMockUpstream();
    mock.reply({ status: 500, body: '{"error":{"message":"must not be called"}}' });
    proxy = await startProxy(imagesConfig(mock.url), {}, target);
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  const rejects = async (call: () => Promise<unknown>, param: string, message: RegExp) => {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.status).toBe(400);
    expect(e.param).toBe(param);
    expect(e.type).toBe('invalid_request_error');
    expect(e.message).toMatch(message);
    expect(mock.requests).toHaveLength(0);
  };

  it('prompt length: 1000 for dall-e-2 (the default model), 4000 for image-model-b', async () => {
    await rejects(() => client.images.generate({ prompt: 'a'.repeat(1001) }), 'prompt', /maximum length 1000 for dall-e-2/);
    await rejects(() => client.images.generate({ model: 'image-model-b', prompt: 'a'.repeat(4001) }), 'prompt', /maximum length 4000/);
  });

  it('n: dall-e-3 only 1; 1–10 otherwise', async () => {
    await rejects(() => client.images.generate({ model: 'dall-e-3', prompt: 'x', n: 2 }), 'n', /supports only n=1/);
    await rejects(() => client.images.generate({ model: 'dall-e-2', prompt: 'x', n: 11 }), 'n', /<= 10/);
    await rejects(() => client.images.generate({ model: 'gpt-image-1', prompt: 'x', n: 0 }), 'n', />= 1/);
  });

  it('size, quality and style per model', async () => {
    await rejects(() => client.images.generate({ model: 'dall-e-2', prompt: 'x', size: '1792x1024' }), 'size', /not one of/);
    await rejects(() => client.images.generate({ model: 'dall-e-3', prompt: 'x', quality: 'low' }), 'quality', /not one of/);
    await rejects(() => client.images.generate({ model: 'image-model-a', prompt: 'x', style: 'vivid' }), 'style', /not supported by image-model-a/);
  });

  it('gpt-image parameters are refused for dall-e models', async () => {
    await rejects(() => client.images.generate({ model: 'dall-e-3', prompt: 'x', background: 'transparent' }), 'background', /only supported by GPT image models/);
  });

  it('dall-e-2 edits and variations: square PNG under 4 MB, mask of the same size', async () => {
    const file = (bytes: Uint8Array, type = 'image/png') => toFile(bytes, 'in.png', { type });
    await rejects(async () => client.images.edit({ model: 'dall-e-2', image: await file(png(512, 256)), prompt: 'x' }), 'image', /square/);
    await rejects(async () => client.images.createVariation({ image: await file(jpeg(256, 256), 'image/jpeg') }), 'image', /PNG/);
    await rejects(
      async () => client.images.edit({ model: 'dall-e-2', image: await file(png(256, 256)), mask: await file(png(512, 512, { trns: true })), prompt: 'x' }),
      'mask',
      /same dimensions|size/,
    );
  });

  it('operations the model cannot do: dall-e-3 edits, gpt-image-1 variations', async () => {
    await rejects(async () => client.images.edit({ model: 'dall-e-3', image: await toFile(png(64, 64), 'a.png', { type: 'image/png' }), prompt: 'x' }), 'model', /does not support image edits/);
    await rejects(async () => client.images.createVariation({ model: 'gpt-image-1', image: await toFile(png(64, 64), 'a.png', { type: 'image/png' }) }), 'model', /does not support image variations/);
  });
});
