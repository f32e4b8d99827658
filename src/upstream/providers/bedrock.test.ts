import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../canonical/index.ts';
import { parseConfig } from '../../config/load.ts';
import { verifySigV4, type VerifiableRequest } from '../../../test/support/aws.ts';
import { bedrockUrl } from './bedrock.ts';
import { signSigV4 } from './bedrock-sigv4.ts';
import { providerOf } from './index.ts';

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
    expect(() => bedrockUrl(BASE, msg('/model/a/b/invoke'), MODEL)).toThrow(ProxyError);
  });

  it("an embedding model's InvokeModel path (Titan, Cohere) goes under the base as it is", () => {
    expect(bedrockUrl(`${BASE}/`, msg('/model/amazon.titan-embed-text-v2%3A0/invoke'), 'amazon.titan-embed-text-v2:0')).toBe(`${BASE}/model/amazon.titan-embed-text-v2%3A0/invoke`);
  });

  it.each(['..', '.', ''])('refuses the model name %j (a dot segment would change the path): invalid-request on model', (model) => {
    let err: unknown;
    try {
      bedrockUrl(BASE, msg('/v1/messages'), model);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProxyError);
    expect(err).toMatchObject({ kind: 'invalid-request', param: 'model' });
  });

  it('keeps traversal characters inside the segment; a lone surrogate becomes U+FFFD instead of a throw', () => {
    expect(bedrockUrl(BASE, msg('/v1/messages'), '../../invoke')).toBe(`${BASE}/model/..%2F..%2Finvoke/invoke`);
    expect(bedrockUrl(BASE, msg('/v1/messages'), 'a?b#c')).toBe(`${BASE}/model/a%3Fb%23c/invoke`);
    expect(bedrockUrl(BASE, msg('/v1/messages'), 'x\uD800')).toBe(`${BASE}/model/x%EF%BF%BD/invoke`);
  });

  it('a base URL with a query keeps it after the path (a VPC endpoint or proxy that wants one)', () => {
    expect(bedrockUrl('https://vpce.example/x?q=1', msg('/v1/messages'), MODEL)).toBe('https://vpce.example/x/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke?q=1');
    expect(bedrockUrl('https://vpce.example/x/?q=1&r=2', msg('/v1/messages?beta=true', true), 'm')).toBe('https://vpce.example/x/model/m/invoke-with-response-stream?q=1&r=2');
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
  // That no credential an AWS error echoes reaches the caller is test/conformance/providers.test.ts.
});
