/**
 * Azure OpenAI through the official SDKs, against a mock of Azure's wire that enforces it: the
 * deployment URL with `api-version` (dated) or the `/openai/v1` URL (v1), the key in `api-key` and
 * never in `Authorization` — anything else is Azure's 401 or 404. Errors in Azure's shapes
 * (content filter with `innererror`). On Node and in workerd.
 * Azure's URL styles: https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureSse, fixtureText } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream, type MockReply, type MockUpstream, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, startProxy, type RunningProxy } from '../support/proxy.ts';
import { genai } from './helpers-gemini.ts';

const AZURE_KEY = 'azure-upstream-SECRET-4444';
const VERSION = '2024-10-21';

const azureError = (status: number, name: string): MockReply => ({
  status,
  headers: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '6' } : {}) },
  body: fixtureText('openai-chat', `hosts/${name}`),
});

/** Azure's wire: what its URLs and auth accept, then the scripted answer. */
function azure(answer: (req: ReceivedRequest, path: string) => MockReply) {
  return (req: ReceivedRequest): MockReply => {
    if (req.headers['api-key'] !== AZURE_KEY || req.headers['authorization'] !== undefined) return azureError(401, 'azure-error-401-invalid-key.json');
    const url = new URL(req.url, 'http://mock');
    const deployment = /^\/openai\/deployments\/([^/]+)(\/.+)$/.exec(url.pathname);
    if (deployment) {
      if (url.searchParams.get('api-version') !== VERSION) return { status: 404, body: '{"error":{"code":"404","message":"Resource not found"}}' };
      if (decodeURIComponent(deployment[1]!) !== 'prod-gpt4o' && decodeURIComponent(deployment[1]!) !== 'dalle3') return azureError(404, 'azure-error-404-deployment-not-found.json');
      return answer(req, deployment[2]!);
    }
    const v1 = /^\/openai\/v1(\/.+)$/.exec(url.pathname);
    if (v1 && !url.search) return answer(req, v1[1]!);
    return { status: 404, body: '{"error":{"code":"404","message":"Resource not found"}}' };
  };
}

/** The text Azure's captured stream carries. */
const streamedText = fixtureSse('openai-chat', 'azure-stream-prompt-filter-results-reasoning.sse')
  .filter((e) => e.data !== '[DONE]')
  .map((e) => JSON.parse(e.data).choices?.[0]?.delta?.content ?? '')
  .join('');

const answers = (req: ReceivedRequest, path: string): MockReply => {
  if (path === '/models') return { body: JSON.stringify({ object: 'list', data: [{ id: 'v1-gpt-4o', object: 'model' }, { id: 'v1-o4-mini', object: 'model' }] }) };
  if (path === '/images/generations') return fixtureReply('openai-images', 'generations-dalle3-url-revised-prompt.json');
  if (path !== '/chat/completions') return { status: 404, body: '{"error":{"code":"404","message":"Resource not found"}}' };
  if (JSON.stringify(req.json?.messages ?? '').includes('FILTER')) return azureError(400, 'azure-error-400-content-filter.json');
  return req.json?.stream ? fixtureReply('openai-chat', 'azure-stream-prompt-filter-results-reasoning.sse') : fixtureReply('openai-chat', 'text-basic.json');
};

