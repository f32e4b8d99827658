/**
 * Vertex AI through the official SDKs, on Node and in workerd: `@google/genai` and `openai` callers
 * to Gemini on Vertex, `@anthropic-ai/sdk` and `openai` callers to Claude on Vertex, streaming and
 * token counting included, express mode, dry-run; the Interactions API (`@google/genai` and a translating
 * `openai` caller) on Vertex AI's v1beta1 project path. The mock plays Vertex AI's URLs and the
 * service account's token endpoint, which verifies each JWT assertion (RS256 signature with the
 * public key, claims) before it mints a token; the Vertex URLs accept only a token it minted.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReply, startMockUpstream, type MockReply, type MockUpstream, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, startProxy, type RunningProxy } from '../support/proxy.ts';
import { interactionsReply } from '../support/interactions-upstream.ts';
import { apiErrorOf, genai, rejection } from './helpers-gemini.ts';
import { jwtPart as part, serviceAccount, signedBy, type TestAccount } from '../support/service-account.ts';

const EXPRESS_KEY = 'AIza-vertex-express-SECRET-4444';
const PROJECT = 'my-proj';

/** A Gemini answer, whole or as SSE chunks. */
const geminiAnswer = (text: string) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 } });
const geminiStream = (...texts: string[]): MockReply => ({
  headers: { 'content-type': 'text/event-stream' },
  chunks: texts.map((t, i) => `data: ${JSON.stringify(i < texts.length - 1 ? { candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0 }] } : geminiAnswer(t))}\r\n\r\n`),
});

