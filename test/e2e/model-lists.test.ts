/**
 * Model lists through each official SDK: the configured names in the caller's shape, with each
 * upstream's own list merged in (only names the config routes there), behind a short cache.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';

const json = (body: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.each(TARGETS)('%s: model lists', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;

  beforeAll(async () => {
    mock = await startMockUpstream();
    mock.reply((req) => {
      if (req.url === '/v1/models') return json({ object: 'list', data: [{ id: 'gpt-4.1', object: 'model' }, { id: 'o3', object: 'model' }] });
      if (req.url.startsWith('/v1/models?')) return json({ data: [{ id: 'claude-opus-4-1', type: 'model' }], has_more: false });
      if (req.url.startsWith('/v1beta/models')) {
        return json({
          models: [
            { name: 'models/gemini-2.5-pro', supportedGenerationMethods: ['generateContent'] },
            { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
          ],
        });
      }
      return { status: 404, body: '{}' };
    });
    proxy = await startProxy(e2eConfig(mock.url), {}, target);
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });

  it('openai SDK: configured names plus routed upstream models, once per cache period', async () => {
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const ids = (await client.models.list()).data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['gpt-*', 'claude-*', 'gemini-*', 'to-anthropic', 'gpt-4.1', 'claude-opus-4-1', 'gemini-2.5-pro']));
    // Not routed to the upstream that lists it (o3 and text-embedding-004 match no route).
    expect(ids).not.toContain('o3');
    expect(ids).not.toContain('text-embedding-004');
    const asked = mock.requests.length;
    expect(asked).toBe(3);
    expect(mock.requests.find((r) => r.url === '/v1/models')!.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
    await client.models.list();
    expect(mock.requests.length).toBe(asked);
  });

  it('Anthropic SDK: Anthropic-shaped list', async () => {
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of client.models.list()) {
      expect(m.type).toBe('model');
      ids.push(m.id);
    }
    expect(ids).toEqual(expect.arrayContaining(['claude-*', 'claude-opus-4-1']));
  });

  it('@google/genai: Gemini-shaped list', async () => {
    const ai = new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: proxy.url } });
    const names: string[] = [];
    for await (const m of await ai.models.list()) names.push(m.name ?? '');
    expect(names).toEqual(expect.arrayContaining(['models/gemini-*', 'models/gemini-2.5-pro']));
  });
});
