/**
 * The stored-state rules, run unchanged against every stateful dialect (a `ChatCaller` with
 * `state`: Responses, Interactions) toward an upstream that keeps no state (Anthropic), on every
 * state store (memory, a real Workers KV namespace, a real Redis):
 *
 * - a continuation by reference (`previous_response_id`, `previous_interaction_id`) sends the kept
 *   turn upstream; a streamed answer is kept as a whole one is;
 * - `store: false` keeps nothing: no write, and the id it answered with resolves to nothing;
 * - a reference nobody kept is the dialect's own error, with no upstream call;
 * - what one caller kept, another cannot read, continue, delete or cancel: each attempt answers
 *   exactly as an id nobody kept (same status and body but for the id, same store traffic, no
 *   upstream call), and the owner's state is intact after;
 * - a deleted answer is gone; no key name or value written holds a caller's key.
 *
 * Dialect-specific routes (Responses `input_items`, `item_reference`, `input_tokens`) and callers
 * without keys are test/state-isolation.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kvStateStore, memoryStateStore, type StateStore } from '../../src/app.ts';
import { redisStateStore } from '../../src/runtime/redis-store.ts';
import { registry } from '../../translators/index.ts';
import { startBindings, type WorkerBindings } from '../support/bindings.ts';
import { startRedis, type RunningRedis } from '../support/redis.ts';
import { anthropic, KEY_A, KEY_B, proxyOver, sameAsUnknown as sameAs, unknownLike, watched, type Call } from '../support/state-proxy.ts';

interface Stateful {
  auth: 'bearer' | 'goog';
  create: string;
  byId(id: string): string;
  cancel(id: string): string;
  /** The field a continuation names the kept answer by. */
  ref: string;
  /** The id of the answer, in a JSON answer or a stream. */
  idIn(body: string): string;
}

const firstId = (re: RegExp) => (body: string) => re.exec(body)?.[1] ?? '';

/** Every stateful dialect: a new one fails the first test until it is described here. */
const dialects: Record<string, Stateful> = {
  'openai-responses': {
    auth: 'bearer',
    create: '/v1/responses',
    byId: (id) => `/v1/responses/${id}`,
    cancel: (id) => `/v1/responses/${id}/cancel`,
    ref: 'previous_response_id',
    idIn: firstId(/"id":"(resp_[^"]+)"/),
  },
  'gemini-interactions': {
    auth: 'goog',
    create: '/v1beta/interactions',
    byId: (id) => `/v1beta/interactions/${id}`,
    cancel: (id) => `/v1beta/interactions/${id}/cancel`,
    ref: 'previous_interaction_id',
    idIn: (body) => {
      const json = /^\s*\{/.test(body) ? body : body.split('\n').filter((l) => l.includes('"interaction.completed"')).map((l) => l.slice(l.indexOf('{')))[0] ?? '{}';
      const v = JSON.parse(json);
      return v.id ?? v.interaction?.id ?? '';
    },
  },
};

it('every stateful dialect is in this suite', () => {
  expect(Object.values(registry.chatCallers).filter((c) => c.state).map((c) => c.id).sort()).toEqual(Object.keys(dialects).sort());
});

let redis: RunningRedis;
let bindings: WorkerBindings;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  [redis, bindings] = await Promise.all([startRedis(), startBindings(4)]);
}, 60_000);
afterAll(async () => {
  for (const c of closers) await c();
  await bindings?.close();
  await redis?.stop();
});

const stores: Array<[string, () => Promise<StateStore>]> = [
  ['memory', async () => memoryStateStore()],
  ['Workers KV', async () => kvStateStore(await bindings.kv())],
  [
    'Redis',
    async () => {
      const s = redisStateStore(redis.url, `rules${closers.length}:`);
      closers.push(() => s.close());
      return s;
    },
  ],
];

const cases = Object.entries(dialects).flatMap(([id, d]) => stores.map(([store, make]) => [`${id} on ${store}`, d, make] as const));

