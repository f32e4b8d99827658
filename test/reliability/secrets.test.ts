/**
 * Configured upstream headers are secrets: `env:` values are resolved like `apiKey`, sent
 * upstream, and never shown — not by dry-run (to any caller holding an inbound key), not in the
 * wire dump, not in log lines, not in an upstream error that echoes them.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { nodeFetch } from '../../src/runtime/node-client.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts';
import { INBOUND_KEY, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';

const HEADER_SECRET = 'hdr-secret-value-7f3a9c';
const ENV = { GATEWAY_TOKEN: HEADER_SECRET };

function config(mockUrl: string) {
  const cfg = e2eConfig(mockUrl);
  Object.assign(cfg.upstreams.openai, { headers: { 'X-Gateway-Token': 'env:GATEWAY_TOKEN', 'x-plain': 'not-a-secret-either' } });
  return cfg;
}

let mock: MockUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  mock = await startMockUpstream();
  proxy = await startProxy(config(mock.url), ENV);
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

describe('configured upstream headers', () => {
  it('resolves env: values and sends them upstream', async () => {
    mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'to-openai', messages: [{ role: 'user', content: 'Hi' }] });
    expect(mock.requests.at(-1)!.headers['x-gateway-token']).toBe(HEADER_SECRET);
  });

  it('a missing env: variable names the header, not a value', () => {
    expect(() => parseConfig(config('http://127.0.0.1:9'), {})).toThrow(/environment variable not set: GATEWAY_TOKEN \(upstreams\.openai\.headers\.X-Gateway-Token\)/);
  });

  it('dry-run masks every configured header value', async () => {
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
    const { data } = await client.messages
      .create({ model: 'to-openai', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }, { headers: { 'x-interlingua-dry-run': 'true' } })
      .withResponse();
    const text = JSON.stringify(data);
    expect(text).not.toContain(HEADER_SECRET);
    expect(text).not.toContain('not-a-secret-either');
    const headers = (data as unknown as { request: { headers: Record<string, string> } }).request.headers;
    expect(headers['X-Gateway-Token']).toBe('***');
    expect(headers['x-plain']).toBe('***');
    expect(headers.authorization).toBe('***');
  });

  it('an upstream error that echoes a configured header value is scrubbed', async () => {
    mock.reply((req) => ({
      status: 400,
      body: JSON.stringify({ error: { message: `bad gateway token ${req.headers['x-gateway-token']}`, type: 'invalid_request_error', param: null, code: null } }),
    }));
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const err = (await client.chat.completions.create({ model: 'to-openai', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(400);
    expect(err.message).toContain('bad gateway token ***');
    expect(JSON.stringify(err.error)).not.toContain(HEADER_SECRET);
  });

  it('no log line and no wire dump carries one', async () => {
    expect(proxy.logs.join('\n')).not.toContain(HEADER_SECRET);
    const dump: string[] = [];
    mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const cfg = parseConfig({ ...config(mock.url), log: { debug: true } }, ENV);
    const app = createApp({ config: cfg, fetch: nodeFetch, debugLog: (t) => dump.push(t), log: () => {} });
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'to-openai', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(dump.join('\n')).toContain('X-Gateway-Token');
    expect(dump.join('\n')).not.toContain(HEADER_SECRET);
  });
});

describe('named inbound keys with limits: the name is said, never the key', () => {
  const TEAM_KEY = 'il-team-key-SECRET-7d21c4';
  let otlp: OtlpReceiver;
  let p: RunningProxy;
  let m: MockUpstream;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    m = await startMockUpstream();
    const cfg = e2eConfig(m.url, {
      keys: [{ key: 'env:TEAM_KEY', name: 'team-a', limits: { requestsPerMinute: 2 } }],
      metrics: true,
      inspector: true,
      telemetry: { otlp: { endpoint: otlp.url, intervalMs: 20 } },
    });
    p = await startProxy(cfg, { TEAM_KEY });
  });
  afterAll(async () => {
    await p?.close();
    await m?.close();
    await otlp?.close();
  });

  it('in no log line, /metrics, span, 429 body, inspector page or exchange', async () => {
    const into = (Date.now() % 60_000) / 1000;
    if (into > 50) await new Promise((r) => setTimeout(r, (60 - into) * 1000 + 100));
    m.reply(fixtureReply('anthropic', 'text-basic.json'));
    const client = new OpenAI({ apiKey: TEAM_KEY, baseURL: `${p.url}/v1`, maxRetries: 0 });
    const ask = () => client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }] });
    await ask();
    await ask();
    const refused = (await ask().catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect(JSON.stringify(refused.error)).toContain('team-a');
    expect(JSON.stringify(refused.error)).not.toContain(TEAM_KEY);
    await otlp.waitFor((s) => s.kind === 2, 3);

    const auth = { authorization: `Bearer ${TEAM_KEY}` };
    const metrics = await (await fetch(`${p.url}/metrics`, { headers: auth })).text();
    expect(metrics).toContain('interlingua_key_requests_total{key="team-a"} 3');
    const list = (await (await fetch(`${p.url}/_inspector/api/exchanges`, { headers: auth })).json()) as { exchanges: Array<{ id: string; keyName?: string; cost?: number }> };
    expect(list.exchanges.some((e) => e.keyName === 'team-a' && typeof e.cost === 'number')).toBe(true);
    const details = await Promise.all(list.exchanges.map(async (e) => (await fetch(`${p.url}/_inspector/api/exchanges/${e.id}`, { headers: auth })).text()));
    const page = await (await fetch(`${p.url}/_inspector?key=${TEAM_KEY}`)).text();
    expect(p.logs.join('\n')).toContain('"keyName":"team-a"');
    for (const [where, text] of Object.entries({ logs: p.logs.join('\n'), metrics, spans: JSON.stringify(otlp.posts), exchanges: JSON.stringify(list), details: details.join('\n'), page })) {
      expect(text, where).not.toContain(TEAM_KEY);
    }
  });
});
