/**
 * `inlineMedia` on an upstream: image URLs are fetched through the guarded fetcher and sent
 * inline, for upstreams that cannot reach the caller's URLs (here an Anthropic upstream).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe.each(TARGETS)('%s: inlineMedia', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  beforeAll(async () => {
    mock = await startMockUpstream();
    const cfg = e2eConfig(mock.url);
    proxy = await startProxy({ ...cfg, upstreams: { ...cfg.upstreams, anthropic: { ...cfg.upstreams.anthropic, inlineMedia: true } } }, {}, target);
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
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
});
