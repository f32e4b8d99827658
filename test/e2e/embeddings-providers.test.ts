/**
 * Embeddings through the cloud providers, end to end on Node and workerd: the openai SDK and
 * @google/genai to Vertex AI `predict` (the service account's token exchanged at a mock token
 * endpoint that verifies the JWT; the predict URL takes only a token it minted) and to Amazon
 * Bedrock Titan v2 (one text a call, fanned out) and Cohere (texts, input_type from the task type),
 * each call's SigV4 signature recomputed by the mock, or the Bedrock API key checked.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySigV4 } from '../support/aws.ts';
import { startMockUpstream, type MockReply, type MockUpstream, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, startProxy, type RunningProxy } from '../support/proxy.ts';
import { jwtPart, serviceAccount, signedBy, type TestAccount } from '../support/service-account.ts';
import { API_KEY, CREDS, ENV, SECRETS, awsError } from './helpers-bedrock.ts';
import { genai } from './helpers-gemini.ts';
import { cohereReply, titanReply, vecOf, vertexPredictReply } from './embeddings-helpers.ts';

const PROJECT = 'my-proj';
const TITAN = 'amazon.titan-embed-text-v2:0';
const COHERE = 'cohere.embed-english-v3';

describe.each(TARGETS)('%s: embeddings through Vertex AI and Amazon Bedrock', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let sa: TestAccount;
  const minted = new Set<string>();
  const seen: string[] = [];

  async function tokenEndpoint(req: ReceivedRequest): Promise<MockReply> {
    const assertion = new URLSearchParams(req.body).get('assertion') ?? '';
    const claims = jwtPart(assertion.split('.')[1] ?? '');
    if (!(await signedBy(assertion, sa)) || claims.scope !== 'https://www.googleapis.com/auth/cloud-platform') return { status: 400, body: JSON.stringify({ error: 'invalid_grant' }) };
    const token = `ya29.minted-${minted.size}-${Math.random().toString(36).slice(2)}`;
    minted.add(token);
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }) };
  }

  function bedrockCheck(req: ReceivedRequest): MockReply | undefined {
    const auth = String(req.headers.authorization ?? '');
    if (auth.startsWith('Bearer ')) return auth === `Bearer ${API_KEY}` ? undefined : awsError(403, 'UnrecognizedClientException', 'Invalid API key.');
    const v = verifySigV4({ method: req.method, target: req.url, headers: req.headers, body: req.body }, { ...CREDS, region: 'us-east-1', service: 'bedrock' });
    if (!v.ok) return awsError(403, 'InvalidSignatureException', `signature mismatch (${v.reason})`);
    return req.headers['x-amz-security-token'] === CREDS.sessionToken ? undefined : awsError(403, 'UnrecognizedClientException', 'bad token');
  }

  beforeAll(async () => {
    mock = await startMockUpstream();
    sa = await serviceAccount('interlingua@my-proj.iam.gserviceaccount.com', `${mock.url}/token`);
    mock.reply(async (req) => {
      if (req.url === '/token') return tokenEndpoint(req);
      if (req.url.startsWith('/v1/projects/')) {
        const auth = req.headers.authorization;
        if (!auth?.startsWith('Bearer ') || !minted.has(auth.slice(7))) return { status: 401, body: JSON.stringify({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }) };
        return vertexPredictReply(req);
      }
      const m = /^\/model\/([^/]+)\/invoke$/.exec(req.url);
      if (!m) return awsError(404, 'UnknownOperationException', `Unknown operation ${req.url}`);
      const refused = bedrockCheck(req);
      if (refused) return refused;
      const model = decodeURIComponent(m[1]!);
      if (model === TITAN) return req.json.inputText === 'refuse me' ? awsError(400, 'ValidationException', 'Malformed input request') : titanReply(req);
      if (model === COHERE) return cohereReply(req);
      return awsError(400, 'ValidationException', 'The provided model identifier is invalid.');
    });
    const common = { dialect: 'anthropic', provider: 'bedrock', region: 'us-east-1', baseUrl: mock.url, retry: { attempts: 1 } };
    const config = {
      keys: [INBOUND_KEY],
      upstreams: {
        vertex: { provider: 'vertex', dialect: 'gemini', project: PROJECT, location: 'us-central1', baseUrl: mock.url, credentials: 'env:GOOGLE_SERVICE_ACCOUNT_JSON', retry: { attempts: 1 } },
        bedrock: { ...common, accessKeyId: 'env:AWS_ACCESS_KEY_ID', secretAccessKey: 'env:AWS_SECRET_ACCESS_KEY', sessionToken: 'env:AWS_SESSION_TOKEN' },
        'bedrock-key': { ...common, apiKey: 'env:AWS_BEARER_TOKEN_BEDROCK' },
      },
      models: {
        'text-embedding-005': { upstream: 'vertex' },
        'gemini-embedding-001': { upstream: 'vertex' },
        'text-embedding-3-small': { upstream: 'bedrock', model: TITAN },
        titan: { upstream: 'bedrock-key', model: TITAN },
        cohere: { upstream: 'bedrock', model: COHERE },
        'claude-on-bedrock': { upstream: 'bedrock', model: 'anthropic.claude-sonnet-4-5-20250929-v1:0' },
      },
    };
    proxy = await startProxy(config, { ...ENV, GOOGLE_SERVICE_ACCOUNT_JSON: sa.json }, target);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  const openai = () => new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  const calls = () => mock.requests.filter((r) => r.url !== '/token');
  const remember = (x: unknown) => seen.push(JSON.stringify(x));

  it('openai SDK → Vertex AI predict (text-embedding-005): the OAuth token minted for the service account, instances in one call', async () => {
    const res = await openai().embeddings.create({ model: 'text-embedding-005', input: ['v1', 'v2'], dimensions: 3 });
    remember(res);
    expect(res.data.map((d) => d.embedding)).toEqual([vecOf('v1', 3), vecOf('v2', 3)]);
    expect(res.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    const [call] = calls();
    expect(call!.url).toBe(`/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/text-embedding-005:predict`);
    expect(minted.has(call!.headers.authorization!.slice(7))).toBe(true);
    expect(call!.json).toEqual({ instances: [{ content: 'v1' }, { content: 'v2' }], parameters: { outputDimensionality: 3 } });
  });

  it('@google/genai → Vertex AI gemini-embedding-001: one instance a call, task_type and title carried, order kept', async () => {
    const res = await genai(proxy.url).models.embedContent({ model: 'gemini-embedding-001', contents: ['g1', 'g2', 'g3'], config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'T' } });
    remember(res.embeddings);
    expect(res.embeddings!.map((e) => e.values)).toEqual(['g1', 'g2', 'g3'].map((t) => vecOf(t)));
    const sent = calls();
    expect(sent).toHaveLength(3);
    expect(sent.map((r) => r.json.instances).sort((a, b) => a[0].content.localeCompare(b[0].content))).toEqual(['g1', 'g2', 'g3'].map((content) => [{ content, task_type: 'RETRIEVAL_DOCUMENT', title: 'T' }]));
  });

  it('openai SDK → Bedrock Titan v2 (SigV4): one signed /invoke per text, dimensions and normalize, usage from inputTextTokenCount', async () => {
    const { data: res, response } = await openai().embeddings.create({ model: 'text-embedding-3-small', input: ['t1', 't2', 't3'], dimensions: 256 }).withResponse();
    remember(res);
    expect(res.data.map((d) => d.embedding)).toEqual(['t1', 't2', 't3'].map((t) => vecOf(t, 256)));
    expect(res.usage).toEqual({ prompt_tokens: 15, total_tokens: 15 });
    expect(response.headers.get('x-interlingua-token-count')).toBeNull();
    const sent = calls();
    expect(sent.map((r) => r.url)).toEqual(Array(3).fill('/model/amazon.titan-embed-text-v2%3A0/invoke'));
    expect(sent.map((r) => r.json.inputText).sort()).toEqual(['t1', 't2', 't3']);
    expect(sent[0]!.json).toEqual({ inputText: sent[0]!.json.inputText, dimensions: 256, normalize: true });
    for (const r of sent) expect(r.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAE2EBEDROCKKEYID0\//);
  });

  it('Bedrock Titan with the API key; a size Titan cannot give and token arrays are 400s with no call', async () => {
    const res = await openai().embeddings.create({ model: 'titan', input: 'k', encoding_format: 'float' });
    expect(res.data[0]!.embedding).toEqual(vecOf('k'));
    expect(calls()[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    mock.requests.length = 0;
    for (const body of [{ model: 'titan', input: 'k', dimensions: 768 }, { model: 'titan', input: [[1, 2]] }, { model: 'cohere', input: 'k', dimensions: 512 }, { model: 'claude-on-bedrock', input: 'k' }]) {
      const err = await openai().embeddings.create(body).catch((e: unknown) => e);
      expect(err, JSON.stringify(body)).toBeInstanceOf(OpenAI.BadRequestError);
    }
    expect(calls()).toEqual([]);
  });

  it('a Bedrock error on one of the fanned-out texts fails the request in the caller shape', async () => {
    const err = await openai().embeddings.create({ model: 'titan', input: ['fine', 'refuse me', 'fine too'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain('Malformed input request');
  });

  it('@google/genai → Bedrock Cohere: texts in one call, RETRIEVAL_QUERY as search_query; openai SDK: usage from the token-count header', async () => {
    const res = await genai(proxy.url).models.embedContent({ model: 'cohere', contents: ['c1', 'c2'], config: { taskType: 'RETRIEVAL_QUERY' } });
    remember(res.embeddings);
    expect(res.embeddings!.map((e) => e.values)).toEqual([vecOf('c1'), vecOf('c2')]);
    expect(res.sdkHttpResponse?.headers?.['x-interlingua-token-count']).toBeUndefined();
    const viaOpenai = await openai().embeddings.create({ model: 'cohere', input: ['c3', 'c4', 'c5'] });
    expect(viaOpenai.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
    const [call] = calls();
    expect(call!.url).toBe('/model/cohere.embed-english-v3/invoke');
    expect(call!.json).toEqual({ texts: ['c1', 'c2'], input_type: 'search_query', embedding_types: ['float'] });
    expect(call!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
  });

  it('no credential reaches a response or a log line', () => {
    for (const s of [...SECRETS, sa.keyFragment, ...minted]) {
      for (const body of seen) expect(body).not.toContain(s);
      for (const line of proxy.logs) expect(line).not.toContain(s);
    }
  });
});
