/**
 * The provider contract (src/upstream/providers/types.ts `Provider`), run unchanged against every
 * provider — the plain upstream of each dialect, Azure (v1, deployments, Responses), Vertex AI
 * (Gemini, Claude, Interactions, express mode), Bedrock (SigV4, API key) and every
 * OpenAI-compatible host — through the whole proxy (an OpenAI Chat caller, the provider's
 * upstream faked at `fetch`):
 *
 * - the request goes to the configured host, nowhere else;
 * - each credential goes where the host takes it, once, and nowhere else (not the URL, the body or
 *   another header; SigV4's secret key nowhere at all);
 * - an upstream error reaches the caller as the plain upstream of the same dialect would have it
 *   (same status), and no secret the upstream echoes back, in JSON or an HTML page, reaches it.
 *
 * That a caller's model name stays inside its URL segment, for every provider that builds its own
 * URL, is test/conformance/upstream-url.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createProxy } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { COMPATIBLE_PROVIDERS } from '../../src/config/provider-names.ts';
import { ProxyError } from '../../src/canonical/index.ts';
import { registry } from '../../translators/index.ts';

const INBOUND = 'il-inbound-key-0123456789';
const KEY = 'sk-provider-secret-0123456789';
const TOKEN = 'ya29.provider-access-token-0123456789';
const AWS = { accessKeyId: 'AKIAPROVIDEREXAMPLE1', secretAccessKey: 'wJalrXUtnFEMI/provider/SECRETKEYEXAMPLE', sessionToken: 'FwoGZXIvYXdzEXAMPLEprovidersession//+=' };

interface Case {
  cfg: Record<string, unknown>;
  /** Secret value → the headers that may carry it (empty: none may; it is only signed with). */
  credentials: Record<string, string[]>;
  /** The host's own error format, where it is not the dialect's (`Provider.errorBody` reads it). */
  hostError?: (status: number, message: string) => Response;
}

/** AWS's error shape: `{"message"}` and the exception's name in `x-amzn-errortype`. */
const awsError = (status: number, message: string) => {
  const type = ({ 400: 'ValidationException', 401: 'UnrecognizedClientException', 403: 'AccessDeniedException', 404: 'ResourceNotFoundException', 429: 'ThrottlingException', 503: 'ServiceUnavailableException' } as Record<number, string>)[status] ?? 'InternalServerException';
  return new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json', 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` } });
};

const https = 'https://up.example:8443/gw';
const key = (header: string): Case['credentials'] => ({ [KEY]: [header] });
const cases: Array<[string, Case]> = [
  ['plain openai', { cfg: { dialect: 'openai', baseUrl: `${https}/v1`, apiKey: KEY }, credentials: key('authorization') }],
  ['plain anthropic', { cfg: { dialect: 'anthropic', baseUrl: https, apiKey: KEY }, credentials: key('x-api-key') }],
  ['plain gemini', { cfg: { dialect: 'gemini', baseUrl: https, apiKey: KEY }, credentials: key('x-goog-api-key') }],
  ['plain openai-responses', { cfg: { dialect: 'openai-responses', baseUrl: `${https}/v1`, apiKey: KEY }, credentials: key('authorization') }],
  ['plain gemini-interactions', { cfg: { dialect: 'gemini-interactions', baseUrl: https, apiKey: KEY }, credentials: key('x-goog-api-key') }],
  ['azure v1', { cfg: { provider: 'azure', dialect: 'openai', baseUrl: 'https://res.openai.azure.com', apiKey: KEY }, credentials: key('api-key') }],
  ['azure deployment', { cfg: { provider: 'azure', dialect: 'openai', apiVersion: '2024-10-21', baseUrl: 'https://res.openai.azure.com', apiKey: KEY }, credentials: key('api-key') }],
  ['azure openai-responses', { cfg: { provider: 'azure', dialect: 'openai-responses', baseUrl: 'https://res.openai.azure.com', apiKey: KEY }, credentials: key('api-key') }],
  ['vertex gemini', { cfg: { provider: 'vertex', dialect: 'gemini', project: 'p', location: 'us-central1', accessToken: TOKEN }, credentials: { [TOKEN]: ['authorization'] } }],
  ['vertex claude', { cfg: { provider: 'vertex', dialect: 'anthropic', project: 'p', location: 'europe-west1', accessToken: TOKEN }, credentials: { [TOKEN]: ['authorization'] } }],
  ['vertex interactions', { cfg: { provider: 'vertex', dialect: 'gemini-interactions', project: 'p', location: 'us-central1', accessToken: TOKEN }, credentials: { [TOKEN]: ['authorization'] } }],
  ['vertex express', { cfg: { provider: 'vertex', dialect: 'gemini', apiKey: KEY }, credentials: key('x-goog-api-key') }],
  [
    'bedrock SigV4',
    {
      cfg: { provider: 'bedrock', dialect: 'anthropic', region: 'us-east-1', ...AWS },
      credentials: { [AWS.accessKeyId]: ['authorization'], [AWS.sessionToken]: ['x-amz-security-token'], [AWS.secretAccessKey]: [] },
      hostError: awsError,
    },
  ],
  ['bedrock API key', { cfg: { provider: 'bedrock', dialect: 'anthropic', region: 'eu-west-1', apiKey: KEY }, credentials: key('authorization'), hostError: awsError }],
  ...COMPATIBLE_PROVIDERS.map((name): [string, Case] => [name, { cfg: { provider: name, dialect: 'openai', apiKey: KEY }, credentials: key('authorization') }]),
];

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}
type Answer = (sent: Sent) => Response;

