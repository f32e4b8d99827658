/**
 * A streamed Responses answer toward a stateless upstream is stored before its terminal event
 * reaches the caller: with a slow store (Redis or KV far away), a caller that sends its next turn
 * the moment it reads `response.completed` still finds it, and on Workers the write finishes
 * while the response is open. Both stream drivers: the Node server's socket pipe and the Web
 * stream (Workers, Hono), the official `openai` SDK reading. And a store that fails to write: the
 * answer is still served, the failure is said (header, log line, metric).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProxy, memoryStateStore, type StateStore } from '../../src/app.ts';
import type { LogEntry } from '../../src/observe/log-entry.ts';
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

/** A store whose every write fails (Redis gone away while reads still answered from a replica). */
function failingStore(): StateStore {
  const inner = memoryStateStore();
  return { kind: 'redis', get: (k) => inner.get(k), put: async () => Promise.reject(new Error('READONLY You can’t write against a read only replica.')), delete: (k) => inner.delete(k) };
}

describe('a store that fails to keep an answer', () => {
  let mock: MockUpstream;
  let server: http.Server;
  const logs: LogEntry[] = [];
  let proxy: ReturnType<typeof createProxy>;
  beforeAll(async () => {
    mock = await startMockUpstream();
    proxy = createProxy({ config: parseConfig(e2eConfig(mock.url, { metrics: true })), fetch: nodeFetch, stateStore: failingStore(), log: (e) => logs.push(e) });
    server = http.createServer(createNodeListener(proxy));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await mock.close();
  });
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = () => new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${base()}/v1`, maxRetries: 0 });
  /** What /metrics counts of answers not kept. */
  const notStoredCount = async () => {
    const text = await (await fetch(`${base()}/metrics`, { headers: { authorization: `Bearer ${INBOUND_KEY}` } })).text();
    return Number(/^interlingua_state_write_failures_total\{caller="openai-responses",store="redis"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  it('a JSON answer is served and says so in x-interlingua-warnings; the log line and /metrics count it', async () => {
    mock.reply(anthropic.text('Served anyway.', false));
    const { data, response } = await client().responses.create({ model: 'to-anthropic', input: 'Hi' }).withResponse();
    expect(data.output_text).toBe('Served anyway.');
    expect(response.headers.get('x-interlingua-warnings')).toBe('not-stored:redis');
    expect(logs.at(-1)).toMatchObject({ status: 200, warnings: ['not-stored:redis'] });
    expect(JSON.stringify(logs)).not.toContain('READONLY');
    expect(await notStoredCount()).toBeGreaterThanOrEqual(1);
    // Continuing from it is the unknown-id answer: it was not kept.
    const next = await client().responses.create({ model: 'to-anthropic', previous_response_id: data.id, input: 'x' }).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('a stream is served whole, its terminal event last; the log line and /metrics count it (its headers were out already)', async () => {
    mock.reply(anthropic.text('Streamed anyway.', true));
    const before = logs.length;
    const counted = await notStoredCount();
    const seen: string[] = [];
    for await (const e of await client().responses.create({ model: 'to-anthropic', input: 'Hi', stream: true })) seen.push(e.type);
    expect(seen.at(-1)).toBe('response.completed');
    // The log line is written as the stream closes, which may be just after the client read its end.
    await vi.waitFor(() => expect(logs).toHaveLength(before + 1));
    expect(logs.at(-1)).toMatchObject({ status: 200, warnings: ['not-stored:redis'] });
    expect(await notStoredCount()).toBe(counted + 1);
  });
});