describe.each(TARGETS)('%s: Azure OpenAI provider', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let openai: OpenAI;

  beforeAll(async () => {
    mock = await startMockUpstream();
    mock.reply(azure(answers));
    const config = {
      keys: [INBOUND_KEY],
      upstreams: {
        dated: { dialect: 'openai', provider: 'azure', baseUrl: mock.url, apiVersion: VERSION, apiKey: 'env:AZURE_OPENAI_API_KEY', retry: { attempts: 1 } },
        // Pasted the way Azure's docs give it to the OpenAI SDK: the resource plus /openai/v1.
        v1: { dialect: 'openai', provider: 'azure', baseUrl: `${mock.url}/openai/v1/`, apiKey: 'env:AZURE_OPENAI_API_KEY', retry: { attempts: 1 } },
      },
      models: {
        'azure-dated': { upstream: 'dated', model: 'prod-gpt4o' },
        'dall-e-3': { upstream: 'dated', model: 'dalle3' },
        'azure-v1': { upstream: 'v1', model: 'gpt-4o-mini' },
        'v1-*': { upstream: 'v1' },
      },
    };
    proxy = await startProxy(config, { AZURE_OPENAI_API_KEY: AZURE_KEY }, target);
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  const sent = () => {
    const r = mock.requests.at(-1)!;
    return { url: r.url, key: r.headers['api-key'], authorization: r.headers['authorization'], body: r.json };
  };

  it('openai → dated apiVersion: the deployment URL with api-version, the key in api-key', async () => {
    const res = await openai.chat.completions.create({ model: 'azure-dated', messages: [{ role: 'user', content: 'Weather in SF?' }] });
    expect(res.choices[0]!.message.content).toMatch(/real-time weather/);
    expect(sent()).toMatchObject({ url: `/openai/deployments/prod-gpt4o/chat/completions?api-version=${VERSION}`, key: AZURE_KEY, authorization: undefined });
  });

  it('openai → v1, streamed: /openai/v1/chat/completions, the model in the body', async () => {
    const stream = await openai.chat.completions.create({ model: 'azure-v1', stream: true, messages: [{ role: 'user', content: 'Capital of Denmark?' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(streamedText);
    expect(sent()).toMatchObject({ url: '/openai/v1/chat/completions', key: AZURE_KEY, authorization: undefined });
    expect(sent().body.model).toBe('gpt-4o-mini');
  });

  it('anthropic → dated, streamed: Azure’s prompt-filter chunk and usage chunk translated', async () => {
    const anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
    const msg = await anthropic.messages.stream({ model: 'azure-dated', max_tokens: 200, messages: [{ role: 'user', content: 'Capital of Denmark?' }] }).finalMessage();
    expect(msg.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')).toBe(streamedText);
    expect(msg.usage.output_tokens).toBe(78);
    expect(sent()).toMatchObject({ url: `/openai/deployments/prod-gpt4o/chat/completions?api-version=${VERSION}`, key: AZURE_KEY });
    expect(sent().body.max_completion_tokens).toBe(200);
  });

  it('openai responses.create → dated (openai-chat deployment URL): translated both ways, plain and streamed', async () => {
    const res = await openai.responses.create({ model: 'azure-dated', instructions: 'Be brief.', input: 'Weather in SF?', max_output_tokens: 300 });
    expect(res.object).toBe('response');
    expect(res.status).toBe('completed');
    expect(res.output_text).toMatch(/real-time weather/);
    expect(sent()).toMatchObject({ url: `/openai/deployments/prod-gpt4o/chat/completions?api-version=${VERSION}`, key: AZURE_KEY, authorization: undefined });
    expect(sent().body.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in SF?' }]);
    expect(sent().body.max_completion_tokens).toBe(300);

    const stream = await openai.responses.create({ model: 'azure-dated', input: 'Capital of Denmark?', stream: true });
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const e of stream) {
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'response.completed') completed = e.response;
    }
    expect(text).toBe(streamedText);
    expect(completed?.status).toBe('completed');
    expect(completed?.output.flatMap((o) => (o.type === 'message' ? o.content.map((c) => (c.type === 'output_text' ? c.text : '')) : [])).join('')).toBe(streamedText);
    expect(sent()).toMatchObject({ url: `/openai/deployments/prod-gpt4o/chat/completions?api-version=${VERSION}`, key: AZURE_KEY });
    expect(sent().body.stream).toBe(true);
  });

  it('@google/genai → v1', async () => {
    const res = await genai(proxy.url).models.generateContent({ model: 'azure-v1', contents: 'Weather in SF?' });
    expect(res.text).toMatch(/real-time weather/);
    expect(sent()).toMatchObject({ url: '/openai/v1/chat/completions', key: AZURE_KEY });
  });

  it('images: the deployment’s images/generations with api-version', async () => {
    const img = await openai.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse at dusk', response_format: 'url' });
    expect(img.data?.[0]?.url).toMatch(/^https:/);
    expect(sent()).toMatchObject({ url: `/openai/deployments/dalle3/images/generations?api-version=${VERSION}`, key: AZURE_KEY });
  });

  it('model list: asked of the v1 upstream only, at /openai/v1/models', async () => {
    const ids = (await openai.models.list()).data.map((m) => m.id);
    expect(ids).toContain('v1-gpt-4o');
    expect(ids).toContain('azure-dated');
    const asked = mock.requests.map((r) => r.url);
    expect(asked).toContain('/openai/v1/models');
    expect(asked.some((u) => u.includes('/deployments/') || u.startsWith('/openai/models'))).toBe(false);
  });

  it('a content-filter 400 (with innererror) reaches each SDK as its own 400', async () => {
    const err = await openai.chat.completions.create({ model: 'azure-dated', messages: [{ role: 'user', content: 'FILTER me' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/content management policy/);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('content_filter');
    const anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
    const aerr = await anthropic.messages.create({ model: 'azure-v1', max_tokens: 50, messages: [{ role: 'user', content: 'FILTER me' }] }).catch((e: unknown) => e);
    expect(aerr).toBeInstanceOf(Anthropic.BadRequestError);
    expect((aerr as Error).message).toMatch(/content management policy/);
  });

  it('dry-run shows the URL a real call hits, the key masked', async () => {
    const body = { model: 'azure-dated', messages: [{ role: 'user', content: 'Hi' }] };
    const headers = { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' };
    const dry = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { ...headers, 'x-interlingua-dry-run': 'true' }, body: JSON.stringify(body) });
    const shown = (await dry.json()) as any;
    expect(mock.requests).toHaveLength(0);
    expect(shown.request.headers['api-key']).toBe('***');
    expect(JSON.stringify(shown)).not.toContain(AZURE_KEY);
    await openai.chat.completions.create(body as never);
    const u = new URL(shown.request.url);
    expect(u.pathname + u.search).toBe(sent().url);
    for (const l of proxy.logs) expect(l).not.toContain(AZURE_KEY);
  });
});
