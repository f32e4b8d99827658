import { describe, expect, it } from 'vitest';
import { ProxyError, type SseEvent } from '../../canonical/index.ts';
import { parseConfig } from '../../config/load.ts';
import { decodeError } from '../../../translators/anthropic/errors.ts';
import { AnthropicStreamDecoder } from '../../../translators/anthropic/stream-decoder.ts';
import { concatBytes, chunkFrame, encodeFrame, exceptionFrame, verifySigV4, type VerifiableRequest } from '../../../test/support/aws.ts';
import { testContext } from '../../../test/support/fixtures.ts';
import { anthropicErrorType, bedrockErrorBody, bedrockUrl, createBedrockStreamParser, signSigV4 } from './bedrock.ts';
import { providerOf } from './index.ts';

/**
 * SigV4 test suite ("aws-sig-v4-test-suite", as kept in awslabs/aws-c-auth,
 * tests/aws-signing-test-suite/v4/<name>/: request.txt, context.json, header-canonical-request.txt,
 * header-signature.txt). The cases below were written from reading them: the credentials, time,
 * region and service every case uses, each request, and its published signature.
 */
const SUITE = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 'service',
  now: Date.parse('2015-08-30T12:36:00Z'),
};
const HOST = 'https://example.amazonaws.com';

interface SuiteCase {
  name: string;
  method: 'GET' | 'POST';
  /** Path and query as in request.txt (only unreserved path characters: the encoding rule plays no part). */
  target: string;
  headers?: Record<string, string>;
  sessionToken?: string;
  signedHeaders: string;
  signature: string;
}

