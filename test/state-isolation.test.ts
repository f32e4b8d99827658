/**
 * State belongs to its caller, on every store (memory, Workers KV through its interface, a real
 * Redis): with two inbound keys, what key A kept, key B cannot read, list, continue (by
 * `previous_response_id`, `item_reference`, `previous_interaction_id`), delete or cancel. Each of
 * B's attempts is answered exactly as an id nobody kept (the same status and body, but for the id
 * it names), with the same store traffic (one read) and no upstream call; A's state is intact
 * after. No stored key name or value holds either key. Without `keys`, two forwarded credentials
 * are two callers the same way; callers with no credential at all are one anonymous caller.
 *
 * This suite fails when the scoping is taken out of src/upstream/state-scope.ts.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, kvStateStore, memoryStateStore, type KvNamespaceLike, type StateStore } from '../src/app.ts';
import { parseConfig } from '../src/config/load.ts';
import { redisStateStore, type RedisStateStore } from '../src/runtime/redis-store.ts';
import { UPSTREAMS } from './e2e/responses-helpers.ts';
import type { MockReply } from './support/mock-upstream.ts';
import { e2eConfig } from './support/proxy.ts';
import { startRedis, type RunningRedis } from './support/redis.ts';

const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;
const KEY_A = 'il-key-A-0123456789abcdef';
const KEY_B = 'il-key-B-fedcba9876543210';

/** A store that counts its calls and shows every key and value written. */
function watched(inner: StateStore): StateStore & { calls: string[]; written: string[] } {
  const calls: string[] = [];
  const written: string[] = [];
  return {
    kind: inner.kind,
    calls,
    written,
    get: (k) => (calls.push('get'), inner.get(k)),
    put: (k, v, t) => (calls.push('put'), written.push(k, v), inner.put(k, v, t)),
    delete: (k) => (calls.push('delete'), inner.delete(k)),
  };
}

function fakeKv(): KvNamespaceLike {
  const m = new Map<string, string>();
  return { get: async (k) => m.get(k) ?? null, put: async (k, v) => void m.set(k, v), delete: async (k) => void m.delete(k) };
}

/** An injected upstream: Anthropic answers, every call counted with the credential it carried. */
function upstream() {
  const calls: Array<{ url: string; body: any; headers: Headers }> = [];
  let next: MockReply = anthropic.text('Answer.', false);
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)), headers: new Headers(init.headers) });
    return new Response((next.body ?? next.chunks!.join('')) as string, { status: next.status ?? 200, headers: next.headers });
  };
  return { calls, fetch, reply: (r: MockReply) => (next = r) };
}

type Call = { status: number; body: string };

