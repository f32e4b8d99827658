/**
 * Amazon Bedrock (Claude), non-stream, end to end: the official SDKs (@anthropic-ai/sdk, openai,
 * @google/genai) → Interlingua (Node and workerd) → a mock of Bedrock that verifies SigV4 or the
 * API key (helpers-bedrock.ts). Streams: providers-bedrock-stream.test.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { INBOUND_KEY, startProxy, TARGETS } from '../support/proxy.ts';
import { API_KEY, ARN, ASK, awsError, bedrock, config, CREDS, ENV, json, MODEL, MODEL_PATH, PROFILE, SECRETS, useBedrock, type Seen } from './helpers-bedrock.ts';

describe.each(TARGETS)('%s: SDKs → Interlingua → Amazon Bedrock (Claude), non-stream', (target) => {
  const h = useBedrock(target);
  let anthropic: Anthropic;
  beforeAll(() => {
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
  });

  it('anthropic SDK: SigV4-signed /invoke (model id %3A-encoded), Bedrock body, the answer back', async () => {
    const seen: Seen[] = [];
    h.mock.reply(bedrock(json('text-basic.json'), seen));
    const res = await anthropic.messages.create(ASK);
    expect(res.content).toEqual(fixtureJson('anthropic', 'text-basic.json').content);
    expect(seen).toEqual([{ model: MODEL, op: 'invoke', auth: 'sigv4' }]);
    const got = h.mock.requests[0]!;
    expect(got.url).toBe(`${MODEL_PATH}/invoke`);
    expect(got.json).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    expect(got.headers['x-api-key']).toBeUndefined();
    expect(got.headers['anthropic-version']).toBeUndefined();
    expect(got.headers['x-amz-security-token']).toBe(CREDS.sessionToken);
    expect(got.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAE2EBEDROCKKEYID0\/\d{8}\/us-east-1\/bedrock\/aws4_request, /);
  });

  it('betas: only those Bedrock documents reach anthropic_beta in the body, never a header; the others reported', async () => {
    h.mock.reply(bedrock(json('text-basic.json')));
    const { response } = await anthropic.beta.messages.create({ ...ASK, betas: ['context-1m-2025-08-07', 'files-api-2025-04-14'] }).withResponse();
    const got = h.mock.requests[0]!;
    expect(got.url).toBe(`${MODEL_PATH}/invoke`);
    expect(got.json.anthropic_beta).toEqual(['context-1m-2025-08-07']);
    expect(got.headers['anthropic-beta']).toBeUndefined();
    expect(response.headers.get('x-interlingua-warnings')).toContain('dropped:anthropic-beta=files-api-2025-04-14');
  });

  it('a model name that would change the path (bedrock/.., bedrock/.) is a 400 on model, nothing sent; a lone surrogate is no 500', async () => {
    h.mock.reply(bedrock(json('text-basic.json')));
    for (const model of ['bedrock/..', 'bedrock/.', 'bedrock-key/..']) {
      const err = await anthropic.messages.create({ ...ASK, model }).catch((e: unknown) => e);
      expect(err, model).toBeInstanceOf(Anthropic.BadRequestError);
      expect((err as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('cannot be sent to the upstream') } });
    }
    const openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    const oerr = await openai.chat.completions.create({ model: 'bedrock/..', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(oerr).toBeInstanceOf(OpenAI.BadRequestError);
    expect((oerr as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('model');
    expect(h.mock.requests).toEqual([]);
    // A lone surrogate becomes U+FFFD in the path: the call goes out (the mock answers it), no 500.
    const seen: Seen[] = [];
    h.mock.reply(bedrock(json('text-basic.json'), seen));
    await anthropic.messages.create({ ...ASK, model: 'bedrock/x\uD800' });
    expect(h.mock.requests.map((r) => r.url)).toEqual(['/model/x%EF%BF%BD/invoke']);
    expect(seen).toEqual([{ model: 'x\uFFFD', op: 'invoke', auth: 'sigv4' }]);
  });

  it('openai responses.create (Responses API caller): /invoke, the Bedrock body, the answer as a Response', async () => {
    const openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    const seen: Seen[] = [];
    h.mock.reply(bedrock(json('text-basic.json'), seen));
    const res = await openai.responses.create({ model: 'gpt-4o', instructions: 'Be brief.', input: 'Hi', max_output_tokens: 64 });
    expect(res.status).toBe('completed');
    expect(res.output_text).toBe(fixtureJson('anthropic', 'text-basic.json').content[0].text);
    expect(seen).toEqual([{ model: MODEL, op: 'invoke', auth: 'sigv4' }]);
    expect(h.mock.requests[0]!.json).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', system: 'Be brief.', max_tokens: 64 });

    h.mock.reply(bedrock(awsError(429, 'ThrottlingException', 'Rate exceeded')));
    const err = await openai.responses.create({ model: 'gpt-4o', input: 'Hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(String((err as Error).message)).toContain('Rate exceeded');
  });

  it('Bedrock API key and an inference profile id: Authorization: Bearer, nothing signed', async () => {
    const seen: Seen[] = [];
    h.mock.reply(bedrock(json('text-basic.json'), seen));
    await anthropic.messages.create({ ...ASK, model: 'claude-profile' });
    expect(seen).toEqual([{ model: PROFILE, op: 'invoke', auth: 'bearer' }]);
    expect(h.mock.requests[0]!.url).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
    expect(h.mock.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(h.mock.requests[0]!.headers['x-amz-date']).toBeUndefined();
  });

  it('an application inference profile ARN: one encoded path segment, signed as sent', async () => {
    const seen: Seen[] = [];
    h.mock.reply(bedrock(json('text-basic.json'), seen));
    await anthropic.messages.create({ ...ASK, model: 'claude-arn' });
    expect(h.mock.requests[0]!.url).toBe('/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fabc123xyz/invoke');
    expect(seen).toEqual([{ model: ARN, op: 'invoke', auth: 'sigv4' }]);
  });

  it('count_tokens → CountTokens: the InvokeModel body in base64, inputTokens back', async () => {
    const seen: Seen[] = [];
    h.mock.reply(bedrock({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"inputTokens":17}' }, seen));
    const res = await anthropic.messages.countTokens({ model: 'claude-on-bedrock', messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.input_tokens).toBe(17);
    expect(seen).toEqual([{ model: MODEL, op: 'count-tokens', auth: 'sigv4' }]);
    const inner = JSON.parse(Buffer.from(h.mock.requests[0]!.json.input.invokeModel.body, 'base64').toString('utf8'));
    expect(inner).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(inner.max_tokens).toBeGreaterThan(0);
    expect(inner.model).toBeUndefined();
  });

  it.each([
    [429, 'ThrottlingException', 'Too many requests, please wait before trying again.', Anthropic.RateLimitError, 'rate_limit_error'],
    [400, 'ValidationException', 'messages.0.content: text content blocks must be non-empty', Anthropic.BadRequestError, 'invalid_request_error'],
    [403, 'AccessDeniedException', "You don't have access to the model with the specified model ID.", Anthropic.PermissionDeniedError, 'permission_error'],
  ])('HTTP %i %s → the SDK error of that kind, with the message', async (status, type, message, Class, anthropicType) => {
    h.mock.reply(bedrock(awsError(status, type, message)));
    const err = await anthropic.messages.create(ASK).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Class);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(status);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: anthropicType, message } });
  });

  it('a signature the service cannot verify is an authentication error (the mock does verify)', async () => {
    const doc = config(h.mock.url);
    const other = await startProxy({ ...doc, upstreams: { ...doc.upstreams, bedrock: { ...doc.upstreams.bedrock, secretAccessKey: 'not-the-secret-key' } } }, ENV, target);
    try {
      h.mock.reply(bedrock(json('text-basic.json')));
      const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: other.url, maxRetries: 0 });
      const err = await client.messages.create(ASK).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(String((err as Error).message)).toMatch(/signature we calculated does not match/);
    } finally {
      await other.close();
    }
  });

  it('openai SDK: a chat completion, and Bedrock throttling as a RateLimitError', async () => {
    const openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    h.mock.reply(bedrock(json('text-basic.json')));
    const res = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] });
    expect(res.choices[0]!.message.content).toBe(fixtureJson('anthropic', 'text-basic.json').content[0].text);
    expect(h.mock.requests[0]!.url).toBe(`${MODEL_PATH}/invoke`);
    expect(h.mock.requests[0]!.json).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', system: 'Be brief.' });

    h.mock.reply(bedrock(awsError(429, 'ThrottlingException', 'Rate exceeded')));
    const err = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(String((err as Error).message)).toContain('Rate exceeded');
  });

  it('openai SDK: an agent-sized conversation (300 KB, non-ASCII) arrives whole and signed over its bytes', async () => {
    // Big bodies are read from one-byte text and sent as UTF-8 pieces (latin1-json.ts, json-body.ts).
    const openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    h.mock.reply(bedrock(json('text-basic.json')));
    const turn = (i: number) => `turn ${i}: "quoted" \\ tab\t é ü ß 漢字 😀 \u2028 ${'x'.repeat(1000)}`;
    const messages = Array.from({ length: 300 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: turn(i) }));
    const res = await openai.chat.completions.create({ model: 'gpt-4o', messages });
    expect(res.choices[0]!.message.content).toBe(fixtureJson('anthropic', 'text-basic.json').content[0].text);
    const got = h.mock.requests[0]!;
    expect(Buffer.byteLength(got.body)).toBeGreaterThan(300_000);
    expect(got.json.messages).toEqual(messages.map((m) => ({ role: m.role, content: [{ type: 'text', text: m.content }] })));
  });

  it('@google/genai: generateContent', async () => {
    const genai = new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: h.proxy.url } });
    h.mock.reply(bedrock(json('text-basic.json')));
    const res = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' });
    expect(res.text).toBe(fixtureJson('anthropic', 'text-basic.json').content[0].text);
    expect(h.mock.requests.map((r) => r.url)).toEqual([`${MODEL_PATH}/invoke`]);
  });

  it('dry-run: the real URL and body, credentials masked, nothing signed or sent', async () => {
    const dry = async (model: string, stream: boolean) => {
      const res = await fetch(`${h.proxy.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01', 'x-interlingua-dry-run': 'true' },
        body: JSON.stringify({ ...ASK, model, stream }),
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const s of SECRETS) expect(text).not.toContain(s);
      return JSON.parse(text) as { request: { url: string; headers: Record<string, string>; body: Record<string, unknown> } };
    };
    const signed = await dry('claude-on-bedrock', true);
    expect(signed.request.url).toBe(`${h.mock.url}${MODEL_PATH}/invoke-with-response-stream`);
    expect(Object.keys(signed.request.headers).filter((k) => /^(authorization|x-amz-|x-api-key)/.test(k))).toEqual([]);
    expect(signed.request.body).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    const keyed = await dry('claude-profile', false);
    expect(keyed.request.url).toBe(`${h.mock.url}/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke`);
    expect(keyed.request.headers.authorization).toBe('***');
    expect(h.mock.requests).toEqual([]);
  });

  it('no credential in any log line', () => {
    expect(h.proxy.logs.length).toBeGreaterThan(0);
    for (const line of h.proxy.logs) for (const s of SECRETS) expect(line).not.toContain(s);
  });
});