describe.each(cases)('stored state: %s', (_name, d, make) => {
  let store: ReturnType<typeof watched>;
  let p: ReturnType<typeof proxyOver>;
  beforeAll(async () => {
    store = watched(await make());
    p = proxyOver(store);
  });
  const send = (key: string, method: string, path: string, body?: unknown) => p.send(key, method, path, body, d.auth);
  const create = async (key: string, body: Record<string, unknown>, answer: string, stream = false) => {
    p.up.reply(anthropic.text(answer, stream));
    const made = await send(key, 'POST', d.create, { model: 'to-anthropic', ...body, ...(stream ? { stream: true } : {}) });
    expect(made.status, made.body).toBe(200);
    return d.idIn(made.body);
  };
  const continued = (key: string, id: string) => send(key, 'POST', d.create, { model: 'to-anthropic', [d.ref]: id, input: 'and then?' });

  const sameAsUnknown = (id: string, attempt: (id: string) => Promise<Call>) => sameAs(p, store, id, attempt);

  it('a continuation sends the kept turn upstream', async () => {
    const id = await create(KEY_A, { input: 'The first question' }, 'The first answer.');
    p.up.reply(anthropic.text('The second answer.', false));
    const next = await continued(KEY_A, id);
    expect(next.status, next.body).toBe(200);
    const sent = JSON.stringify(p.up.calls.at(-1)!.body.messages);
    expect(sent).toContain('The first question');
    expect(sent).toContain('The first answer.');
    expect(sent).toContain('and then?');
  });

  it('a streamed answer is kept as a whole one is', async () => {
    const id = await create(KEY_A, { input: 'Stream it' }, 'Streamed answer.', true);
    expect(id).not.toBe('');
    p.up.reply(anthropic.text('Next.', false));
    expect((await continued(KEY_A, id)).status).toBe(200);
    expect(JSON.stringify(p.up.calls.at(-1)!.body.messages)).toContain('Streamed answer.');
  });

  it('store: false keeps nothing', async () => {
    store.calls.length = 0;
    const id = await create(KEY_A, { input: 'Do not keep this', store: false }, 'Unkept.');
    expect(store.calls).not.toContain('put');
    const calls = p.up.calls.length;
    expect((await send(KEY_A, 'GET', d.byId(id))).status).toBe(404);
    expect((await continued(KEY_A, id)).status).toBeGreaterThanOrEqual(400);
    expect(p.up.calls.length).toBe(calls);
  });

  it('a reference nobody kept is the dialect’s error, with no upstream call', async () => {
    const calls = p.up.calls.length;
    const id = unknownLike(await create(KEY_A, { input: 'x' }, 'y'));
    const res = await continued(KEY_A, id);
    expect([400, 404]).toContain(res.status);
    expect(res.body).toContain(id);
    expect(p.up.calls.length).toBe(calls + 1);
  });

  it.each([300, 1000, 5000])('a reference of %i characters is the dialect’s not-found or a 400, never a failure', async (n) => {
    const calls = p.up.calls.length;
    const id = `${unknownLike(await create(KEY_A, { input: 'x' }, 'y'))}${'x'.repeat(n)}`;
    for (const res of [await continued(KEY_A, id), await send(KEY_A, 'GET', d.byId(id)), await send(KEY_A, 'DELETE', d.byId(id))]) {
      expect([400, 404], res.body).toContain(res.status);
    }
    expect(p.up.calls.length).toBe(calls + 1);
  });

  it('another caller cannot read, continue, delete or cancel it; the owner’s state is intact', async () => {
    const id = await create(KEY_A, { input: 'A private question' }, 'Secret of A.');
    expect((await sameAsUnknown(id, (x) => send(KEY_B, 'GET', d.byId(x)))).status).toBe(404);
    const cont = await sameAsUnknown(id, (x) => continued(KEY_B, x));
    expect(cont.body).not.toContain('Secret of A.');
    await sameAsUnknown(id, (x) => send(KEY_B, 'POST', d.cancel(x)));
    await sameAsUnknown(id, (x) => send(KEY_B, 'DELETE', d.byId(x)));

    const mine = await send(KEY_A, 'GET', d.byId(id));
    expect(mine.status).toBe(200);
    expect(mine.body).toContain('Secret of A.');
    p.up.reply(anthropic.text('More for A.', false));
    expect((await continued(KEY_A, id)).status).toBe(200);
    expect(JSON.stringify(p.up.calls.at(-1)!.body.messages)).toContain('Secret of A.');
  });

  it('a deleted answer is gone', async () => {
    const id = await create(KEY_A, { input: 'Short-lived' }, 'Soon deleted.');
    expect((await send(KEY_A, 'DELETE', d.byId(id))).status).toBe(200);
    expect((await send(KEY_A, 'GET', d.byId(id))).status).toBe(404);
    expect((await continued(KEY_A, id)).status).toBeGreaterThanOrEqual(400);
  });

  it('no key name or value written holds a caller’s key', () => {
    expect(store.written.length).toBeGreaterThan(0);
    for (const text of store.written) {
      expect(text).not.toContain(KEY_A);
      expect(text).not.toContain(KEY_B);
    }
  });
});
