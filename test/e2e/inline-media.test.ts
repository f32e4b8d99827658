/**
 * `inlineMedia` on an upstream: image URLs are fetched through the guarded fetcher and sent
 * inline, for upstreams that cannot reach the caller's URLs (here an Anthropic upstream).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe.each(TARGETS)('%s: inlineMedia', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  beforeAll(async () => {
    mock = await startMockUpstream();
    const cfg = e2eConfig(mock.url);
    proxy = await startProxy({ ...cfg, mediaFetch: { timeoutMs: 400 }, upstreams: { ...cfg.upstreams, anthropic: { ...cfg.upstreams.anthropic, inlineMedia: true } } }, {}, target);
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('an image URL reaches Anthropic as a base64 source fetched from the URL', async () => {
    mock.reply((req) =>
      req.url === '/cat.png'
        ? { status: 200, headers: { 'content-type': 'image/png' }, body: PNG }
        : fixtureReply('anthropic', 'text-basic.json'),
    );
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({
      model: 'to-anthropic',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What?' }, { type: 'image_url', image_url: { url: `${mock.url}/cat.png` } }] }],
    });
    const sent = mock.requests.find((r) => r.url === '/v1/messages')!.json;
    expect(sent.messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } });
  });

  const ask = (url: string) =>
    new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'to-anthropic', messages: [{ role: 'user', content: [{ type: 'text', text: 'What?' }, { type: 'image_url', image_url: { url } }] }] })
      .catch((e: unknown) => e as InstanceType<typeof OpenAI.APIError>);

  it('an IPv6 spelling of a forbidden IPv4 address is a 400, and nothing is fetched or sent', async () => {
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '[::ffff:169.254.169.254]', '[64:ff9b::a00:1]']) {
      const err = await ask(`http://${host}:${mock.port}/cat.png`);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.APIError>).message).toMatch(/not allowed/);
    }
    expect(mock.requests).toHaveLength(0);
  });

  it('a page that is not an image is refused (400), not inlined as one', async () => {
    mock.reply((req) => (req.url === '/cat.png' ? { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>login</html>' } : fixtureReply('anthropic', 'text-basic.json')));
    const err = await ask(`${mock.url}/cat.png`);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).toMatch(/text\/html/);
    expect(mock.requests.some((r) => r.url === '/v1/messages')).toBe(false);
  });

  it('a URL that drips slower than mediaFetch.timeoutMs is the caller\'s 400 (as the vendors answer an unfetchable image URL), nothing sent upstream', async () => {
    mock.reply((req) =>
      req.url === '/slow.png'
        ? { status: 200, headers: { 'content-type': 'image/png' }, chunks: Array.from({ length: 20 }, () => 'x'), delayMs: 100 }
        : fixtureReply('anthropic', 'text-basic.json'),
    );
    const err = await ask(`${mock.url}/slow.png`);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).toMatch(/longer than 400 ms/);
    expect(mock.requests.some((r) => r.url === '/v1/messages')).toBe(false);
  });
});