function proxyOver(store: StateStore, configOver: Record<string, unknown> = {}) {
  const up = upstream();
  const config = parseConfig(e2eConfig('http://upstream.test', { keys: [KEY_A, KEY_B], ...configOver }));
  const proxy = createProxy({ config, fetch: up.fetch as never, stateStore: store });
  const send = async (key: string | undefined, method: string, path: string, body?: unknown, place: 'bearer' | 'goog' = 'bearer'): Promise<Call> => {
    const auth: Record<string, string> = key ? (place === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-goog-api-key': key }) : {};
    const res = await proxy.app.request(path, {
      method,
      // The same request id everywhere: bodies that name it compare equal.
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_same', ...auth },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.text() };
  };
  return { up, send };
}

/** `call`'s answer with the id it names written as ID: what an unknown id answers must equal it. */
const naming = (c: Call, id: string) => ({ status: c.status, body: c.body.split(id).join('ID') });

/** A fresh id of the same shape that nobody kept. */
const unknownLike = (id: string) => id.slice(0, -6) + 'zzzzzz';

function isolated(name: string, make: () => StateStore | Promise<StateStore>) {
  describe(name, () => {
    let store: ReturnType<typeof watched>;
    let p: ReturnType<typeof proxyOver>;
    beforeAll(async () => {
      store = watched(await make());
      p = proxyOver(store);
    });

    /** B's attempt on A's id answers as on an unknown id: same status and body, one store read each, no upstream call. */
    async function sameAsUnknown(id: string, attempt: (id: string) => Promise<Call>): Promise<Call> {
      const calls = p.up.calls.length;
      store.calls.length = 0;
      const theirs = await attempt(id);
      const readsTheirs = [...store.calls];
      store.calls.length = 0;
      const nobodys = await attempt(unknownLike(id));
      expect(naming(theirs, id)).toEqual(naming(nobodys, unknownLike(id)));
      expect(readsTheirs).toEqual(store.calls);
      expect(theirs.status).toBeGreaterThanOrEqual(400);
      expect(p.up.calls.length).toBe(calls);
      return theirs;
    }

    it('Responses: B cannot read, list, continue, reference, delete or cancel what A kept', async () => {
      p.up.reply(anthropic.text('Secret of A.', false));
      const made = await p.send(KEY_A, 'POST', '/v1/responses', { model: 'to-anthropic', input: 'A private question' });
      expect(made.status).toBe(200);
      const r = JSON.parse(made.body);
      const item = r.output[0].id as string;

      const get = await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'GET', `/v1/responses/${id}`));
      expect(get.status).toBe(404);
      const list = await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'GET', `/v1/responses/${id}/input_items`));
      expect(list.body).not.toContain('A private question');
      const cont = await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'POST', '/v1/responses', { model: 'to-anthropic', previous_response_id: id, input: 'more' }));
      expect(JSON.parse(cont.body).error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
      const ref = await sameAsUnknown(item, (id) => p.send(KEY_B, 'POST', '/v1/responses', { model: 'to-anthropic', input: [{ type: 'item_reference', id }, { role: 'user', content: 'x' }] }));
      expect(JSON.parse(ref.body).error).toMatchObject({ code: 'item_not_found' });
      const tokens = await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'POST', '/v1/responses/input_tokens', { model: 'to-anthropic', previous_response_id: id, input: 'more' }));
      expect(JSON.parse(tokens.body).error).toMatchObject({ code: 'previous_response_not_found' });
      await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'POST', `/v1/responses/${id}/cancel`));
      await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'DELETE', `/v1/responses/${id}`));

      // A's state is whole: it reads, lists and continues it.
      expect((await p.send(KEY_A, 'GET', `/v1/responses/${r.id}`)).status).toBe(200);
      expect((await p.send(KEY_A, 'GET', `/v1/responses/${r.id}/input_items`)).body).toContain('A private question');
      p.up.reply(anthropic.text('More for A.', false));
      expect((await p.send(KEY_A, 'POST', '/v1/responses', { model: 'to-anthropic', previous_response_id: r.id, input: 'more' })).status).toBe(200);
      expect(JSON.stringify(p.up.calls.at(-1)!.body.messages)).toContain('Secret of A.');
    });

    it('Interactions: B cannot read, continue, delete or cancel what A kept', async () => {
      p.up.reply(anthropic.text('Interaction of A.', false));
      const made = await p.send(KEY_A, 'POST', '/v1beta/interactions', { model: 'to-anthropic', input: 'A private step' }, 'goog');
      expect(made.status).toBe(200);
      const id = JSON.parse(made.body).id as string;

      const get = await sameAsUnknown(id, (x) => p.send(KEY_B, 'GET', `/v1beta/interactions/${x}`, undefined, 'goog'));
      expect(get.status).toBe(404);
      await sameAsUnknown(id, (x) => p.send(KEY_B, 'POST', '/v1beta/interactions', { model: 'to-anthropic', previous_interaction_id: x, input: 'more' }, 'goog'));
      await sameAsUnknown(id, (x) => p.send(KEY_B, 'POST', `/v1beta/interactions/${x}/cancel`, undefined, 'goog'));
      await sameAsUnknown(id, (x) => p.send(KEY_B, 'DELETE', `/v1beta/interactions/${x}`, undefined, 'goog'));

      const mine = await p.send(KEY_A, 'GET', `/v1beta/interactions/${id}`, undefined, 'goog');
      expect(mine.status).toBe(200);
      expect(mine.body).toContain('A private step');
    });

    it('no stored key name or value holds a key', () => {
      expect(store.written.length).toBeGreaterThan(0);
      for (const text of store.written) {
        expect(text).not.toContain(KEY_A);
        expect(text).not.toContain(KEY_B);
      }
    });
  });
}