describe.each(TARGETS)('%s: Vertex AI through the official SDKs', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let sa: TestAccount;
  let refusedSa: TestAccount;
  /** Tokens the token endpoint minted, and the assertions it verified, per path. */
  const minted = new Set<string>();
  const exchanges: Array<{ path: string; claims: any }> = [];
  /** Every body the callers got, scanned for secrets at the end. */
  const seen: string[] = [];
  let vertexReply: (req: ReceivedRequest) => MockReply = () => ({ status: 500, body: '{}' });

  async function tokenEndpoint(req: ReceivedRequest, account: TestAccount): Promise<MockReply> {
    const form = new URLSearchParams(req.body);
    const [h, c] = (form.get('assertion') ?? '').split('.') as [string, string];
    const valid = await signedBy(form.get('assertion') ?? '', account);
    const claims = part(c);
    exchanges.push({ path: req.url, claims });
    const ok =
      valid &&
      form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
      req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
      part(h).alg === 'RS256' &&
      claims.aud === `${mock.url}${req.url}` &&
      claims.scope === 'https://www.googleapis.com/auth/cloud-platform' &&
      claims.exp - claims.iat === 3600 &&
      Math.abs(claims.iat - Date.now() / 1000) < 60;
    if (!ok) return { status: 400, body: JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }) };
    const token = `ya29.minted-${exchanges.length}-${Math.random().toString(36).slice(2)}`;
    minted.add(token);
    return { body: JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }) };
  }

  beforeAll(async () => {
    mock = await startMockUpstream();
    sa = await serviceAccount('interlingua@my-proj.iam.gserviceaccount.com', `${mock.url}/token`);
    // Its key does not match what the endpoint verifies with: the exchange is refused.
    refusedSa = await serviceAccount('other@my-proj.iam.gserviceaccount.com', `${mock.url}/token-refused`);
    const wrongKey = await serviceAccount('x@y', 'https://unused.example');
    mock.reply(async (req) => {
      if (req.url === '/token') return tokenEndpoint(req, sa);
      if (req.url === '/token-refused') return tokenEndpoint(req, wrongKey);
      const auth = req.headers.authorization;
      const express = req.url.startsWith('/v1/publishers/');
      if (express ? req.headers['x-goog-api-key'] !== EXPRESS_KEY : !auth?.startsWith('Bearer ') || !minted.has(auth.slice(7))) {
        return { status: 401, body: JSON.stringify({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }) };
      }
      return vertexReply(req);
    });
    const vertex = { provider: 'vertex', project: PROJECT, baseUrl: mock.url, retry: { attempts: 1 } };
    const config = {
      keys: [INBOUND_KEY],
      upstreams: {
        gemini: { ...vertex, dialect: 'gemini', location: 'us-central1', credentials: 'env:GOOGLE_SERVICE_ACCOUNT_JSON' },
        claude: { ...vertex, dialect: 'anthropic', location: 'us-east5', credentials: 'env:GOOGLE_SERVICE_ACCOUNT_JSON' },
        crowd: { ...vertex, dialect: 'gemini', location: 'global', credentials: 'env:GOOGLE_SERVICE_ACCOUNT_JSON' },
        dry: { ...vertex, dialect: 'anthropic', location: 'global', credentials: 'env:GOOGLE_SERVICE_ACCOUNT_JSON' },
        refused: { ...vertex, dialect: 'gemini', location: 'us-central1', credentials: 'env:REFUSED_SERVICE_ACCOUNT_JSON' },
        express: { provider: 'vertex', dialect: 'gemini', apiKey: 'env:VERTEX_EXPRESS_KEY', baseUrl: mock.url, retry: { attempts: 1 } },
        interactions: { ...vertex, dialect: 'gemini-interactions', location: 'global', credentials: 'env:GOOGLE_SERVICE_ACCOUNT_JSON' },
      },
      models: {
        'gemini-*': { upstream: 'gemini' },
        'claude-*': { upstream: 'claude' },
        'to-vertex-claude': { upstream: 'claude', model: 'claude-sonnet-4-5@20250929' },
        'crowd-*': { upstream: 'crowd', model: 'gemini-2.5-flash' },
        'dry-*': { upstream: 'dry', model: 'claude-haiku-4-5@20251001' },
        'refused-*': { upstream: 'refused', model: 'gemini-2.5-flash' },
        'express-*': { upstream: 'express', model: 'gemini-2.5-flash' },
        'to-vertex-interactions': { upstream: 'interactions', model: 'gemini-3-flash-preview' },
      },
    };
    proxy = await startProxy(config, { GOOGLE_SERVICE_ACCOUNT_JSON: sa.json, REFUSED_SERVICE_ACCOUNT_JSON: refusedSa.json, VERTEX_EXPRESS_KEY: EXPRESS_KEY }, target);
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  const vertexCalls = () => mock.requests.filter((r) => !r.url.startsWith('/token'));
  const tokenCalls = () => mock.requests.filter((r) => r.url.startsWith('/token'));
  const geminiUrl = (location: string, model: string, method: string) => `/v1/projects/${PROJECT}/locations/${location}/publishers/google/models/${model}:${method}`;
  const claudeUrl = (model: string, method: string) => `/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/${model}:${method}`;
  const expectOAuth = (r: ReceivedRequest) => {
    expect(minted.has(r.headers.authorization!.slice(7))).toBe(true);
    expect(r.headers['x-goog-api-key']).toBeUndefined();
    expect(r.headers['x-api-key']).toBeUndefined();
  };

  describe('Interactions on Vertex AI', () => {
    const interactionsUrl = `/v1beta1/projects/${PROJECT}/locations/global/interactions`;

    it('@google/genai interactions.create: the project URL under v1beta1, a minted Bearer token, the model renamed', async () => {
      vertexReply = (req) => interactionsReply({ model: req.json.model, steps: [{ type: 'text', text: 'Hello from Vertex Interactions' }] }, false);
      const ai = genai(proxy.url);
      const res = await ai.interactions.create({ model: 'to-vertex-interactions', input: 'Hi', store: false });
      seen.push(JSON.stringify(res));
      expect(res.steps?.at(-1)).toMatchObject({ type: 'model_output', content: [{ type: 'text', text: 'Hello from Vertex Interactions' }] });
      const [r] = vertexCalls();
      expect(r!.url).toBe(interactionsUrl);
      expectOAuth(r!);
      expect(r!.json).toMatchObject({ model: 'gemini-3-flash-preview', input: 'Hi', store: false });
    });

    it('openai SDK (translated), plain and streamed: an Interaction asked for, the answer in OpenAI\'s shape', async () => {
      vertexReply = (req) => interactionsReply({ model: req.json.model, steps: [{ type: 'text', text: 'Bonjour' }] }, req.json.stream === true);
      const openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      const res = await openai.chat.completions.create({ model: 'to-vertex-interactions', messages: [{ role: 'user', content: 'Say hello in French' }] });
      seen.push(JSON.stringify(res));
      expect(res.choices[0]!.message.content).toBe('Bonjour');
      let streamed = '';
      for await (const c of await openai.chat.completions.create({ model: 'to-vertex-interactions', messages: [{ role: 'user', content: 'Again' }], stream: true })) streamed += c.choices[0]?.delta.content ?? '';
      expect(streamed).toBe('Bonjour');
      const calls = vertexCalls();
      expect(calls.map((r) => r.url)).toEqual([interactionsUrl, interactionsUrl]);
      for (const r of calls) expectOAuth(r);
      expect(calls[0]!.json).toMatchObject({ model: 'gemini-3-flash-preview', store: false });
      expect(calls[1]!.json).toMatchObject({ stream: true });
    });
  });

  describe('Gemini on Vertex AI', () => {
    it('@google/genai generateContent: the project URL, a minted Bearer token, no API key', async () => {
      vertexReply = () => ({ body: JSON.stringify(geminiAnswer('Hello from Vertex')) });
      const res = await genai(proxy.url).models.generateContent({ model: 'gemini-2.5-flash', contents: 'Say hello', config: { systemInstruction: 'Be brief.' } });
      expect(res.text).toBe('Hello from Vertex');
      const [call] = vertexCalls() as [ReceivedRequest];
      expect(call.url).toBe(geminiUrl('us-central1', 'gemini-2.5-flash', 'generateContent'));
      expectOAuth(call);
      expect(call.json.contents[0].parts[0].text).toBe('Say hello');
      expect(call.json.systemInstruction.parts[0].text).toBe('Be brief.');
      expect(call.json.model).toBeUndefined();
    });

    it('@google/genai generateContentStream: streamGenerateContent?alt=sse, chunks passed on', async () => {
      vertexReply = () => geminiStream('One, ', 'two, ', 'three.');
      const chunks: string[] = [];
      for await (const c of await genai(proxy.url).models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Count' })) chunks.push(c.text ?? '');
      expect(chunks.join('')).toBe('One, two, three.');
      expect(vertexCalls()[0]!.url).toBe(geminiUrl('us-central1', 'gemini-2.5-flash', 'streamGenerateContent?alt=sse'));
      expectOAuth(vertexCalls()[0]!);
    });

    it('@google/genai countTokens: contents and systemInstruction directly, no generateContentRequest wrapper', async () => {
      vertexReply = () => ({ body: JSON.stringify({ totalTokens: 42, totalBillableCharacters: 100 }) });
      const res = await genai(proxy.url).models.countTokens({ model: 'gemini-2.5-flash', contents: 'How many tokens?' });
      expect(res.totalTokens).toBe(42);
      const [call] = vertexCalls() as [ReceivedRequest];
      expect(call.url).toBe(geminiUrl('us-central1', 'gemini-2.5-flash', 'countTokens'));
      expect(call.json.generateContentRequest).toBeUndefined();
      expect(call.json.contents[0].parts[0].text).toBe('How many tokens?');
    });

    it('openai SDK, plain and streamed', async () => {
      const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      vertexReply = () => ({ body: JSON.stringify(geminiAnswer('Bonjour')) });
      const res = await client.chat.completions.create({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'Hi' }] });
      expect(res.choices[0]!.message.content).toBe('Bonjour');
      expect(vertexCalls()[0]!.url).toBe(geminiUrl('us-central1', 'gemini-2.5-pro', 'generateContent'));
      vertexReply = () => geminiStream('Bon', 'jour');
      const stream = await client.chat.completions.create({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
      expect(text).toBe('Bonjour');
      expect(vertexCalls()[1]!.url).toBe(geminiUrl('us-central1', 'gemini-2.5-pro', 'streamGenerateContent?alt=sse'));
      expectOAuth(vertexCalls()[1]!);
    });

    it('concurrent first calls share one token exchange', async () => {
      vertexReply = () => ({ body: JSON.stringify(geminiAnswer('ok')) });
      const before = exchanges.length;
      const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      const answers = await Promise.all(Array.from({ length: 8 }, () => client.chat.completions.create({ model: 'crowd-x', messages: [{ role: 'user', content: 'Hi' }] })));
      expect(answers.map((a) => a.choices[0]!.message.content)).toEqual(Array(8).fill('ok'));
      expect(exchanges.length - before).toBe(1);
      expect(new Set(vertexCalls().map((r) => r.headers.authorization)).size).toBe(1);
      expect(vertexCalls()[0]!.url).toBe(geminiUrl('global', 'gemini-2.5-flash', 'generateContent'));
    });

    it('express mode: the API key in x-goog-api-key, not in the URL; no token exchanged', async () => {
      vertexReply = () => ({ body: JSON.stringify(geminiAnswer('Express')) });
      const res = await genai(proxy.url).models.generateContent({ model: 'express-1', contents: 'Hi' });
      expect(res.text).toBe('Express');
      const [call] = mock.requests as [ReceivedRequest];
      expect(call.url).toBe('/v1/publishers/google/models/gemini-2.5-flash:generateContent');
      expect(call.headers['x-goog-api-key']).toBe(EXPRESS_KEY);
      expect(call.headers.authorization).toBeUndefined();
      expect(tokenCalls()).toHaveLength(0);
    });

    it('a refused token exchange: a 502 in the caller\'s dialect naming it, and nothing sent to Vertex', async () => {
      const err = apiErrorOf(await rejection(genai(proxy.url).models.generateContent({ model: 'refused-1', contents: 'Hi' })));
      expect(err.status).toBe(502);
      expect(err.body.error.message).toMatch(/Upstream 'refused': the service-account token exchange was refused: 400 invalid_grant \(Invalid JWT Signature\.\)/);
      expect(vertexCalls()).toHaveLength(0);
      seen.push(JSON.stringify(err.body));
    });
  });

  describe('Claude on Vertex AI', () => {
    const anthropic = () => new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });

    it('@anthropic-ai/sdk messages.create: rawPredict, model only in the URL, anthropic_version in the body', async () => {
      vertexReply = () => fixtureReply('anthropic', 'text-basic.json');
      const msg = await anthropic().messages.create({ model: 'claude-sonnet-4-5@20250929', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
      expect(msg.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Hello!') });
      const [call] = vertexCalls() as [ReceivedRequest];
      expect(call.url).toBe(claudeUrl('claude-sonnet-4-5@20250929', 'rawPredict'));
      expectOAuth(call);
      expect(call.json.model).toBeUndefined();
      expect(call.json.anthropic_version).toBe('vertex-2023-10-16');
      expect(call.headers['anthropic-version']).toBeUndefined();
      expect(call.json.messages).toEqual([{ role: 'user', content: 'Hello' }]);
    });

    it('@anthropic-ai/sdk stream: streamRawPredict, the Anthropic SSE passed on', async () => {
      vertexReply = () => fixtureReply('anthropic', 'stream-text-basic.sse');
      const final = await anthropic().messages.stream({ model: 'claude-sonnet-4-5@20250929', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] }).finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text', text: 'Hello there!' });
      const [call] = vertexCalls() as [ReceivedRequest];
      expect(call.url).toBe(claudeUrl('claude-sonnet-4-5@20250929', 'streamRawPredict'));
      expect(call.json.stream).toBe(true);
      expect(call.json.model).toBeUndefined();
    });

    it('@anthropic-ai/sdk beta namespace: no ?beta=true on Vertex; only the betas Vertex documents, the others dropped and reported', async () => {
      vertexReply = () => fixtureReply('anthropic', 'text-basic.json');
      const { response } = await anthropic()
        .beta.messages.create({ model: 'claude-sonnet-4-5@20250929', max_tokens: 10, betas: ['context-1m-2025-08-07', 'files-api-2025-04-14', 'interleaved-thinking-2025-05-14'], messages: [{ role: 'user', content: 'Hi' }] })
        .withResponse();
      const [call] = vertexCalls() as [ReceivedRequest];
      expect(call.url).toBe(claudeUrl('claude-sonnet-4-5@20250929', 'rawPredict'));
      expect(call.headers['anthropic-beta']).toBe('context-1m-2025-08-07,interleaved-thinking-2025-05-14');
      expect(response.headers.get('x-interlingua-warnings')).toContain('dropped:anthropic-beta=files-api-2025-04-14');
    });

    it('@anthropic-ai/sdk countTokens: count-tokens:rawPredict with the model in the body', async () => {
      vertexReply = () => ({ body: JSON.stringify({ input_tokens: 17 }) });
      const res = await anthropic().messages.countTokens({ model: 'claude-sonnet-4-5@20250929', messages: [{ role: 'user', content: 'Count me' }] });
      expect(res.input_tokens).toBe(17);
      const [call] = vertexCalls() as [ReceivedRequest];
      expect(call.url).toBe(claudeUrl('count-tokens', 'rawPredict'));
      expect(call.json.model).toBe('claude-sonnet-4-5@20250929');
      expect(call.json.anthropic_version).toBe('vertex-2023-10-16');
      expect(call.json.max_tokens).toBeUndefined();
      expectOAuth(call);
    });

    it('openai SDK, plain and streamed (translated), routed to a dated Claude model', async () => {
      const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      vertexReply = () => fixtureReply('anthropic', 'text-basic.json');
      const res = await client.chat.completions.create({ model: 'to-vertex-claude', messages: [{ role: 'system', content: 'Be kind.' }, { role: 'user', content: 'Hello' }] });
      expect(res.choices[0]!.message.content).toMatch(/^Hello!/);
      const first = vertexCalls()[0]!;
      expect(first.url).toBe(claudeUrl('claude-sonnet-4-5@20250929', 'rawPredict'));
      expect(first.json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', system: 'Be kind.' });
      expect(first.json.model).toBeUndefined();
      vertexReply = () => fixtureReply('anthropic', 'stream-text-basic.sse');
      const stream = await client.chat.completions.create({ model: 'to-vertex-claude', messages: [{ role: 'user', content: 'Hello' }], stream: true });
      let text = '';
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
      expect(text).toBe('Hello there!');
      expect(vertexCalls()[1]!.url).toBe(claudeUrl('claude-sonnet-4-5@20250929', 'streamRawPredict'));
      expectOAuth(vertexCalls()[1]!);
    });

    it('openai responses.create (Responses API caller), plain and streamed: rawPredict and streamRawPredict', async () => {
      const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      vertexReply = () => fixtureReply('anthropic', 'text-basic.json');
      const res = await client.responses.create({ model: 'to-vertex-claude', instructions: 'Be kind.', input: 'Hello', max_output_tokens: 100 });
      expect(res.status).toBe('completed');
      expect(res.output_text).toMatch(/^Hello!/);
      const first = vertexCalls()[0]!;
      expect(first.url).toBe(claudeUrl('claude-sonnet-4-5@20250929', 'rawPredict'));
      expectOAuth(first);
      expect(first.json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', system: 'Be kind.', max_tokens: 100 });
      expect(first.json.model).toBeUndefined();

      vertexReply = () => fixtureReply('anthropic', 'stream-text-basic.sse');
      const stream = await client.responses.create({ model: 'to-vertex-claude', input: 'Hello', stream: true });
      let text = '';
      let status: string | undefined;
      for await (const e of stream) {
        if (e.type === 'response.output_text.delta') text += e.delta;
        if (e.type === 'response.completed') status = e.response.status;
      }
      expect(text).toBe('Hello there!');
      expect(status).toBe('completed');
      const second = vertexCalls()[1]!;
      expect(second.url).toBe(claudeUrl('claude-sonnet-4-5@20250929', 'streamRawPredict'));
      expect(second.json.stream).toBe(true);
      expectOAuth(second);
    });

    it('a Vertex error (Google-shaped) reaches the Anthropic caller in its own shape and status', async () => {
      vertexReply = () => ({ status: 429, body: JSON.stringify({ error: { code: 429, message: 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model.', status: 'RESOURCE_EXHAUSTED' } }) });
      const err = await rejection(anthropic().messages.create({ model: 'claude-sonnet-4-5@20250929', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(err).toBeInstanceOf(Anthropic.RateLimitError);
      expect((err as InstanceType<typeof Anthropic.RateLimitError>).message).toMatch(/Quota exceeded/);
    });

    it('dry-run: the real Vertex URL, the Authorization masked, and no token fetched', async () => {
      const before = exchanges.length;
      const res = await fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'x-interlingua-dry-run': 'true' },
        body: JSON.stringify({ model: 'dry-run-model', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      seen.push(text);
      const shown = JSON.parse(text);
      expect(shown.request.url).toBe(`${mock.url}/v1/projects/${PROJECT}/locations/global/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict`);
      expect(shown.request.headers.authorization).toBe('***');
      expect(shown.request.headers['x-api-key']).toBeUndefined();
      expect(shown.request.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
      expect(shown.request.body.model).toBeUndefined();
      expect(mock.requests).toHaveLength(0);
      expect(exchanges.length).toBe(before);
    });
  });

  it('every assertion was signed by the configured account; no token, key or assertion in responses or logs', () => {
    expect(exchanges.filter((e) => e.path === '/token').every((e) => e.claims.iss === 'interlingua@my-proj.iam.gserviceaccount.com')).toBe(true);
    // One exchange per upstream that called with the shared key (interactions, gemini, claude, crowd): the cache held.
    expect(exchanges.filter((e) => e.path === '/token')).toHaveLength(4);
    const text = [...seen, ...proxy.logs].join('\n');
    for (const secret of [EXPRESS_KEY, sa.keyFragment, refusedSa.keyFragment, ...minted]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/eyJhbGciOiJSUzI1NiI/); // a JWT header
  });
});
