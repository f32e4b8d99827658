import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64, type FetchLike } from '../../kit/index.ts';
import { isProxyError } from '../../canonical/index.ts';
import { parseConfig } from '../../config/load.ts';
import type { UpstreamHttpRequest, UpstreamTarget } from '../../../translators/types.ts';
import { anthropic as anthropicDialect } from '../../../translators/anthropic/index.ts';
import { testContext } from '../../../test/support/fixtures.ts';
import { outgoing, providerOf, urlOf } from './index.ts';
import { TOKEN_PLACEHOLDER, VERTEX_BETAS, vertex } from './vertex.ts';

let serviceAccount: string;

beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const der = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  serviceAccount = JSON.stringify({
    type: 'service_account',
    client_email: 'proxy@my-proj.iam.gserviceaccount.com',
    private_key: `-----BEGIN PRIVATE KEY-----\n${bytesToBase64(der)}\n-----END PRIVATE KEY-----\n`,
    token_uri: 'https://oauth2.example.test/token',
  });
});

/** One upstream loaded through the real config (defaults, env: resolution, checks). */
function upstream(u: Record<string, unknown>) {
  return parseConfig({ open: true, upstreams: { v: { provider: 'vertex', ...u } }, models: { '*': { upstream: 'v' } } }).upstreams.v!;
}

/** A translator's request (Gemini or Anthropic path). */
const req = (path: string, stream = false): UpstreamHttpRequest => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}', stream });
const gemini = req;
const anthropic = req;