const SUITE_CASES: SuiteCase[] = [
  { name: 'get-vanilla', method: 'GET', target: '/', signedHeaders: 'host;x-amz-date', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31' },
  { name: 'post-vanilla', method: 'POST', target: '/', signedHeaders: 'host;x-amz-date', signature: '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b' },
  { name: 'get-unreserved', method: 'GET', target: '/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', signedHeaders: 'host;x-amz-date', signature: '07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f' },
  { name: 'get-vanilla-query-order-key-case', method: 'GET', target: '/?Param2=value2&Param1=value1', signedHeaders: 'host;x-amz-date', signature: 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500' },
  { name: 'get-vanilla-utf8-query', method: 'GET', target: '/?ሴ=bar', signedHeaders: 'host;x-amz-date', signature: '2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04' },
  { name: 'post-header-key-sort', method: 'POST', target: '/', headers: { 'My-Header1': 'value1' }, signedHeaders: 'host;my-header1;x-amz-date', signature: 'c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c' },
  { name: 'get-header-value-trim', method: 'GET', target: '/', headers: { 'My-Header1': ' value1', 'My-Header2': ' "a   b   c"' }, signedHeaders: 'host;my-header1;my-header2;x-amz-date', signature: 'acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736' },
  {
    name: 'get-vanilla-with-session-token',
    method: 'GET',
    target: '/',
    sessionToken: '6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267',
    signedHeaders: 'host;x-amz-date;x-amz-security-token',
    signature: '07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8',
  },
  {
    name: 'post-sts-header-before',
    method: 'POST',
    target: '/',
    sessionToken:
      'AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==',
    signedHeaders: 'host;x-amz-date;x-amz-security-token',
    signature: '85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead',
  },
];

/** Suite cases whose paths need encoding, checked with the verifier (the path is given unencoded). */
const SUITE_PATH_CASES = [
  { name: 'get-utf8', target: '/ሴ', canonicalPath: '/%E1%88%B4', signature: '8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85', normalize: true },
  { name: 'get-space-normalized', target: '/example space/', canonicalPath: '/example%20space/', signature: '652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741', normalize: true },
  { name: 'get-slashes-unnormalized', target: '//example//', canonicalPath: '//example//', signature: '87cca117541a147f6df867677d98a7d80dff226d2bfca9e4ffa899665623c7e5', normalize: false },
  { name: 'get-slashes-normalized', target: '//example//', canonicalPath: '/example/', signature: '9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84', normalize: true },
  { name: 'get-relative-relative-normalized', target: '/example1/example2/../..', canonicalPath: '/', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31', normalize: true },
];

const suiteCreds = (sessionToken?: string) => ({ accessKeyId: SUITE.accessKeyId, secretAccessKey: SUITE.secretAccessKey, sessionToken });
const authOf = (c: { signedHeaders: string; signature: string }) =>
  `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=${c.signedHeaders}, Signature=${c.signature}`;

describe('SigV4 signing (aws4fetch) against the AWS SigV4 test suite', () => {
  it.each(SUITE_CASES)('$name', async (c) => {
    const headers = await signSigV4({ method: c.method, url: `${HOST}${c.target}`, headers: c.headers ?? {} }, suiteCreds(c.sessionToken), { ...SUITE, now: SUITE.now });
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
    expect(headers.authorization).toBe(authOf(c));
    if (c.sessionToken) expect(headers['x-amz-security-token']).toBe(c.sessionToken);
  });
});

describe('the test SigV4 verifier (used by the Bedrock mock) against the suite', () => {
  const verify = (method: string, target: string, headers: Record<string, string>, normalize = true) =>
    verifySigV4({ method, target, headers: { host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z', ...headers }, body: '' }, { ...SUITE, normalize });

  it.each(SUITE_CASES)('accepts $name', (c) => {
    const extra = { ...c.headers, ...(c.sessionToken ? { 'x-amz-security-token': c.sessionToken } : {}) };
    expect(verify(c.method, c.target.replace('ሴ', '%E1%88%B4'), { ...extra, authorization: authOf(c) })).toMatchObject({ ok: true });
  });

  it.each(SUITE_PATH_CASES)('accepts $name and builds its canonical path', (c) => {
    const r = verify('GET', c.target, { authorization: authOf({ signedHeaders: 'host;x-amz-date', signature: c.signature }) }, c.normalize);
    expect(r).toMatchObject({ ok: true });
    expect(r.canonicalRequest!.split('\n')[1]).toBe(c.canonicalPath);
  });

  it('get-utf8: the whole canonical request as published', () => {
    const r = verify('GET', '/ሴ', { authorization: authOf({ signedHeaders: 'host;x-amz-date', signature: SUITE_PATH_CASES[0]!.signature }) });
    expect(r.canonicalRequest).toBe('GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('refuses a wrong signature, key, region or service', () => {
    const good = { authorization: authOf(SUITE_CASES[0]!) };
    expect(verify('GET', '/', { authorization: good.authorization.replace(/.$/, '0') })).toMatchObject({ ok: false, reason: 'signature mismatch' });
    expect(verify('GET', '/x', good)).toMatchObject({ ok: false });
    expect(verify('GET', '/', { authorization: good.authorization.replace('AKIDEXAMPLE', 'AKIDOTHER') })).toMatchObject({ ok: false, reason: 'unknown access key AKIDOTHER' });
    expect(verify('GET', '/', { authorization: good.authorization.replace('us-east-1', 'eu-west-1') })).toMatchObject({ ok: false });
    expect(verify('GET', '/', { authorization: good.authorization.replace('/service/', '/bedrock/') })).toMatchObject({ ok: false });
  });
});

const BASE = 'https://bedrock-runtime.us-east-1.amazonaws.com';
const MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const PROFILE_ARN = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const CREDS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', sessionToken: 'FwoGZXIvYXdzEXAMPLEsessiontoken//+=' };

describe('Bedrock URLs: the model id as one encoded path segment', () => {
  const msg = (path: string, stream = false) => ({ path, stream });
  it.each([
    [MODEL, 'anthropic.claude-sonnet-4-5-20250929-v1%3A0'],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'us.anthropic.claude-sonnet-4-5-20250929-v1%3A0'],
    ['global.anthropic.claude-opus-4-6-v1', 'global.anthropic.claude-opus-4-6-v1'],
    [PROFILE_ARN, 'arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-sonnet-4-5-20250929-v1%3A0'],
  ])('%s', (model, segment) => {
    expect(bedrockUrl(BASE, msg('/v1/messages'), model)).toBe(`${BASE}/model/${segment}/invoke`);
    expect(bedrockUrl(BASE, msg('/v1/messages?beta=true', true), model)).toBe(`${BASE}/model/${segment}/invoke-with-response-stream`);
    expect(bedrockUrl(`${BASE}/`, msg('/v1/messages/count_tokens?beta=true'), model)).toBe(`${BASE}/model/${segment}/count-tokens`);
  });

  it('refuses paths Bedrock has no operation for', () => {
    expect(() => bedrockUrl(BASE, msg('/v1/models'), MODEL)).toThrow(ProxyError);
  });
});

/** A signed request as the service receives it: the raw path of the URL, the headers as sent. */
function received(url: string, headers: Record<string, string>, body: string): VerifiableRequest {
  const u = new URL(url);
  return { method: 'POST', target: `${u.pathname}${u.search}`, headers: { host: u.host, ...headers }, body };
}

describe('SigV4 for Bedrock: the path as sent, encoded once more in the canonical request', () => {
  const body = '{"anthropic_version":"bedrock-2023-05-31","max_tokens":5,"messages":[]}';
  const sign = (url: string, o: { body?: string; creds?: typeof CREDS } = {}) =>
    signSigV4({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: o.body ?? body }, o.creds ?? CREDS, { region: 'us-east-1', service: 'bedrock', now: Date.parse('2026-11-25T04:00:00Z') });

  it.each([
    [MODEL, '/model/anthropic.claude-sonnet-4-5-20250929-v1%253A0/invoke'],
    [PROFILE_ARN, '/model/arn%253Aaws%253Abedrock%253Aus-east-1%253A123456789012%253Ainference-profile%252Fus.anthropic.claude-sonnet-4-5-20250929-v1%253A0/invoke'],
  ])('%s', async (model, canonicalPath) => {
    const url = bedrockUrl(BASE, { path: '/v1/messages', stream: false }, model);
    const headers = await sign(url);
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20261125\/us-east-1\/bedrock\/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
    expect(headers['x-amz-security-token']).toBe(CREDS.sessionToken);
    expect(headers['content-type']).toBe('application/json');
    const r = verifySigV4(received(url, headers, body), { ...CREDS, region: 'us-east-1', service: 'bedrock' });
    expect(r).toMatchObject({ ok: true });
    expect(r.canonicalRequest!.split('\n')[1]).toBe(canonicalPath);
  });

  it('the body is signed: another body does not verify', async () => {
    const url = bedrockUrl(BASE, { path: '/v1/messages', stream: true }, MODEL);
    const headers = await sign(url);
    expect(verifySigV4(received(url, headers, body.replace('5', '6')), { ...CREDS, region: 'us-east-1', service: 'bedrock' })).toMatchObject({ ok: false, reason: 'signature mismatch' });
  });

  it('without a session token there is no x-amz-security-token', async () => {
    const headers = await sign(`${BASE}/model/m/invoke`, { creds: { ...CREDS, sessionToken: undefined as unknown as string } });
    expect(headers['x-amz-security-token']).toBeUndefined();
    expect(headers.authorization).toContain('SignedHeaders=host;x-amz-date,');
  });
});

const upstreamConfig = (extra: Record<string, unknown>) =>
  parseConfig({ open: true, upstreams: { br: { dialect: 'anthropic', provider: 'bedrock', region: 'us-east-1', ...extra } }, models: { '*': { upstream: 'br' } } }).upstreams.br!;

describe('the bedrock provider', () => {
  const ctx = (u: ReturnType<typeof upstreamConfig>) => ({ upstream: u, model: MODEL, fetch: (() => Promise.reject(new Error('no fetch'))) as never, now: () => Date.parse('2026-11-25T04:00:00Z') });

  it('knobs: model and stream out of the body, Bedrock version, betas in the body from the allow-list', () => {
    const u = upstreamConfig({ ...CREDS, anthropicBetaAllow: ['my-beta-*'] });
    const p = providerOf(u);
    expect(p.listsModels).toBe(false);
    expect(p.streamContentType).toBe('application/vnd.amazon.eventstream');
    expect(p.options!({ upstream: u, model: MODEL })).toMatchObject({
      modelInBody: false,
      streamInBody: false,
      anthropicVersionInBody: 'bedrock-2023-05-31',
      betasInBody: true,
      countTokensBody: 'invoke-model',
    });
    const allow = p.options!({ upstream: u, model: MODEL }).anthropicBetaAllow!;
    expect(allow).toEqual(expect.arrayContaining(['context-1m-*', 'interleaved-thinking-*', 'computer-use-*', 'token-efficient-tools-*', 'output-128k-*', 'my-beta-*']));
  });

  it('SigV4: no key header ever (not even a forwarded caller key); authorize signs the final URL and body', async () => {
    const u = upstreamConfig(CREDS);
    const p = providerOf(u);
    const shown = p.headers!({ 'content-type': 'application/json', 'x-api-key': 'caller-key' }, { upstream: u, model: MODEL });
    expect(shown).toEqual({ 'content-type': 'application/json' });
    const url = p.url({ method: 'POST', path: '/v1/messages', headers: {}, stream: false }, { upstream: u, model: MODEL });
    const headers = await p.authorize!({ method: 'POST', url, headers: shown, body: '{}' }, ctx(u));
    expect(headers['x-amz-date']).toBe('20261125T040000Z');
    expect(verifySigV4(received(url, headers, '{}'), { ...CREDS, region: 'us-east-1', service: 'bedrock' })).toMatchObject({ ok: true });
  });

  it('API key: Authorization: Bearer, shown (masked) in a dry-run, nothing signed', async () => {
    const u = upstreamConfig({ apiKey: 'ABSKbedrockapikeyEXAMPLE' });
    const p = providerOf(u);
    const shown = p.headers!({ 'content-type': 'application/json', 'x-api-key': 'ABSKbedrockapikeyEXAMPLE' }, { upstream: u, model: MODEL });
    expect(shown).toEqual({ 'content-type': 'application/json', authorization: 'Bearer ABSKbedrockapikeyEXAMPLE' });
    const url = p.url({ method: 'POST', path: '/v1/messages', headers: {}, stream: true }, { upstream: u, model: MODEL });
    const sent = await p.authorize!({ method: 'POST', url, headers: shown, body: '{}' }, ctx(u));
    expect(sent).toEqual(shown);
  });

  it('config names what Bedrock needs', () => {
    expect(() => upstreamConfig({})).toThrow(/upstreams\.br\.accessKeyId: required for provider "bedrock"/);
    expect(() => upstreamConfig({ accessKeyId: 'AKIA' })).toThrow(/secretAccessKey/);
    expect(upstreamConfig({ apiKey: 'k' }).baseUrl).toBe('https://bedrock-runtime.us-east-1.amazonaws.com');
  });
});

describe('Bedrock errors → Anthropic envelope → the right kind', () => {
  const decode = (status: number, body: string, type?: string, extra: Record<string, string> = {}) => {
    const headers = { ...(type ? { 'x-amzn-errortype': type } : {}), 'x-amzn-requestid': 'req-123', ...extra };
    return decodeError(status, bedrockErrorBody(status, body, headers), headers);
  };

  it.each([
    [429, 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'rate-limit', 'rate_limit_error'],
    [400, 'ValidationException', 'invalid-request', 'invalid_request_error'],
    [403, 'AccessDeniedException', 'permission', 'permission_error'],
    [403, 'UnrecognizedClientException', 'authentication', 'authentication_error'],
    [403, 'InvalidSignatureException', 'authentication', 'authentication_error'],
    [403, 'ExpiredTokenException', 'authentication', 'authentication_error'],
    [404, 'ResourceNotFoundException', 'not-found', 'not_found_error'],
    [400, 'ServiceQuotaExceededException', 'rate-limit', 'rate_limit_error'],
    [429, 'ModelNotReadyException', 'overloaded', 'overloaded_error'],
    [503, 'ServiceUnavailableException', 'overloaded', 'overloaded_error'],
    [408, 'ModelTimeoutException', 'timeout', 'timeout_error'],
    [424, 'ModelErrorException', 'upstream', 'api_error'],
    [500, 'InternalServerException', 'upstream', 'api_error'],
  ])('%i %s → %s', (status, type, kind, anthropicType) => {
    const err = decode(status, '{"message":"Something specific happened."}', type);
    expect(err.kind).toBe(kind);
    expect(err.upstreamType).toBe(anthropicType);
    expect(err.message).toBe('Something specific happened.');
    expect(err.status).toBe(status);
    expect(err.requestId).toBe('req-123');
  });

  it('the type may come in the body (__type, code); Message in capitals; unknown types leave it to the status', () => {
    expect(decode(429, '{"__type":"com.amazon.coral#ThrottlingException","Message":"slow down"}')).toMatchObject({ kind: 'rate-limit', message: 'slow down' });
    expect(decode(400, '{"code":"ValidationException","message":"bad"}')).toMatchObject({ kind: 'invalid-request', message: 'bad' });
    expect(decode(409, '{"message":"who knows"}', 'SomeNewException')).toMatchObject({ kind: 'invalid-request', message: 'who knows' });
    expect(decode(502, '<html>Bad gateway</html>')).toMatchObject({ kind: 'upstream', message: '<html>Bad gateway</html>' });
    expect(decode(500, '')).toMatchObject({ kind: 'upstream', message: 'Bedrock returned HTTP 500' });
  });

  it('an Anthropic envelope (a model error passed through) is kept as it is', () => {
    const body = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    expect(bedrockErrorBody(529, body, {})).toBe(body);
  });

  it('the provider masks credentials an AWS message echoes', () => {
    const u = upstreamConfig(CREDS);
    const echoed = bedrockErrorBody; // the plain function does not know the credentials…
    expect(echoed(403, `{"message":"key ${CREDS.accessKeyId} token ${CREDS.sessionToken}"}`, {})).toContain(CREDS.accessKeyId);
    const out = providerOf(u).errorBody!(403, `{"message":"key ${CREDS.accessKeyId} token ${CREDS.sessionToken}"}`, { 'x-amzn-errortype': 'UnrecognizedClientException' });
    expect(out).not.toContain(CREDS.accessKeyId);
    expect(out).not.toContain(CREDS.sessionToken);
    expect(JSON.parse(out).error).toEqual({ type: 'authentication_error', message: 'key *** token ***' });
  });

  it('exception names compare without case (HTTP PascalCase, stream lowerCamel)', () => {
    expect(anthropicErrorType('throttlingException')).toBe('rate_limit_error');
    expect(anthropicErrorType('modelStreamErrorException')).toBe('api_error');
    expect(anthropicErrorType('nothing')).toBeUndefined();
  });
});

const START = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } } };
const EVENTS = [
  START,
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Héllo ✓' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
  { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 3, outputTokenCount: 5, invocationLatency: 100, firstByteLatency: 50 } },
];
const STREAM = concatBytes(EVENTS.map(chunkFrame));

function parseAll(chunks: Uint8Array[], max = 1 << 20) {
  const parser = createBedrockStreamParser(max);
  const events: SseEvent[] = chunks.flatMap((c) => parser.push(c));
  events.push(...parser.finish());
  return { events, parser };
}

/** What the anthropic decoder makes of them (what the pipeline would do). */
function decoded(events: SseEvent[]) {
  const d = new AnthropicStreamDecoder({ model: 'm', system: [], messages: [], stream: true }, testContext());
  return [...events.flatMap((e) => d.push(e)), ...d.finish()];
}

describe('Bedrock stream parser: event stream → Anthropic SSE events', () => {
  it('chunk events become the Anthropic events they carry, named by type', () => {
    const { events, parser } = parseAll([STREAM]);
    expect(events.map((e) => e.event)).toEqual(EVENTS.map((e) => e.type));
    expect(events.map((e) => JSON.parse(e.data))).toEqual(EVENTS);
    expect(parser.eventCount).toBe(6);
    expect(parser.sawBytes).toBe(true);
    expect(parser.error).toBeUndefined();
    const out = decoded(events);
    expect(out.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('')).toBe('Héllo ✓');
    expect(out.some((e) => e.type === 'error')).toBe(false);
  });

  it('the same events whatever the split (every byte boundary)', () => {
    const whole = parseAll([STREAM]).events;
    for (let i = 0; i <= STREAM.length; i++) {
      expect(parseAll([STREAM.subarray(0, i), STREAM.subarray(i)]).events, `split at ${i}`).toEqual(whole);
    }
  });

  it.each([
    ['throttlingException', 'rate_limit_error', 'rate-limit'],
    ['modelStreamErrorException', 'api_error', 'upstream'],
    ['validationException', 'invalid_request_error', 'invalid-request'],
    ['internalServerException', 'api_error', 'upstream'],
    ['serviceUnavailableException', 'overloaded_error', 'overloaded'],
    ['modelTimeoutException', 'timeout_error', 'timeout'],
  ])('exception %s → event: error (%s) → %s', (type, anthropicType, kind) => {
    const { events } = parseAll([concatBytes([chunkFrame(START), exceptionFrame(type, 'It went wrong.')])]);
    expect(events[1]).toEqual({ event: 'error', data: JSON.stringify({ type: 'error', error: { type: anthropicType, message: 'It went wrong.' } }) });
    const err = decoded(events).find((e) => e.type === 'error');
    expect(err).toMatchObject({ error: { kind, message: 'It went wrong.' } });
  });

  it('an event-stream `error` message (:error-code, :error-message) is an error event too', () => {
    const frame = encodeFrame({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'boom' }, '');
    expect(parseAll([frame]).events).toEqual([{ event: 'error', data: '{"type":"error","error":{"type":"api_error","message":"boom"}}' }]);
  });

  it.each([
    ['prelude', 8],
    ['message', -10],
  ])('a bad %s checksum → one error event, then nothing more is read', (_what, offset) => {
    const second = chunkFrame(EVENTS[1]);
    const bad = second.slice();
    const at = offset < 0 ? bad.length + offset : offset;
    bad[at] = bad[at]! ^ 0xff;
    const stream = concatBytes([chunkFrame(START), bad, chunkFrame(EVENTS[2])]);
    for (const split of [0, 20, stream.length - 3]) {
      const { events } = parseAll([stream.subarray(0, split), stream.subarray(split)]);
      expect(events.map((e) => e.event)).toEqual(['message_start', 'error']);
      expect(JSON.parse(events[1]!.data).error.message).toMatch(new RegExp(`corrupt: ${_what} checksum mismatch`));
      expect(decoded(events).at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream' } });
    }
  });

  it('a frame over the limit sets `error` (the pipeline reports a frame too large)', () => {
    const { events, parser } = parseAll([chunkFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(5000) } })], 4096);
    expect(events).toEqual([]);
    expect(parser.error?.type).toBe('max-buffer-size-exceeded');
  });

  it('a body that ends inside a frame → an error event at the end', () => {
    const { events } = parseAll([STREAM.subarray(0, STREAM.length - 5)]);
    expect(events.at(-1)).toMatchObject({ event: 'error' });
    expect(JSON.parse(events.at(-1)!.data).error.message).toMatch(/ended inside a frame/);
  });

  it('unknown event types are skipped; a chunk without base64 JSON bytes is an error event', () => {
    const other = encodeFrame({ ':message-type': 'event', ':event-type': 'somethingNew' }, '{}');
    const badChunk = encodeFrame({ ':message-type': 'event', ':event-type': 'chunk' }, '{"bytes":"%%%"}');
    const { events, parser } = parseAll([other, badChunk]);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe('error');
    expect(parser.eventCount).toBe(1);
    expect(parseAll([other]).parser.eventCount).toBe(0);
  });
});
