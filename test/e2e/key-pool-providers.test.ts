/**
 * Key pools with each provider's own authentication, on Node and in workerd: Azure keys (in
 * `api-key`), Vertex AI service accounts as a list (each one's own assertion, token and token
 * cache; a refused exchange or a refused token moves to the next), Vertex AI express keys, Bedrock
 * key pairs (each request signed, and verified, with its own pair and session token) and Bedrock
 * API keys. The mock plays each host and checks each credential as the host would.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySigV4 } from '../support/aws.ts';
import { fixtureReply, startMockUpstream, type MockReply, type MockUpstream, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, startProxy, type RunningProxy } from '../support/proxy.ts';
import { serviceAccount, signedBy, type TestAccount } from '../support/service-account.ts';
import { workerBundle } from '../support/worker.ts';
import { awsError, json as bedrockJson, MODEL } from './helpers-bedrock.ts';
import { genai } from './helpers-gemini.ts';

const AZURE = ['azure-pool-key-0-SECRET', 'azure-pool-key-1-SECRET'];
const EXPRESS = ['AIza-express-pool-0-SECRET', 'AIza-express-pool-1-SECRET'];
const BEDROCK_KEYS = ['ABSK-bedrock-pool-0-SECRET', 'ABSK-bedrock-pool-1-SECRET'];
const PAIRS = [
  { accessKeyId: 'AKIAPOOLPAIRZERO0000', secretAccessKey: 'pool/pair+ZERO/secret0000000000000000' },
  { accessKeyId: 'AKIAPOOLPAIRONE11111', secretAccessKey: 'pool/pair+ONE/secret11111111111111111', sessionToken: 'pool-pair-ONE-session//token+=' },
];
const geminiAnswer = (text: string): MockReply => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 } }),
});
const googleError = (code: number, status: string, message: string): MockReply => ({ status: code, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code, message, status } }) });

describe.each(TARGETS)('%s: key pools with every provider’s authentication', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  let mock: MockUpstream;
  let proxy: RunningProxy;
  const accounts: TestAccount[] = [];
  /** Token → the account (by index) whose exchange minted it. */
  const minted = new Map<string, number>();
  const exchanges: number[] = [];
  /** Accounts whose tokens Vertex refuses, keys the hosts refuse, pairs AWS refuses. */
  const refused = new Set<string>();
  const seen: string[] = [];

  async function tokenEndpoint(req: ReceivedRequest, i: number): Promise<MockReply> {
    const assertion = new URLSearchParams(req.body).get('assertion') ?? '';
    exchanges.push(i);
    if (!(await signedBy(assertion, accounts[i]!))) return { status: 400, body: JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }) };
    const token = `ya29.account-${i}-${exchanges.length}`;
    minted.set(token, i);
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }) };
  }

  /** The pair a SigV4 request verifies with (its index), if any. */
  const pairOf = (req: ReceivedRequest) =>
    PAIRS.findIndex((p) => verifySigV4({ method: req.method, target: req.url, headers: req.headers, body: req.body }, { ...p, region: 'us-east-1', service: 'bedrock' }).ok);

  async function host(req: ReceivedRequest): Promise<MockReply> {
    const token = /^\/token-(\d)$/.exec(req.url);
    if (token) return tokenEndpoint(req, Number(token[1]));
    if (req.url.startsWith('/openai/v1/')) {
      const key = String(req.headers['api-key']);
      if (!AZURE.includes(key) || req.headers.authorization !== undefined) return { status: 401, body: '{"error":{"code":"401","message":"Access denied due to invalid subscription key."}}' };
      if (refused.has(key)) return { status: 429, headers: { 'retry-after': '9', 'content-type': 'application/json' }, body: '{"error":{"code":"429","message":"Requests to the ChatCompletions_Create Operation have exceeded call rate limit."}}' };
      return fixtureReply('openai-chat', 'text-basic.json');
    }
    if (req.url.startsWith('/v1/publishers/')) {
      const key = String(req.headers['x-goog-api-key']);
      if (!EXPRESS.includes(key) || refused.has(key)) return googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.');
      return geminiAnswer('express');
    }
    if (req.url.startsWith('/v1/projects/')) {
      const auth = String(req.headers.authorization ?? '');
      const who = minted.get(auth.slice(7));
      if (who === undefined || refused.has(`account-${who}`)) return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
      return geminiAnswer(`account ${who}`);
    }
    if (req.url.startsWith('/model/')) {
      const auth = String(req.headers.authorization ?? '');
      if (auth.startsWith('Bearer ')) {
        const key = auth.slice(7);
        if (!BEDROCK_KEYS.includes(key) || refused.has(key)) return awsError(403, 'UnrecognizedClientException', 'Invalid API key.');
        return bedrockJson('text-basic.json');
      }
      const i = pairOf(req);
      if (i < 0) return awsError(403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.');
      if (req.headers['x-amz-security-token'] !== PAIRS[i]!.sessionToken) return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
      if (refused.has(PAIRS[i]!.accessKeyId)) return awsError(403, 'AccessDeniedException', 'User is not authorized to perform: bedrock:InvokeModel.');
      return bedrockJson('text-basic.json');
    }
    return { status: 404, body: '{}' };
  }

  beforeAll(async () => {
    mock = await startMockUpstream();
    for (let i = 0; i < 3; i++) accounts.push(await serviceAccount(`pool-${i}@my-proj.iam.gserviceaccount.com`, `${mock.url}/token-${i}`));
    // Account 2's file names account 0's endpoint, which verifies with account 0's key: refused.
    const mismatched = JSON.parse(accounts[2]!.json);
    mismatched.token_uri = `${mock.url}/token-0`;
    mock.reply(host);
    const fillFirst = { apiKeyStrategy: 'fill-first', retry: { attempts: 1 } };
    const vertex = { dialect: 'gemini', provider: 'vertex', project: 'my-proj', location: 'us-central1', baseUrl: mock.url };
    const bedrock = { dialect: 'anthropic', provider: 'bedrock', region: 'us-east-1', baseUrl: mock.url };
    const config = {
      keys: [INBOUND_KEY],
      upstreams: {
        azure: { dialect: 'openai', provider: 'azure', baseUrl: mock.url, apiKey: ['env:AZURE_KEY_0', 'env:AZURE_KEY_1'], ...fillFirst },
        accounts: { ...vertex, credentials: ['env:SA_0', 'env:SA_1'], retry: { attempts: 1 } },
        'accounts-refused': { ...vertex, credentials: ['env:SA_2', 'env:SA_1'], ...fillFirst },
        'accounts-401': { ...vertex, credentials: ['env:SA_0', 'env:SA_1'], ...fillFirst },
        express: { dialect: 'gemini', provider: 'vertex', baseUrl: mock.url, apiKey: EXPRESS, ...fillFirst },
        pairs: { ...bedrock, credentials: [{ accessKeyId: PAIRS[0]!.accessKeyId, secretAccessKey: 'env:PAIR_0_SECRET' }, { ...PAIRS[1], secretAccessKey: 'env:PAIR_1_SECRET' }], ...fillFirst },
        'bedrock-keys': { ...bedrock, apiKey: BEDROCK_KEYS, ...fillFirst },
      },
      models: {
        'to-azure': { upstream: 'azure', model: 'gpt-4o-mini' },
        'to-accounts': { upstream: 'accounts', model: 'gemini-2.5-flash' },
        'to-accounts-refused': { upstream: 'accounts-refused', model: 'gemini-2.5-flash' },
        'to-accounts-401': { upstream: 'accounts-401', model: 'gemini-2.5-flash' },
        'to-express': { upstream: 'express', model: 'gemini-2.5-flash' },
        'to-pairs': { upstream: 'pairs', model: MODEL },
        'to-bedrock-keys': { upstream: 'bedrock-keys', model: MODEL },
      },
    };
    const env = {
      AZURE_KEY_0: AZURE[0]!,
      AZURE_KEY_1: AZURE[1]!,
      SA_0: accounts[0]!.json,
      SA_1: accounts[1]!.json,
      SA_2: JSON.stringify(mismatched),
      PAIR_0_SECRET: PAIRS[0]!.secretAccessKey,
      PAIR_1_SECRET: PAIRS[1]!.secretAccessKey,
    };
    proxy = await startProxy(config, env, target);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
    exchanges.length = 0;
    refused.clear();
  });

  const openai = () => new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  const anthropic = () => new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
  const gemini = async (model: string) => {
    const text = (await genai(proxy.url).models.generateContent({ model, contents: 'Hi' })).text ?? '';
    seen.push(text);
    return text;
  };
  const hostRequests = () => mock.requests.filter((r) => !r.url.startsWith('/token-'));

  it('Azure: each key in api-key, never Authorization; a 429 moves to the next; a session’s prompt_cache_key goes along', async () => {
    refused.add(AZURE[0]!);
    const res = await openai().chat.completions.create({ model: 'to-azure', messages: [{ role: 'user', content: 'Hi' }], user: 'azure-user' });
    seen.push(JSON.stringify(res));
    expect(hostRequests().map((r) => r.headers['api-key'])).toEqual(AZURE);
    expect(hostRequests().every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(hostRequests()[1]!.json.prompt_cache_key).toMatch(/^[0-9a-f]{32}$/);
    mock.requests.length = 0;
    await openai().chat.completions.create({ model: 'to-azure', messages: [{ role: 'user', content: 'Hi' }] });
    expect(hostRequests().map((r) => r.headers['api-key'])).toEqual([AZURE[1]]);
  });

  it('Vertex AI service accounts: each its own assertion and token, spread round-robin, each token cached by its own account', async () => {
    expect(await gemini('to-accounts')).toBe('account 0');
    expect(await gemini('to-accounts')).toBe('account 1');
    expect(exchanges).toEqual([0, 1]);
    expect(await gemini('to-accounts')).toBe('account 0');
    expect(await gemini('to-accounts')).toBe('account 1');
    // No new exchange: each account's token was kept by that account's own cache.
    expect(exchanges).toEqual([0, 1]);
    const tokens = hostRequests().map((r) => r.headers.authorization);
    expect(new Set(tokens).size).toBe(2);
  });

  it('Vertex AI: an account whose exchange is refused is cooled, the next one serves', async () => {
    expect(await gemini('to-accounts-refused')).toBe('account 1');
    expect(exchanges).toEqual([0, 1]);
    exchanges.length = 0;
    expect(await gemini('to-accounts-refused')).toBe('account 1');
    expect(exchanges).toEqual([]);
  });

  it('Vertex AI: an account whose token is refused (401) is cooled, the next one serves', async () => {
    expect(await gemini('to-accounts-401')).toBe('account 0');
    refused.add('account-0');
    mock.requests.length = 0;
    expect(await gemini('to-accounts-401')).toBe('account 1');
    expect(hostRequests()).toHaveLength(2);
    mock.requests.length = 0;
    expect(await gemini('to-accounts-401')).toBe('account 1');
    expect(hostRequests()).toHaveLength(1);
  });

  it('Vertex AI express keys: the next key in x-goog-api-key after a 429', async () => {
    refused.add(EXPRESS[0]!);
    expect(await gemini('to-express')).toBe('express');
    expect(hostRequests().map((r) => r.headers['x-goog-api-key'])).toEqual(EXPRESS);
  });

  it('Bedrock key pairs: each request signed with its own pair and session token; a refused pair moves to the next', async () => {
    refused.add(PAIRS[0]!.accessKeyId);
    const msg = await anthropic().messages.create({ model: 'to-pairs', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    seen.push(JSON.stringify(msg));
    expect(msg.content[0]).toMatchObject({ type: 'text' });
    const [first, second] = hostRequests();
    expect(pairOf(first!)).toBe(0);
    expect(first!.headers['x-amz-security-token']).toBeUndefined();
    expect(pairOf(second!)).toBe(1);
    expect(second!.headers['x-amz-security-token']).toBe(PAIRS[1]!.sessionToken);
    expect(String(second!.headers.authorization)).toContain(`Credential=${PAIRS[1]!.accessKeyId}/`);
  });

  it('Bedrock API keys: the next key as a Bearer token after a 403', async () => {
    refused.add(BEDROCK_KEYS[0]!);
    await anthropic().messages.create({ model: 'to-bedrock-keys', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    expect(hostRequests().map((r) => r.headers.authorization)).toEqual(BEDROCK_KEYS.map((k) => `Bearer ${k}`));
  });

  it('no credential of any pool in what callers got or in the log', () => {
    const secrets = [...AZURE, ...EXPRESS, ...BEDROCK_KEYS, ...PAIRS.flatMap((p) => [p.secretAccessKey, p.sessionToken ?? 'none-given']), ...accounts.map((a) => a.keyFragment)];
    const shown = [...seen, ...proxy.logs].join('\n');
    for (const s of secrets) expect(shown).not.toContain(s);
    if (target === 'node') expect(proxy.logs.join('\n')).toMatch(/"keyCooldowns":\["azure apiKey\[0\]#[0-9a-f]{12} 429, 9 s"\]/);
  });
});