function proxyFor(cfg: Record<string, unknown>, answer: Answer) {
  const config = parseConfig({ keys: [INBOUND], upstreams: { up: { ...cfg, retry: { attempts: 1 } } }, models: { '*': { upstream: 'up', model: 'the-model' } } });
  const sent: Sent[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const s = { url, headers, body: typeof init.body === 'string' ? init.body : init.body ? new TextDecoder().decode(init.body as Uint8Array) : '' };
    sent.push(s);
    return answer(s);
  };
  const proxy = createProxy({ config, fetch: fetch as never });
  const chat = async (stream = false) => {
    const res = await proxy.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${INBOUND}` },
      body: JSON.stringify({ model: 'caller-model', messages: [{ role: 'user', content: 'hi' }], stream }),
    });
    return { status: res.status, body: await res.text() };
  };
  return { upstream: config.upstreams.up!, sent, chat };
}

/** The upstream's error in its dialect's own envelope, its message echoing the credentials it was given. */
function echoingError(cfg: Record<string, unknown>, status: number, echoed: string[]): Answer {
  const d = registry.chatUpstreams[cfg.dialect as keyof typeof registry.chatUpstreams];
  const kind = status === 401 ? 'authentication' : status === 403 ? 'permission' : status === 404 ? 'not-found' : status === 429 ? 'rate-limit' : status >= 500 ? 'upstream' : 'invalid-request';
  const secrets = echoed.join(' ');
  return () => {
    const enc = (d as unknown as { encodeError?: (e: ProxyError) => { body: unknown } }).encodeError?.(new ProxyError(kind, `Refused: ${secrets}`, { status }));
    return new Response(JSON.stringify(enc?.body ?? { error: { message: `Refused: ${secrets}` } }), { status, headers: { 'content-type': 'application/json' } });
  };
}

const allSecrets = [KEY, TOKEN, AWS.accessKeyId, AWS.secretAccessKey, AWS.sessionToken];
const plainOf = (dialect: string) => cases.find(([n]) => n === `plain ${dialect}`)![1];

describe.each(cases)('provider: %s', (_name, c) => {
  const okAnswer: Answer = () => new Response('{}', { status: 599 });

  it('sends to the configured host only', async () => {
    const p = proxyFor(c.cfg, okAnswer);
    await p.chat();
    expect(p.sent.length).toBeGreaterThan(0);
    const base = new URL(p.upstream.baseUrl);
    for (const s of p.sent) {
      const u = new URL(s.url);
      expect(u.origin).toBe(base.origin);
      expect(u.username + u.password).toBe('');
      expect(u.hash).toBe('');
    }
  });

  it('each credential goes in its header, once, and nowhere else', async () => {
    const p = proxyFor(c.cfg, okAnswer);
    await p.chat();
    const s = p.sent[0]!;
    expect(s.url).not.toContain(INBOUND);
    for (const [secret, allowed] of Object.entries(c.credentials)) {
      expect(s.url, 'in the URL').not.toContain(secret);
      expect(s.body, 'in the body').not.toContain(secret);
      const carrying = Object.entries(s.headers).filter(([, v]) => v.includes(secret)).map(([k]) => k);
      expect(carrying).toEqual(allowed);
    }
    for (const secret of allSecrets.filter((x) => !(x in c.credentials))) expect(JSON.stringify(s)).not.toContain(secret);
    expect(JSON.stringify(s), 'the caller’s own key').not.toContain(INBOUND);
  });

  it.each([400, 401, 403, 404, 429, 500, 503])('an upstream %i reaches the caller as from the plain upstream, without a secret', async (status) => {
    const mine = Object.keys(c.credentials);
    const p = proxyFor(c.cfg, echoingError(c.cfg, status, mine));
    const plain = proxyFor(plainOf(c.cfg.dialect as string).cfg, echoingError(c.cfg, status, [KEY]));
    const [got, ref] = [await p.chat(), await plain.chat()];
    expect(got.status).toBe(ref.status);
    expect(got.body).toContain('Refused');
    for (const secret of mine) expect(got.body).not.toContain(secret);
    const streamed = await p.chat(true);
    for (const secret of mine) expect(streamed.body).not.toContain(secret);
    if (!c.hostError) return;
    // The host's own format, read by its provider, the same.
    const own = await proxyFor(c.cfg, () => c.hostError!(status, `Refused: ${mine.join(' ')}`)).chat();
    expect(own.status).toBe(ref.status);
    expect(own.body).toContain('Refused');
    for (const secret of mine) expect(own.body).not.toContain(secret);
  });

  it('an HTML error page is an error in the caller’s shape, without a secret', async () => {
    const page = `<html><body>502 Bad Gateway ${Object.keys(c.credentials).join(' ')}</body></html>`;
    const p = proxyFor(c.cfg, () => new Response(page, { status: 502, headers: { 'content-type': 'text/html' } }));
    const got = await p.chat();
    expect(got.status).toBeGreaterThanOrEqual(500);
    expect(JSON.parse(got.body).error).toBeDefined();
    for (const secret of allSecrets) expect(got.body).not.toContain(secret);
  });
});
