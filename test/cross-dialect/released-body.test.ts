/**
 * A translated request lets go of the caller's body once it is planned: the upstream is called
 * with the caller's bytes no longer held (one copy less per request in flight; docs/performance.md, At agent
 * scale). A request that forwards the caller's own body keeps it.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { registry } from '../../translators/index.ts';
import type { CallerInput } from '../../translators/types.ts';
import { e2eConfig, INBOUND_KEY } from '../support/proxy.ts';
import { fixtureText } from '../support/fixtures.ts';

let input: CallerInput | undefined;
const openai = registry.chatCallers['openai-chat'];
const watching = { ...registry, chatCallers: { ...registry.chatCallers, 'openai-chat': { ...openai, decodeRequest: (i: CallerInput, ctx: Parameters<typeof openai.decodeRequest>[1]) => ((input = i), openai.decodeRequest(i, ctx)) } } };
/** At the upstream call: whether the caller's body could still be read. */
const readable: boolean[] = [];
const app = createApp({
  config: parseConfig(e2eConfig('http://127.0.0.1:9', {})),
  registry: watching as typeof registry,
  fetch: async (url) => {
    let ok = true;
    try {
      void input!.body;
    } catch {
      ok = false;
    }
    readable.push(ok);
    return new Response(fixtureText(String(url).includes('/v1/messages') ? 'anthropic' : 'openai-chat', 'text-basic.json'), { headers: { 'content-type': 'application/json' } });
  },
});

async function chat(model: string): Promise<number> {
  const r = await app.request('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }) });
  await r.arrayBuffer();
  return r.status;
}

describe('the caller body, once a request is planned', () => {
  it('translated for every target: let go before the upstream is called', async () => {
    readable.length = 0;
    expect(await chat('to-anthropic')).toBe(200);
    expect(readable).toEqual([false]);
  });

  it('passed through to its own dialect: kept', async () => {
    readable.length = 0;
    expect(await chat('to-openai')).toBe(200);
    expect(readable).toEqual([true]);
  });
});