describe('Vertex AI URLs', () => {
  const regional = { dialect: 'gemini', project: 'my-proj', location: 'us-central1', accessToken: 't' };

  it('Gemini: every method, the model one segment, alt=sse kept', () => {
    const u = upstream(regional);
    const url = (path: string) => urlOf(gemini(path), { upstream: u, model: 'gemini-2.5-flash' });
    const base = 'https://us-central1-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-central1/publishers/google/models';
    expect(url('/v1beta/models/gemini-2.5-flash:generateContent')).toBe(`${base}/gemini-2.5-flash:generateContent`);
    expect(url('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse')).toBe(`${base}/gemini-2.5-flash:streamGenerateContent?alt=sse`);
    expect(url('/v1beta/models/gemini-2.5-flash:countTokens')).toBe(`${base}/gemini-2.5-flash:countTokens`);
    expect(url('/v1beta/models/text-embedding-005:predict')).toBe(`${base}/text-embedding-005:predict`);
    // A name that would change the path stays one encoded segment.
    expect(url('/v1beta/models/..%2F..%2Fx%3Fy:generateContent')).toBe(`${base}/..%2F..%2Fx%3Fy:generateContent`);
  });

  it('Claude: rawPredict, streamRawPredict, count-tokens; @ versions as they are; ?beta=true dropped', () => {
    const u = upstream({ ...regional, dialect: 'anthropic', location: 'us-east5' });
    const ctx = { upstream: u, model: 'claude-sonnet-4-5@20250929' };
    const base = 'https://us-east5-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-east5/publishers/anthropic/models';
    expect(urlOf(anthropic('/v1/messages'), ctx)).toBe(`${base}/claude-sonnet-4-5@20250929:rawPredict`);
    expect(urlOf(anthropic('/v1/messages?beta=true', true), ctx)).toBe(`${base}/claude-sonnet-4-5@20250929:streamRawPredict`);
    expect(urlOf(anthropic('/v1/messages/count_tokens?beta=true'), ctx)).toBe(`${base}/count-tokens:rawPredict`);
    expect(urlOf(anthropic('/v1/messages'), { upstream: u, model: 'x/../../y' })).toBe(`${base}/x%2F..%2F..%2Fy:rawPredict`);
  });

  it('locations: global, multi-regions, express mode; an explicit baseUrl replaces scheme and host only', () => {
    const path = '/v1beta/models/gemini-2.5-flash:generateContent';
    const url = (u: Record<string, unknown>) => urlOf(gemini(path), { upstream: upstream(u), model: 'gemini-2.5-flash' });
    expect(url({ ...regional, location: 'global' })).toBe('https://aiplatform.googleapis.com/v1/projects/my-proj/locations/global/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(url({ ...regional, location: 'eu' })).toBe('https://aiplatform.eu.rep.googleapis.com/v1/projects/my-proj/locations/eu/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(url({ dialect: 'gemini', apiKey: 'k' })).toBe('https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(url({ ...regional, baseUrl: 'http://127.0.0.1:9999/vertex/' })).toBe('http://127.0.0.1:9999/vertex/v1/projects/my-proj/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent');
    const claude = upstream({ ...regional, dialect: 'anthropic', baseUrl: 'https://psc.example.internal' });
    expect(urlOf(anthropic('/v1/messages'), { upstream: claude, model: 'claude-haiku-4-5' })).toBe('https://psc.example.internal/v1/projects/my-proj/locations/us-central1/publishers/anthropic/models/claude-haiku-4-5:rawPredict');
  });

  it('whatever the model is called, it stays one segment: origin, path shape and query never change', () => {
    const gem = upstream(regional);
    const claude = upstream({ ...regional, dialect: 'anthropic' });
    const name = fc.string({ unit: fc.constantFrom('/', '\\', '?', '#', '%', '%2F', '..', '.', ':', '@', '&', ' ', 'a', 'é', '\uD800'), minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(name, (model) => {
        let seg: string;
        try {
          seg = encodeURIComponent(model);
        } catch {
          seg = encodeURIComponent(model.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
        }
        if (seg === '.' || seg === '..') return;
        const urls = [
          urlOf(gemini(`/v1beta/models/${seg}:streamGenerateContent?alt=sse`, true), { upstream: gem, model }),
          urlOf(anthropic('/v1/messages', true), { upstream: claude, model }),
        ];
        for (const u of urls.map((x) => new URL(x))) {
          expect(u.origin).toBe('https://us-central1-aiplatform.googleapis.com');
          expect(u.pathname.split('/')).toHaveLength(10);
          expect(u.pathname.split('/').slice(0, 9).join('/')).toMatch(/^\/v1\/projects\/my-proj\/locations\/us-central1\/publishers\/(google|anthropic)\/models$/);
          expect(u.hash).toBe('');
        }
        expect(new URL(urls[0]!).search).toBe('?alt=sse');
        expect(new URL(urls[1]!).search).toBe('');
      }),
    );
  });

  it('Interactions: v1beta1 under the project and location, ids and cancel kept; no express-mode endpoint', () => {
    const u = upstream({ ...regional, dialect: 'gemini-interactions' });
    const url = (path: string) => urlOf({ ...gemini(path), method: path.includes('/int_') ? 'GET' : 'POST' }, { upstream: u, model: 'gemini-3-pro' });
    const base = 'https://us-central1-aiplatform.googleapis.com/v1beta1/projects/my-proj/locations/us-central1/interactions';
    expect(url('/v1beta/interactions')).toBe(base);
    expect(url('/v1beta/interactions/int_1')).toBe(`${base}/int_1`);
    expect(url('/v1beta/interactions/int_1/cancel')).toBe(`${base}/int_1/cancel`);
    expect(url('/v1beta/interactions/int_1?stream=true')).toBe(`${base}/int_1?stream=true`);
    expect(() => url('/v1beta/interactions/a/b/c')).toThrow('has no equivalent');
    expect(() => upstream({ dialect: 'gemini-interactions', apiKey: 'k' })).toThrow(/project.*gemini-interactions/);
  });

  it('a dialect path Vertex AI has no equivalent of is refused by name (and model lists are not asked)', () => {
    const u = upstream(regional);
    expect(() => urlOf(gemini('/v1beta/models?pageSize=1000'), { upstream: u, model: '' })).toThrow("Upstream 'v' (Vertex AI) has no equivalent of POST /v1beta/models.");
    expect(providerOf(u).listsModels).toBe(false);
  });
});

describe('Vertex AI encoder knobs', () => {
  it('Claude: model only in the URL (but in the count body), anthropic_version vertex-2023-10-16 in the body', () => {
    const u = upstream({ dialect: 'anthropic', project: 'p', location: 'us-east5', accessToken: 't' });
    expect(providerOf(u).options!({ upstream: u, model: 'm' })).toMatchObject({ modelInBody: false, countTokensModelInBody: true, anthropicVersionInBody: 'vertex-2023-10-16' });
  });

  it('Claude: only the betas Vertex AI documents are forwarded, extended by anthropicBetaAllow; the others dropped and reported', () => {
    const u = upstream({ dialect: 'anthropic', project: 'p', location: 'us-east5', accessToken: 't', anthropicBetaAllow: ['my-beta-*'] });
    const betas = ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07', 'files-api-2025-04-14', 'mcp-client-2025-04-04', 'my-beta-1'];
    const target: UpstreamTarget = { name: 'v', model: 'claude-sonnet-4-5@20250929', options: { anthropicBeta: betas, ...providerOf(u).options!({ upstream: u, model: 'm' }) } };
    const { value, warnings } = anthropicDialect.encodeRequest({ model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false }, target, testContext());
    expect(value.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,context-1m-2025-08-07,my-beta-1');
    expect(warnings).toEqual(expect.arrayContaining([
      { code: 'dropped', path: 'anthropic-beta', detail: 'files-api-2025-04-14', lossy: true },
      { code: 'dropped', path: 'anthropic-beta', detail: 'mcp-client-2025-04-04', lossy: true },
    ]));
    const plain = upstream({ dialect: 'anthropic', project: 'p', location: 'us-east5', accessToken: 't' });
    expect(providerOf(plain).options!({ upstream: plain, model: 'm' }).anthropicBetaAllow).toEqual([...VERTEX_BETAS]);
  });

  it('Gemini: countTokens takes its fields directly', () => {
    const u = upstream({ dialect: 'gemini', project: 'p', location: 'l', accessToken: 't' });
    expect(providerOf(u).options!({ upstream: u, model: 'm' })).toEqual({ countTokensBody: 'direct' });
  });
});

describe('Vertex AI credentials', () => {
  const noFetch: FetchLike = async () => {
    throw new Error('no token exchange expected');
  };

  it('an access token goes as a Bearer, replacing any key header; the placeholder stands for it until the call', async () => {
    const u = upstream({ dialect: 'gemini', project: 'p', location: 'l', accessToken: 'ya29.given' });
    const req = { ...gemini('/v1beta/models/m:generateContent'), headers: { 'content-type': 'application/json', 'x-goog-api-key': 'callers-key' } };
    expect(providerOf(u).headers!(req.headers, { upstream: u, model: 'm' })).toEqual({ 'content-type': 'application/json', authorization: TOKEN_PLACEHOLDER });
    const out = await outgoing(req, { upstream: u, model: 'm', fetch: noFetch, now: Date.now });
    expect(out.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer ya29.given' });
  });

  it('Claude: the Anthropic key header is dropped too', async () => {
    const u = upstream({ dialect: 'anthropic', project: 'p', location: 'l', accessToken: 'ya29.given' });
    const out = await outgoing({ ...anthropic('/v1/messages'), headers: { 'x-api-key': 'sk-ant-caller', 'anthropic-beta': 'b-1' } }, { upstream: u, model: 'm', fetch: noFetch, now: Date.now });
    expect(out.headers).toEqual({ 'anthropic-beta': 'b-1', authorization: 'Bearer ya29.given' });
  });

  it('express mode: the API key in x-goog-api-key, never in the URL, nothing fetched', async () => {
    const u = upstream({ dialect: 'gemini', apiKey: 'AIza-express' });
    const out = await outgoing({ ...gemini('/v1beta/models/m:streamGenerateContent?alt=sse', true), headers: { 'x-goog-api-key': 'whatever-the-translator-put' } }, { upstream: u, model: 'm', fetch: noFetch, now: Date.now });
    expect(out.headers).toEqual({ 'x-goog-api-key': 'AIza-express' });
    expect(out.url).toBe('https://aiplatform.googleapis.com/v1/publishers/google/models/m:streamGenerateContent?alt=sse');
    expect(providerOf(u).authorize).toBeUndefined();
  });

  it('a service account: its token fetched once and reused by later calls', async () => {
    const u = upstream({ dialect: 'gemini', project: 'p', location: 'l', credentials: serviceAccount });
    let exchanges = 0;
    const fetch: FetchLike = async (url) => {
      expect(url).toBe('https://oauth2.example.test/token');
      exchanges++;
      return Response.json({ access_token: 'ya29.minted', expires_in: 3599 });
    };
    for (let i = 0; i < 3; i++) {
      const out = await outgoing(gemini('/v1beta/models/m:generateContent'), { upstream: u, model: 'm', fetch, now: Date.now });
      expect(out.headers.authorization).toBe('Bearer ya29.minted');
    }
    expect(exchanges).toBe(1);
  });

  it('credentials that bypassed config loading fail the call clearly, naming the field and not the value', async () => {
    const u = { ...upstream({ dialect: 'gemini', project: 'p', location: 'l', accessToken: 't' }), accessToken: undefined, credentials: '{"private_key": "SECRET-KEY-MATERIAL"' };
    try {
      await vertex(u).authorize!({ method: 'POST', url: 'x', headers: {} }, { upstream: u, model: 'm', fetch: noFetch, now: Date.now });
      expect.fail('expected a failure');
    } catch (e) {
      expect(isProxyError(e) && e.status).toBe(500);
      expect((e as Error).message).toMatch(/upstreams\.v\.credentials: not valid JSON/);
      expect((e as Error).message).not.toContain('SECRET');
    }
  });
});
