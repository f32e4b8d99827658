/**
 * A streamed Responses answer toward a stateless upstream is stored before its terminal event
 * reaches the caller: with a slow store (Redis or KV far away), a caller that sends its next turn
 * the moment it reads `response.completed` still finds it, and on Workers the write finishes
 * while the response is open. Both stream drivers: the Node server's socket pipe and the Web
 * stream (Workers, Hono), the official `openai` SDK reading.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, memoryStateStore, type StateStore } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { nodeFetch } from '../../src/runtime/node-client.ts';
import { createNodeListener } from '../../src/runtime/node-server.ts';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, e2eConfig } from '../support/proxy.ts';
import { UPSTREAMS } from './responses-helpers.ts';

const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;

/** A memory store whose writes take `ms`; `stored` says which keys a write has finished for. */
function slowStore(ms: number): StateStore & { stored: Set<string> } {
  const inner = memoryStateStore();
  const stored = new Set<string>();
  return {
    kind: 'memory',
    stored,
    get: (k) => inner.get(k),
    put: async (k, v, ttl) => {
      await new Promise((r) => setTimeout(r, ms));
      await inner.put(k, v, ttl);
      stored.add(k);
    },
    delete: (k) => inner.delete(k),
  };
}

describe('a streamed answer is stored before its terminal event', () => {
  let mock: MockUpstream;
  let server: http.Server;
  const store = slowStore(300);
  let proxy: ReturnType<typeof createProxy>;
  beforeAll(async () => {
    mock = await startMockUpstream();
    proxy = createProxy({ config: parseConfig(e2eConfig(mock.url)), fetch: nodeFetch, stateStore: store });
    server = http.createServer(createNodeListener(proxy));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await mock.close();
  });

  const drivers: Array<[string, () => OpenAI]> = [
    ['Node server (socket pipe)', () => new OpenAI({ apiKey: INBOUND_KEY, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, maxRetries: 0 })],
    [
      'Web stream (Workers, Hono)',
      () => new OpenAI({ apiKey: INBOUND_KEY, baseURL: 'http://proxy.test/v1', maxRetries: 0, fetch: async (url, init) => proxy.app.request(String(url), init as RequestInit) }),
    ],
  ];

  it.each(drivers)('%s: response.completed arrives only once the answer is kept', async (_name, make) => {
    const client = make();
    mock.reply(anthropic.text('Kept first.', true));
    const seen: string[] = [];
    let keptAtTerminal: boolean | undefined;
    let id = '';
    for await (const e of await client.responses.create({ model: 'to-anthropic', input: 'Hi', stream: true })) {
      seen.push(e.type);
      if (e.type === 'response.completed') {
        id = e.response.id;
        // Kept under the caller's identity (a hash, never the key): `{identity}:resp:{id}`.
        keptAtTerminal = [...store.stored].some((k) => /^[0-9a-f]{32}:resp:/.test(k) && k.endsWith(`:resp:${id}`));
      }
    }
    expect(seen.at(-1)).toBe('response.completed');
    expect(keptAtTerminal).toBe(true);
    // Every output item was kept too.
    expect(store.stored.size).toBeGreaterThanOrEqual(2);

    mock.requests.length = 0;
    mock.reply(anthropic.text('ok', false));
    await client.responses.create({ model: 'to-anthropic', previous_response_id: id, input: 'Next' });
    expect(mock.requests[0]!.json.messages).toHaveLength(3);
  });
});