isolated('memory store', () => memoryStateStore());
isolated('Workers KV store (its interface)', () => kvStateStore(fakeKv()));

describe('Redis store (a real redis-server)', () => {
  let redis: RunningRedis;
  let store: RedisStateStore | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });
  isolated('two keys on one Redis', () => (store = redisStateStore(redis.url, 'iso:')));
});

describe('without keys', () => {
  const open = {
    keys: [],
    open: true,
    upstreams: { anthropic: { dialect: 'anthropic', baseUrl: 'http://upstream.test', retry: { attempts: 1 } } },
    models: { 'to-anthropic': { upstream: 'anthropic', model: 'claude-sonnet-4-5' } },
  };

  it('two forwarded credentials are two callers; the credential goes upstream, never into the store', async () => {
    const store = watched(memoryStateStore());
    const p = proxyOver(store, open);
    const made = await p.send('sk-ant-caller-one-0000', 'POST', '/v1/responses', { model: 'to-anthropic', input: 'one' });
    expect(made.status).toBe(200);
    expect(p.up.calls[0]!.headers.get('x-api-key')).toBe('sk-ant-caller-one-0000');
    const id = JSON.parse(made.body).id as string;
    expect((await p.send('sk-ant-caller-two-0000', 'GET', `/v1/responses/${id}`)).status).toBe(404);
    expect((await p.send('sk-ant-caller-one-0000', 'GET', `/v1/responses/${id}`)).status).toBe(200);
    expect(store.written.join('\n')).not.toContain('sk-ant-caller-one-0000');
  });

  it('callers with no credential share one anonymous identity', async () => {
    const store = watched(memoryStateStore());
    const p = proxyOver(store, { ...open, upstreams: { anthropic: { ...open.upstreams.anthropic, apiKey: 'sk-ant-upstream-own' } } });
    const made = await p.send(undefined, 'POST', '/v1/responses', { model: 'to-anthropic', input: 'anon' });
    expect(made.status).toBe(200);
    const id = JSON.parse(made.body).id as string;
    expect((await p.send(undefined, 'GET', `/v1/responses/${id}`)).status).toBe(200);
    expect((await p.send('sk-ant-someone', 'GET', `/v1/responses/${id}`)).status).toBe(404);
    expect(store.written.filter((_, i) => i % 2 === 0).every((k) => k.startsWith('anonymous:'))).toBe(true);
  });
});

describe('references that resolve to nothing', () => {
  it('are a 400 in the caller’s shape naming input, and nothing goes upstream (Responses, Interactions)', async () => {
    const store = memoryStateStore();
    const identity = createHmac('sha256', 'the-secret').update(KEY_A).digest('hex').slice(0, 32);
    // Kept once with no input and no output (nothing refuses that any more, but it may still be kept).
    await store.put(`${identity}:resp:resp_emptyOne`, JSON.stringify({ response: { id: 'resp_emptyOne', output: [] }, input: [] }), 60);
    await store.put(`${identity}:interaction:v1_emptyOne`, JSON.stringify({ interaction: { id: 'v1_emptyOne', steps: [] }, input: [] }), 60);
    const p = proxyOver(store, { store: { secret: 'the-secret' } });

    const r = await p.send(KEY_A, 'POST', '/v1/responses', { model: 'to-anthropic', previous_response_id: 'resp_emptyOne', input: [] });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error).toMatchObject({ type: 'invalid_request_error', param: 'input', code: 'empty_array' });
    const i = await p.send(KEY_A, 'POST', '/v1beta/interactions', { model: 'to-anthropic', previous_interaction_id: 'v1_emptyOne' }, 'goog');
    expect(i.status).toBe(400);
    expect(JSON.parse(i.body).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining("'input'") });
    expect(p.up.calls).toHaveLength(0);
  });
});
