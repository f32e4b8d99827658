/**
 * Every key of a pool is a secret, not only the first one a request is planned with: none is
 * shown by dry-run, written to a log line, the wire dump or /metrics, or echoed back in an
 * upstream error, whichever key the request was sent with; the inspector's secret list holds
 * them all. Cooled keys appear on the log line by position and fingerprint only.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { nodeFetch } from '../../src/runtime/node-client.ts';
import { configSecretValues } from '../../src/upstream/secrets.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, startProxy, type RunningProxy } from '../support/proxy.ts';

const POOL = ['sk-pool-secret-zero-0000000000', 'sk-pool-secret-one-1111111111', 'sk-pool-secret-two-2222222222'];
const ENV = { POOL_0: POOL[0]!, POOL_1: POOL[1]!, POOL_2: POOL[2]! };

function config(mockUrl: string, extra: Record<string, unknown> = {}) {
  return {
    keys: [INBOUND_KEY],
    metrics: true,
    upstreams: { pool: { dialect: 'openai', baseUrl: `${mockUrl}/v1`, apiKey: ['env:POOL_0', 'env:POOL_1', 'env:POOL_2'], apiKeyStrategy: 'fill-first', retry: { attempts: 1 } } },
    models: { '*': { upstream: 'pool', model: 'gpt-4o-mini' } },
    ...extra,
  };
}

const keyOf = (h: Record<string, unknown>) => String(h.authorization).replace(/^Bearer /, '');
/** The first key 429s; the second answers 400 echoing the key it got; the third answers. */
const echoing = (req: { headers: Record<string, unknown> }) => {
  const key = keyOf(req.headers);
  if (key === POOL[0]) return { status: 429, body: JSON.stringify({ error: { message: `Rate limit reached for key ${key}.`, type: 'requests', code: 'rate_limit_exceeded' } }) };
  if (key === POOL[1]) return { status: 400, body: JSON.stringify({ error: { message: `Key ${key} may not use this model.`, type: 'invalid_request_error', param: null, code: null } }) };
  return fixtureReply('openai-chat', 'text-basic.json');
};

let mock: MockUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  mock = await startMockUpstream();
  mock.reply(echoing);
  proxy = await startProxy(config(mock.url), ENV);
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

const client = () => new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
const ask = () => client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });

describe('the keys of a pool', () => {
  it('an upstream error echoing the key it was sent (the second of the pool) is scrubbed', async () => {
    const err = (await ask().catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(mock.requests.map((r) => keyOf(r.headers))).toEqual([POOL[0], POOL[1]]);
    expect(err.status).toBe(400);
    expect(err.message).toContain('Key *** may not use this model.');
    expect(JSON.stringify(err.error)).not.toMatch(/sk-pool-secret/);
  });

  it('dry-run shows the planned key masked', async () => {
    const res = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json', 'x-interlingua-dry-run': 'true' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    const text = await res.text();
    expect(JSON.parse(text).request.headers.authorization).toBe('***');
    for (const k of POOL) expect(text).not.toContain(k);
  });

  it('/metrics and the log lines hold none; cooldowns are logged by position and fingerprint', async () => {
    const metrics = await (await fetch(`${proxy.url}/metrics`, { headers: { authorization: `Bearer ${INBOUND_KEY}` } })).text();
    expect(metrics).toContain('interlingua_');
    const logs = proxy.logs.join('\n');
    for (const k of POOL) {
      expect(metrics).not.toContain(k);
      expect(logs).not.toContain(k);
    }
    expect(logs).toMatch(/"keyCooldowns":\["pool apiKey\[0\]#[0-9a-f]{12} 429, 60 s"\]/);
  });

  it('the wire dump of a request that moved to the next key holds no key of the pool', async () => {
    const dump: string[] = [];
    const app = createApp({ config: parseConfig(config(mock.url, { log: { debug: true } }), ENV), fetch: nodeFetch, debugLog: (t) => dump.push(t), log: () => {} });
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(400);
    expect(dump.join('\n')).toContain('Key *** may not use this model.');
    for (const k of POOL) expect(dump.join('\n')).not.toContain(k);
  });

  it('are all on the one secret list (the inspector scrubs with it)', () => {
    expect(configSecretValues(parseConfig(config('http://127.0.0.1:9'), ENV))).toEqual(expect.arrayContaining(POOL));
  });
});
