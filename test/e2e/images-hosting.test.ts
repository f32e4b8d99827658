/**
 * Hosted image URLs expire after 60 minutes. The clock is injected through `createProxy` (no
 * runtime entry takes one), so this suite serves the app itself on Node's listener; serving the
 * URL on both targets is covered in images-openai.test.ts. A store that keeps nothing (the Cache
 * API on workers.dev) gives the image inline instead of a dead URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProxy, type ImageStore } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { createNodeListener } from '../../src/runtime/node-server.ts';
import { memoryImageStore } from '../../src/upstream/image-store.ts';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY } from '../support/proxy.ts';
import { imagesConfig } from './images-support.ts';

const MINUTE = 60_000;

describe('node: hosted image URLs expire (injected clock)', () => {
  let mock: MockUpstream;
  let server: http.Server;
  let url: string;
  let client: OpenAI;
  let offset = 0;
  const now = () => Date.now() + offset;

  beforeAll(async () => {
    mock = await startMockUpstream();
    url = await serveProxy(mock.url, { now, imageStore: memoryImageStore({ now, maxBytes: 1024 * 1024 }) }, (s) => (server = s));
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

describe('node: a store that keeps nothing', () => {
  let mock: MockUpstream;
  let server: http.Server;
  let client: OpenAI;
  beforeAll(async () => {
    mock = await startMockUpstream();
    const forgetful: ImageStore = { put: async () => {}, get: async () => undefined };
    const url = await serveProxy(mock.url, { imageStore: forgetful }, (s) => (server = s));
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await mock.close();
  });

  it('answers b64_json and says so, instead of a URL that would never answer', async () => {
    mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const expected = fixtureJson('openai-images', 'generations-b64-revised-prompt.json');
    const { data, response } = await client.images.generate({ model: 'gpt-image-1', prompt: 'otter', response_format: 'url' }).withResponse();
    expect(data.data![0]!.url).toBeUndefined();
    expect(data.data![0]!.b64_json).toBe(expected.data[0].b64_json);
    expect(response.headers.get('x-interlingua-warnings')).toContain('approximated:response_format=b64_json');
  });
});

async function serveProxy(mockUrl: string, extra: Partial<Parameters<typeof createProxy>[0]>, keep: (s: http.Server) => void): Promise<string> {
  const proxy = createProxy({ config: parseConfig(imagesConfig(mockUrl)), fetch: (input, init) => fetch(input, init), ...extra });
  const server = http.createServer(createNodeListener(proxy));
  keep(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
