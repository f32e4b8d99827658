/**
 * Hosted image URLs expire after 60 minutes. The clock is injected through `createApp` (no
 * runtime entry takes one), so this suite serves the app itself on Node with @hono/node-server;
 * serving the URL on both targets is covered in images-openai.test.ts.
 */
import { serve, type ServerType } from '@hono/node-server';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { memoryImageStore } from '../../src/upstream/image-store.ts';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY } from '../support/proxy.ts';
import { imagesConfig } from './images-support.ts';

const MINUTE = 60_000;

describe('node: hosted image URLs expire (injected clock)', () => {
  let mock: MockUpstream;
  let server: ServerType;
  let url: string;
  let client: OpenAI;
  let offset = 0;
  const now = () => Date.now() + offset;

  beforeAll(async () => {
    mock = await startMockUpstream();
    const app = createApp({
      config: parseConfig(imagesConfig(mock.url)),
      fetch: (input, init) => fetch(input, init),
      now,
      imageStore: memoryImageStore({ now, maxBytes: 1024 * 1024 }),
    });
    url = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(`http://127.0.0.1:${info.port}`));
    });
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await mock.close();
  });
  beforeEach(() => {
    offset = 0;
    mock.requests.length = 0;
  });

  it('served for 60 minutes, then 404 in OpenAI shape', async () => {
    mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const expected = fixtureJson('openai-images', 'generations-b64-revised-prompt.json');
    const res = await client.images.generate({ model: 'gpt-image-1', prompt: 'otter', response_format: 'url' });
    const hosted = res.data![0]!.url!;
    expect(hosted.startsWith(`${url}/v1/images/hosted/`)).toBe(true);

    offset = 59 * MINUTE;
    const early = await fetch(hosted);
    expect(early.status).toBe(200);
    expect(early.headers.get('content-type')).toBe('image/png');
    expect(Number(/max-age=(\d+)/.exec(early.headers.get('cache-control') ?? '')?.[1])).toBeLessThanOrEqual(60);
    expect(Buffer.from(await early.arrayBuffer())).toEqual(Buffer.from(expected.data[0].b64_json, 'base64'));

    offset = 60 * MINUTE + 1000;
    const late = await fetch(hosted);
    expect(late.status).toBe(404);
    expect((await late.json()).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/expired/) });
  });

  it('the hosted route needs no key, but image calls still do', async () => {
    mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const res = await client.images.generate({ model: 'gpt-image-1', prompt: 'otter', response_format: 'url' });
    const got = await fetch(res.data![1]!.url!, { headers: {} });
    expect(got.status).toBe(200);
    const anonymous = new OpenAI({ apiKey: 'wrong', baseURL: `${url}/v1`, maxRetries: 0 });
    const err = await anonymous.images.generate({ model: 'gpt-image-1', prompt: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
