/**
 * A chat request's route is resolved once (src/upstream/resolve.ts `requestRoutes`): the fast path,
 * the stored-state rules and the chat flow ask for the same model's route and share the one
 * resolution, whichever way the request goes (forwarded, decoded after a failed forward, stateful).
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { FORWARD_MIN_BYTES } from '../../src/flows/forward/index.ts';
import { e2eConfig, INBOUND_KEY } from '../support/proxy.ts';
import { fixtureText } from '../support/fixtures.ts';

const config = parseConfig(e2eConfig('http://127.0.0.1:9', {}));
/** How often the route table was asked for each model name. */
const asked = new Map<string, number>();
const exact = config.exact;
const get = exact.get.bind(exact);
exact.get = (model: string) => (asked.set(model, (asked.get(model) ?? 0) + 1), get(model));

const app = createApp({
  config,
  fetch: async (url) => new Response(fixtureText(String(url).includes('/v1/messages') ? 'anthropic' : 'openai-chat', 'text-basic.json'), { headers: { 'content-type': 'application/json' } }),
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
  asked.clear();
  const r = await app.request(path, { method: 'POST', headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return r.status;
}

const long = 'x'.repeat(FORWARD_MIN_BYTES);

describe('a chat request resolves its route once', () => {
  it('forwarded (the model read before and after the scan)', async () => {
    const body = { model: 'to-anthropic', max_tokens: 10, messages: [{ role: 'user', content: long }] };
    expect(await post('/v1/messages', body, { 'anthropic-version': '2023-06-01' })).toBe(200);
    expect(asked.get('to-anthropic')).toBe(1);
  });

  it('decoded after the fast path looked at it (a target of another dialect)', async () => {
    expect(await post('/v1/chat/completions', { model: 'to-anthropic', messages: [{ role: 'user', content: long }] })).toBe(200);
    expect(asked.get('to-anthropic')).toBe(1);
  });

  it('stateful (Responses toward another dialect: its references looked up, then planned)', async () => {
    expect(await post('/v1/responses', { model: 'to-anthropic', input: 'hi', store: false })).toBe(200);
    expect(asked.get('to-anthropic')).toBe(1);
  });
});
