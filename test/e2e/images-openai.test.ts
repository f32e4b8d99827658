/**
 * The official `openai` SDK's images calls through a real Interlingua server, against an OpenAI
 * images mock replaying the captured fixtures: generations (url, b64, hosted URL, URL fetched
 * into base64), edits (image + mask, several images), variations, and the chat-only upstream 400.
 */
import OpenAI, { toFile } from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../translators/openai-images/test-images.ts';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import { asMockText, imagesConfig, receivedForm } from './images-support.ts';

describe.each(TARGETS)('%s: openai SDK images → Interlingua → OpenAI images upstream', (target) => {
  const h = useHarness(target, imagesConfig);
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  it('generate, url: the upstream URL and revised prompt come back, the request reaches upstream as JSON', async () => {
    h.mock.reply(fixtureReply('openai-images', 'generations-dalle3-url-revised-prompt.json'));
    const expected = fixtureJson('openai-images', 'generations-dalle3-url-revised-prompt.json');
    const res = await client.images.generate({ model: 'dall-e-3', prompt: 'A small Maltese dog', size: '1792x1024', quality: 'hd', style: 'natural' });
    expect(res.created).toBe(expected.created);
    expect(res.data![0]!.url).toBe(expected.data[0].url);
    expect(res.data![0]!.revised_prompt).toBe(expected.data[0].revised_prompt);
    expect(h.mock.requests).toHaveLength(1);
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1/images/generations');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
    expect(sent.json).toEqual({ model: 'dall-e-3', prompt: 'A small Maltese dog', size: '1792x1024', quality: 'hd', style: 'natural', response_format: 'url' });
  });

  it('generate, b64_json with n=2: both images and revised prompts come back', async () => {
    h.mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const expected = fixtureJson('openai-images', 'generations-b64-revised-prompt.json');
    const res = await client.images.generate({ model: 'dall-e-2', prompt: 'A baby sea otter', n: 2, response_format: 'b64_json' });
    expect(res.data!.map((d) => d.b64_json)).toEqual(expected.data.map((d: { b64_json: string }) => d.b64_json));
    expect(res.data![0]!.revised_prompt).toBe(expected.data[0].revised_prompt);
    expect(h.mock.requests[0]!.json).toMatchObject({ model: 'dall-e-2', n: 2, response_format: 'b64_json' });
  });

  it('generate, url wanted from a base64-only model: the image is hosted on the proxy, no key needed', async () => {
    h.mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const expected = fixtureJson('openai-images', 'generations-b64-revised-prompt.json');
    const res = await client.images.generate({ model: 'gpt-image-1', prompt: 'A baby sea otter', response_format: 'url' });
    expect(h.mock.requests[0]!.json).toEqual({ model: 'gpt-image-1', prompt: 'A baby sea otter' });
    expect(res.data).toHaveLength(2);
    for (const [i, item] of res.data!.entries()) {
      expect(item.b64_json).toBeUndefined();
      expect(item.url).toMatch(new RegExp(`^${h.proxy.url}/v1/images/hosted/[A-Za-z0-9]{40}\\.png$`));
      const got = await fetch(item.url!);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await got.arrayBuffer())).toEqual(Buffer.from(expected.data[i].b64_json, 'base64'));
    }
    expect(res.data![0]!.url).not.toBe(res.data![1]!.url);
    const missing = await fetch(`${h.proxy.url}/v1/images/hosted/${'A'.repeat(40)}.png`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.message).toMatch(/expired/);
  });

  it('hosted URLs follow x-forwarded-proto / x-forwarded-host when a reverse proxy sends them', async () => {
    h.mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const res = await client.images.generate(
      { model: 'gpt-image-1', prompt: 'otter', response_format: 'url' },
      { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'images.example.com' } },
    );
    expect(res.data![0]!.url).toMatch(/^https:\/\/images\.example\.com\/v1\/images\/hosted\/[A-Za-z0-9]{40}\.png$/);
  });

  it('b64_json wanted, upstream answered with a URL on its own host: fetched and encoded', async () => {
    const bytes = png(16, 16);
    h.mock.reply((req) =>
      req.url === '/files/result.png'
        ? { headers: { 'content-type': 'image/png' }, body: Buffer.from(bytes).toString('latin1') }
        : { body: JSON.stringify({ created: 1700000000, data: [{ url: `${h.mock.url}/files/result.png` }] }) },
    );
    const res = await client.images.generate({ model: 'dall-e-2', prompt: 'A tiny square', response_format: 'b64_json' });
    expect(h.mock.requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/v1/images/generations'],
      ['GET', '/files/result.png'],
    ]);
    expect(h.mock.requests[1]!.headers.authorization).toBeUndefined();
    expect(res.data![0]!.url).toBeUndefined();
    // The mock writes string bodies as UTF-8: these are the bytes it served.
    const served = Buffer.from(Buffer.from(bytes).toString('latin1'), 'utf8');
    expect(Buffer.from(res.data![0]!.b64_json!, 'base64')).toEqual(served);
  });

  it('b64_json wanted, upstream answered with a URL on another host: refused, never fetched', async () => {
    h.mock.reply({ body: JSON.stringify({ created: 1700000000, data: [{ url: `http://localhost:${h.mock.port}/files/elsewhere.png` }] }) });
    const err = await client.images.generate({ model: 'dall-e-2', prompt: 'x', response_format: 'b64_json' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((err as Error).message).toMatch(/another host \(localhost\)/);
    expect(h.mock.requests).toHaveLength(1);
  });

  it('edit with image + mask (dall-e-2): multipart re-encoded upstream with both files', async () => {
    h.mock.reply(fixtureReply('openai-images', 'variations-url.json'));
    const image = png(256, 256);
    const mask = png(256, 256, { trns: true });
    const res = await client.images.edit({
      model: 'dall-e-2',
      image: await toFile(image, 'room.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'Add a window',
      n: 2,
      size: '256x256',
    });
    expect(res.data!.map((d) => d.url)).toEqual(fixtureJson('openai-images', 'variations-url.json').data.map((d: { url: string }) => d.url));
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1/images/edits');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
    const form = await receivedForm(sent);
    expect([form.get('model'), form.get('prompt'), form.get('n'), form.get('size'), form.get('response_format')]).toEqual(['dall-e-2', 'Add a window', '2', '256x256', 'url']);
    const [sentImage, sentMask] = [form.get('image') as File, form.get('mask') as File];
    expect(sentImage.name).toBe('room.png');
    expect(await sentImage.text()).toBe(asMockText(image));
    expect(await sentMask.text()).toBe(asMockText(mask));
  });

  it('edit with several images (gpt-image-1): every image as image[], base64 and metadata back', async () => {
    h.mock.reply(fixtureReply('openai-images', 'edits-gpt-image-output-metadata.json'));
    const expected = fixtureJson('openai-images', 'edits-gpt-image-output-metadata.json');
    const images = [png(64, 32), png(32, 32), png(48, 48)];
    const res = await client.images.edit({
      model: 'gpt-image-1',
      image: await Promise.all(images.map((b, i) => toFile(b, `in${i}.png`, { type: 'image/png' }))),
      prompt: 'A gift basket with all of these',
      quality: 'high',
    });
    expect(res.data![0]!.b64_json).toBe(expected.data[0].b64_json);
    expect([res.output_format, res.quality, res.size, res.background]).toEqual(['png', 'high', '1024x1024', 'opaque']);
    const form = await receivedForm(h.mock.requests[0]!);
    const sent = form.getAll('image[]') as File[];
    expect(sent.map((f) => f.name)).toEqual(['in0.png', 'in1.png', 'in2.png']);
    for (const [i, f] of sent.entries()) expect(await f.text()).toBe(asMockText(images[i]!));
    expect(form.get('response_format')).toBeNull();
    expect([form.get('model'), form.get('quality')]).toEqual(['gpt-image-1', 'high']);
  });

  it('createVariation: the image goes upstream, both URLs come back', async () => {
    h.mock.reply(fixtureReply('openai-images', 'variations-url.json'));
    const image = png(512, 512);
    const res = await client.images.createVariation({ image: await toFile(image, 'otter.png', { type: 'image/png' }), n: 2, size: '512x512' });
    expect(res.data).toHaveLength(2);
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1/images/variations');
    const form = await receivedForm(sent);
    expect([form.get('model'), form.get('n'), form.get('size'), form.get('prompt')]).toEqual(['dall-e-2', '2', '512x512', null]);
    expect(await (form.get('image') as File).text()).toBe(asMockText(image));
  });

  it('upstream errors keep their OpenAI shape (moderation_blocked)', async () => {
    h.mock.reply(fixtureReply('openai-images', 'error-400-moderation-blocked.json'));
    const err = await client.images.generate({ model: 'gpt-image-1', prompt: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('moderation_blocked');
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).type).toBe('image_generation_user_error');
  });

  it('a chat-only (anthropic) upstream: 400 in OpenAI shape, nothing sent', async () => {
    const err = await client.images.generate({ model: 'claude-draw', prompt: 'A cat' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.param).toBe('model');
    expect(e.message).toMatch(/'anthropic' \(anthropic\) cannot generate images/);
    expect(h.mock.requests).toHaveLength(0);
  });

  it('an edit body over maxMultipartBytes: 413, nothing sent', async () => {
    const big = png(1024, 1024, { size: 400_000 });
    const err = await client.images.edit({ model: 'gpt-image-1', image: await toFile(big, 'big.png', { type: 'image/png' }), prompt: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((err as Error).message).toMatch(/exceeds the limit of 300000 bytes/);
    expect(h.mock.requests).toHaveLength(0);
  });
});
