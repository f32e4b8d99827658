/**
 * Embeddings end to end: the openai SDK's `embeddings.create` (its default base64 and `float`)
 * and @google/genai's `models.embedContent` (several contents) through Interlingua (Node and
 * workerd) to OpenAI, Azure OpenAI (both URL styles) and Gemini mocks; vectors in input order,
 * usage reported or estimated, losses reported, bad input refused before any upstream call, a
 * failing piece failing the request, fallbacks and key pools.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, e2eConfig, useHarness } from '../support/proxy.ts';
import { apiErrorOf, genai, rejection } from './helpers-gemini.ts';
import { float32Base64, geminiEmbeddingsReply, openaiEmbeddingsReply, vecOf } from './embeddings-helpers.ts';

function config(mockUrl: string) {
  const base = e2eConfig(mockUrl);
  return {
    ...base,
    upstreams: {
      ...base.upstreams,
      'azure-v1': { dialect: 'openai', provider: 'azure', baseUrl: `${mockUrl}/azure1`, apiKey: 'azure-key-SECRET-5555', retry: { attempts: 1 } },
      'azure-dated': { dialect: 'openai', provider: 'azure', apiVersion: '2024-10-21', baseUrl: `${mockUrl}/azure2`, apiKey: 'azure-key-SECRET-6666', retry: { attempts: 1 } },
      pool: { dialect: 'openai', baseUrl: `${mockUrl}/pool`, apiKey: ['sk-pool-SECRET-a', 'sk-pool-SECRET-b'], retry: { attempts: 1 } },
      broken: { dialect: 'openai', baseUrl: `${mockUrl}/broken`, apiKey: 'sk-broken-SECRET-7', retry: { attempts: 1 } },
      mistral: { dialect: 'openai', provider: 'mistral', baseUrl: `${mockUrl}/mistral/v1`, apiKey: 'mistral-key-SECRET-8', retry: { attempts: 1 } },
      ollama: { dialect: 'openai', provider: 'ollama', baseUrl: `${mockUrl}/ollama/v1`, retry: { attempts: 1 } },
    },
    models: {
      ...base.models,
      'text-embedding-3-small': { upstream: 'openai' },
      'text-embedding-ada-002': { upstream: 'openai' },
      'gemini-embedding-001': { upstream: 'gemini' },
      'embed-on-gemini': { upstream: 'gemini', model: 'gemini-embedding-001' },
      'embed-on-openai': { upstream: 'openai', model: 'text-embedding-3-large' },
      'embed-azure-v1': { upstream: 'azure-v1', model: 'text-embedding-3-small' },
      'embed-azure-dated': { upstream: 'azure-dated', model: 'my-embedding-deployment' },
      'embed-pool': { upstream: 'pool', model: 'text-embedding-3-small' },
      'embed-fallback': { upstream: [{ upstream: 'broken', model: 'text-embedding-3-small' }, { upstream: 'gemini', model: 'gemini-embedding-001' }] },
      'embed-claude': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      'mistral-embed': { upstream: 'mistral' },
      'nomic-embed-text': { upstream: 'ollama' },
      'embed-strict': { upstream: 'openai', model: 'text-embedding-3-small', strict: true },
    },
  };
}

describe.each(TARGETS)('%s: embeddings through the official SDKs', (target) => {
  const h = useHarness(target, config);
  let openai: OpenAI;
  beforeAll(() => {
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });
  const routeMock = () =>
    h.mock.reply((req) => {
      // Model lists (GET /v1/models asks each upstream): none of their own.
      if (req.method === 'GET') return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: [], models: [] }) };
      if (req.url.includes('batchEmbedContents')) return geminiEmbeddingsReply(req);
      if (req.url.startsWith('/broken')) return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'boom', type: 'server_error', code: null } }) };
      if (req.url.startsWith('/pool') && req.headers.authorization === 'Bearer sk-pool-SECRET-a') return { status: 429, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } }) };
      return openaiEmbeddingsReply(req);
    });

  it('openai SDK, default (base64 on the wire): OpenAI upstream asked for floats, vectors decoded in input order', async () => {
    routeMock();
    const { data: res, response } = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta', 'gamma'] }).withResponse();
    expect(res.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(res.data.map((d) => d.embedding)).toEqual(['alpha', 'beta', 'gamma'].map((t) => vecOf(t)));
    expect(res.usage).toEqual({ prompt_tokens: 9, total_tokens: 9 });
    expect(res.model).toBe('text-embedding-3-small-served');
    expect(response.headers.get('x-interlingua-token-count')).toBeNull();
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1/embeddings');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
    expect(sent.json).toEqual({ model: 'text-embedding-3-small', input: ['alpha', 'beta', 'gamma'] });
  });

  it('openai SDK, base64 asked explicitly: little-endian float32 made by the proxy', async () => {
    routeMock();
    const res = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'hello', encoding_format: 'base64' });
    expect(res.data[0]!.embedding as unknown as string).toBe(float32Base64(vecOf('hello')));
  });

  it("openai SDK, encoding_format 'float', dimensions and user; token arrays to OpenAI", async () => {
    routeMock();
    const res = await openai.embeddings.create({ model: 'embed-on-openai', input: 'hi', encoding_format: 'float', dimensions: 6, user: 'u-1' });
    expect(res.data[0]!.embedding).toEqual(vecOf('hi', 6));
    expect(h.mock.requests[0]!.json).toEqual({ model: 'text-embedding-3-large', input: ['hi'], dimensions: 6, user: 'u-1' });
    const tok = await openai.embeddings.create({ model: 'text-embedding-3-small', input: [[1, 2, 3], [4]], encoding_format: 'float' });
    expect(tok.data.map((d) => d.embedding)).toEqual([vecOf('tokens:1,2,3'), vecOf('tokens:4')]);
    expect(h.mock.requests[1]!.json.input).toEqual([[1, 2, 3], [4]]);
  });

  it('openai SDK → Gemini: batchEmbedContents with the model in every request, dimensions as outputDimensionality, usage estimated and flagged', async () => {
    routeMock();
    const { data: res, response } = await openai.embeddings.create({ model: 'embed-on-gemini', input: ['one', 'two'], dimensions: 5, user: 'u-2' }).withResponse();
    expect(res.data.map((d) => d.embedding)).toEqual([vecOf('one', 5), vecOf('two', 5)]);
    expect(res.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    expect(response.headers.get('x-interlingua-token-count')).toBe('estimated');
    expect(response.headers.get('x-interlingua-warnings')).toContain('dropped:user');
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(sent.headers['x-goog-api-key']).toBe(UPSTREAM_KEYS.gemini);
    expect(sent.json).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'one' }] }, outputDimensionality: 5 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'two' }] }, outputDimensionality: 5 },
      ],
    });
  });

  it('openai SDK → Gemini with 250 inputs: three batches of at most 100, vectors in input order', async () => {
    routeMock();
    const input = Array.from({ length: 250 }, (_, i) => `text number ${i}`);
    const res = await openai.embeddings.create({ model: 'embed-on-gemini', input, encoding_format: 'float' });
    expect(res.data.map((d) => d.embedding)).toEqual(input.map((t) => vecOf(t)));
    expect(h.mock.requests.map((r) => r.json.requests.length).sort((a, b) => b - a)).toEqual([100, 100, 50]);
  });

  it('@google/genai models.embedContent with several contents → Gemini: task type, title and size kept', async () => {
    routeMock();
    const ai = genai(h.proxy.url);
    const res = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['first', 'second'], config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc', outputDimensionality: 3 } });
    expect(res.embeddings!.map((e) => e.values)).toEqual([vecOf('first', 3), vecOf('second', 3)]);
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(sent.json.requests[0]).toEqual({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'first' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc', outputDimensionality: 3 });
  });

  it('@google/genai → OpenAI: vectors back as values, the task type reported as lost', async () => {
    routeMock();
    const ai = genai(h.proxy.url);
    const res = await ai.models.embedContent({ model: 'embed-on-openai', contents: ['a', 'b', 'c'], config: { taskType: 'RETRIEVAL_QUERY' } });
    expect(res.embeddings!.map((e) => e.values)).toEqual(['a', 'b', 'c'].map((t) => vecOf(t)));
    expect(res.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toContain('dropped:taskType');
    expect(h.mock.requests[0]!.json).toEqual({ model: 'text-embedding-3-large', input: ['a', 'b', 'c'] });
  });

  it('raw embedContent (v1beta and v1 paths) answers {embedding}', async () => {
    routeMock();
    for (const v of ['v1beta', 'v1']) {
      const res = await fetch(`${h.proxy.url}/${v}/models/gemini-embedding-001:embedContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': INBOUND_KEY },
        body: JSON.stringify({ content: { parts: [{ text: 'solo' }] } }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ embedding: { values: vecOf('solo') } });
    }
  });

  it('Azure OpenAI, v1 and dated URL styles, the key in api-key', async () => {
    routeMock();
    await openai.embeddings.create({ model: 'embed-azure-v1', input: 'x' });
    await openai.embeddings.create({ model: 'embed-azure-dated', input: 'y' });
    const [v1, dated] = h.mock.requests;
    expect(v1!.url).toBe('/azure1/openai/v1/embeddings');
    expect(v1!.headers['api-key']).toBe('azure-key-SECRET-5555');
    expect(dated!.url).toBe('/azure2/openai/deployments/my-embedding-deployment/embeddings?api-version=2024-10-21');
    expect(dated!.headers['api-key']).toBe('azure-key-SECRET-6666');
    expect(dated!.headers.authorization).toBeUndefined();
  });

  it('OpenAI-compatible hosts (Mistral, Ollama): their own /embeddings, base64 made by the proxy', async () => {
    routeMock();
    const m = await openai.embeddings.create({ model: 'mistral-embed', input: ['m1', 'm2'] });
    expect(m.data.map((d) => d.embedding)).toEqual([vecOf('m1'), vecOf('m2')]);
    const o = await openai.embeddings.create({ model: 'nomic-embed-text', input: 'o1' });
    expect(o.data[0]!.embedding).toEqual(vecOf('o1'));
    const [mistral, ollama] = h.mock.requests;
    expect(mistral!.url).toBe('/mistral/v1/embeddings');
    expect(mistral!.headers.authorization).toBe('Bearer mistral-key-SECRET-8');
    expect(mistral!.json).toEqual({ model: 'mistral-embed', input: ['m1', 'm2'] });
    expect(ollama!.url).toBe('/ollama/v1/embeddings');
    expect(ollama!.headers.authorization).toBeUndefined();
  });

  it('a key pool moves to its next key after a 429; a failing upstream falls back to the next target', async () => {
    routeMock();
    const pooled = await openai.embeddings.create({ model: 'embed-pool', input: 'p', encoding_format: 'float' });
    expect(pooled.data[0]!.embedding).toEqual(vecOf('p'));
    expect(h.mock.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-pool-SECRET-a', 'Bearer sk-pool-SECRET-b']);
    h.mock.requests.length = 0;
    const fell = await openai.embeddings.create({ model: 'embed-fallback', input: ['f1', 'f2'], encoding_format: 'float' });
    expect(fell.data.map((d) => d.embedding)).toEqual([vecOf('f1'), vecOf('f2')]);
    expect(h.mock.requests.map((r) => r.url)).toEqual(['/broken/embeddings', '/v1beta/models/gemini-embedding-001:batchEmbedContents']);
  });

  it('upstream errors come back in the caller shape; one failing batch fails the whole request', async () => {
    h.mock.reply((req) => (req.json.requests?.[0]?.content.parts[0].text === 'text number 100' ? { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 400, message: 'bad piece', status: 'INVALID_ARGUMENT' } }) } : geminiEmbeddingsReply(req)));
    const input = Array.from({ length: 150 }, (_, i) => `text number ${i}`);
    const err = await openai.embeddings.create({ model: 'embed-on-gemini', input }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('bad piece');
  });

  it('bad input is a 400 in the caller shape and never reaches an upstream', async () => {
    routeMock();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ model: 'text-embedding-3-small', input: '' }, 'input'],
      [{ model: 'text-embedding-3-small', input: [] }, 'input'],
      [{ model: 'text-embedding-3-small', input: ['ok', 5] }, 'input[1]'],
      [{ model: 'text-embedding-3-small', input: Array.from({ length: 2049 }, () => 'x') }, 'input'],
      [{ model: 'text-embedding-3-small', input: 'x', encoding_format: 'int8' }, 'encoding_format'],
      [{ model: 'text-embedding-ada-002', input: 'x', dimensions: 256 }, 'dimensions'],
      [{ model: 'embed-on-gemini', input: [[1, 2]] }, 'input'],
      [{ model: 'embed-claude', input: 'x' }, 'model'],
    ];
    for (const [body, param] of bad) {
      const err = await openai.embeddings.create(body as never).catch((e: unknown) => e);
      expect(err, JSON.stringify(body).slice(0, 80)).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(param);
    }
    const ai = genai(h.proxy.url);
    const tooMany = await rejection(ai.models.embedContent({ model: 'gemini-embedding-001', contents: Array.from({ length: 101 }, (_, i) => `c${i}`) }));
    expect(apiErrorOf(tooMany).status).toBe(400);
    const empty = await rejection(ai.models.embedContent({ model: 'gemini-embedding-001', contents: [''] }));
    expect(apiErrorOf(empty).body.error.status).toBe('INVALID_ARGUMENT');
    expect(h.mock.requests).toEqual([]);
  });

  it('strict mode: a task type OpenAI cannot carry is a 400 naming it, nothing sent; without a task the call goes', async () => {
    routeMock();
    const ai = genai(h.proxy.url);
    const err = await rejection(ai.models.embedContent({ model: 'embed-strict', contents: ['s'], config: { taskType: 'CLUSTERING' } }));
    const { status, body } = apiErrorOf(err);
    expect(status).toBe(400);
    expect(body.error.message).toContain('dropped:taskType');
    expect(h.mock.requests).toEqual([]);
    const ok = await ai.models.embedContent({ model: 'embed-strict', contents: ['s'] });
    expect(ok.embeddings![0]!.values).toEqual(vecOf('s'));
  });

  it('dry-run shows the first call, nothing sent; GET /v1/models lists embedding routes', async () => {
    routeMock();
    const res = await fetch(`${h.proxy.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${INBOUND_KEY}`, 'x-interlingua-dry-run': 'true' },
      body: JSON.stringify({ model: 'embed-on-gemini', input: ['d'] }),
    });
    expect(res.status).toBe(200);
    const plan = await res.json();
    expect(plan.request.url).toBe(`${h.mock.url}/v1beta/models/gemini-embedding-001:batchEmbedContents`);
    expect(plan.request.headers['x-goog-api-key']).not.toBe(UPSTREAM_KEYS.gemini);
    expect(h.mock.requests).toEqual([]);
    const list = await openai.models.list();
    expect(list.data.map((m) => m.id)).toEqual(expect.arrayContaining(['text-embedding-3-small', 'embed-on-gemini']));
  });

  it('no upstream key reaches a response or a log line', async () => {
    const secrets = [...Object.values(UPSTREAM_KEYS), 'azure-key-SECRET-5555', 'sk-pool-SECRET-a'];
    for (const line of h.proxy.logs) for (const s of secrets) expect(line).not.toContain(s);
  });
});
