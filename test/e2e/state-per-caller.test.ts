/**
 * Kept state belongs to the caller that made it, through the official SDKs (`openai` for
 * Responses, `@google/genai` for Interactions), toward a stateless upstream (Anthropic): with two
 * inbound keys, every way key B can name key A's response or interaction (retrieve, input items,
 * continue, reference, cancel, delete) fails exactly as an id nobody kept does, the same error
 * class and message but for the id, and nothing goes upstream; A's state is intact after. On Node
 * from the memory store, on Workers from a bound KV namespace, and on one Redis shared by two
 * proxies. And the ids are ours: an upstream that answers the same id twice makes two answers of
 * ours, each continuing its own turn.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MockReply, MockUpstream } from '../support/mock-upstream.ts';
import { TARGETS, e2eConfig, useHarness, type RunningProxy } from '../support/proxy.ts';
import { useRedisPair } from '../support/redis.ts';
import { workerBundle } from '../support/worker.ts';
import { NO_RETRY, genai, rejection, sdkError } from './interactions-helpers.ts';
import { UPSTREAMS } from './responses-helpers.ts';

const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;
const KEY_A = 'il-caller-A-3f9c2e71d6b84a05';
const KEY_B = 'il-caller-B-8d41b07e5c2a9f63';
const twoKeys = (mockUrl: string, over: Record<string, unknown> = {}) => e2eConfig(mockUrl, { keys: [KEY_A, KEY_B], ...over });

const openai = (proxy: RunningProxy, key: string) => new OpenAI({ apiKey: key, baseURL: `${proxy.url}/v1`, maxRetries: 0 });

/** A fresh id of the same shape that nobody kept. */
const unknownLike = (id: string) => id.slice(0, -6) + 'zzzzzz';

/** What an OpenAI SDK error says, its id written as ID. */
function said(e: unknown, id: string): { name: string; status: number; message: string; error: unknown } {
  expect(e).toBeInstanceOf(OpenAI.APIError);
  const err = e as InstanceType<typeof OpenAI.APIError>;
  const named = (s: string) => s.split(id).join('ID');
  return { name: err.constructor.name, status: err.status!, message: named(err.message), error: JSON.parse(named(JSON.stringify(err.error))) };
}

/** B's attempt on A's id fails as on an unknown id, and nothing reaches the upstream. */
async function asUnknown<T = ReturnType<typeof said>>(mock: MockUpstream, id: string, attempt: (id: string) => Promise<unknown>, say: (e: unknown, id: string) => T = said as never): Promise<T> {
  const before = mock.requests.length;
  const theirs = say(await rejection(attempt(id)), id);
  const nobodys = say(await rejection(attempt(unknownLike(id))), unknownLike(id));
  expect(theirs).toEqual(nobodys);
  expect(mock.requests.length).toBe(before);
  return theirs;
}

const googleSaid = (e: unknown, id: string) => {
  const { name, status, body } = sdkError(e);
  return { name, status, body: JSON.parse(JSON.stringify(body).split(id).join('ID')) };
};

async function responsesShareNothing(proxy: RunningProxy, mock: MockUpstream, proxyB = proxy) {
  const a = openai(proxy, KEY_A);
  const b = openai(proxyB, KEY_B);
  mock.reply(anthropic.text('Only for A.', false));
  const r = await a.responses.create({ model: 'to-anthropic', input: 'A asks privately' });
  const item = r.output[0]!.id!;

  expect((await asUnknown(mock, r.id, (id) => b.responses.retrieve(id))).name).toBe('NotFoundError');
  await asUnknown(mock, r.id, (id) => b.responses.inputItems.list(id));
  const cont = await asUnknown(mock, r.id, (id) => b.responses.create({ model: 'to-anthropic', previous_response_id: id, input: 'go on' }));
  expect(cont.error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
  const ref = await asUnknown(mock, item, (id) => b.responses.create({ model: 'to-anthropic', input: [{ type: 'item_reference', id }, { role: 'user', content: 'go on' }] }));
  expect(ref.error).toMatchObject({ code: 'item_not_found' });
  await asUnknown(mock, r.id, (id) => b.responses.inputTokens.count({ model: 'to-anthropic', previous_response_id: id, input: 'go on' }));
  await asUnknown(mock, r.id, (id) => b.responses.cancel(id));
  await asUnknown(mock, r.id, (id) => b.responses.delete(id));

  // A's is whole.
  expect((await a.responses.retrieve(r.id)).output_text).toBe('Only for A.');
  const items = await a.responses.inputItems.list(r.id);
  expect(JSON.stringify(items.data)).toContain('A asks privately');
  mock.reply(anthropic.text('More for A.', false));
  await a.responses.create({ model: 'to-anthropic', previous_response_id: r.id, input: 'go on' });
  expect(JSON.stringify(mock.requests.at(-1)!.json.messages)).toContain('Only for A.');
}

async function interactionsShareNothing(proxy: RunningProxy, mock: MockUpstream, proxyB = proxy) {
  const a = genai(proxy.url, KEY_A);
  const b = genai(proxyB.url, KEY_B);
  mock.reply(anthropic.text('Interaction only for A.', false));
  const first = await a.interactions.create({ model: 'to-anthropic', input: 'A steps privately' });
  const id = first.id!;

  expect((await asUnknown(mock, id, (x) => b.interactions.get(x, undefined, NO_RETRY), googleSaid)).name).toBe('NotFoundError');
  await asUnknown(mock, id, (x) => b.interactions.create({ model: 'to-anthropic', previous_interaction_id: x, input: 'go on' }, NO_RETRY), googleSaid);
  await asUnknown(mock, id, (x) => b.interactions.cancel(x, undefined, NO_RETRY), googleSaid);
  await asUnknown(mock, id, (x) => b.interactions.delete(x, undefined, NO_RETRY), googleSaid);

  const mine = await a.interactions.get(id);
  expect(mine.output_text).toBe('Interaction only for A.');
  expect(JSON.stringify(mine.steps)).toContain('A steps privately');
}

/** Anthropic's answer with the same message id every time (a mock, a self-hosted server). */
function sameId(text: string, stream: boolean): MockReply {
  const r = anthropic.text(text, stream);
  const set = (s: string) => s.replace(/"id":"msg_mock\d+"/, '"id":"msg_same_every_time"');
  return r.chunks ? { ...r, chunks: r.chunks.map((c) => set(String(c))) } : { ...r, body: set(String(r.body)) };
}

describe.each(TARGETS)('%s: two inbound keys share nothing (memory on Node, KV on Workers)', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, twoKeys, { stateKv: true });

  it('Responses (openai SDK): what B tries on A’s response fails as on an unknown id', async () => {
    await responsesShareNothing(h.proxy, h.mock);
  });

  it('Interactions (@google/genai): what B tries on A’s interaction fails as on an unknown id', async () => {
    await interactionsShareNothing(h.proxy, h.mock);
  });

  it('an upstream that answers the same id twice: two Responses of ours, each continuing its own turn', async () => {
    const a = openai(h.proxy, KEY_A);
    h.mock.reply(sameId('First answer.', false));
    const one = await a.responses.create({ model: 'to-anthropic', input: 'one' });
    h.mock.reply(sameId('Second answer.', true));
    let two: OpenAI.Responses.Response | undefined;
    for await (const e of await a.responses.create({ model: 'to-anthropic', input: 'two', stream: true })) if (e.type === 'response.completed') two = e.response;
    for (const r of [one, two!]) {
      expect(r.id).toMatch(/^resp_[A-Za-z0-9]{24}$/);
      expect(r.id).not.toContain('same_every_time');
      expect(r.output[0]!.id).toMatch(/^msg_[A-Za-z0-9]{24}$/);
    }
    expect(one.id).not.toBe(two!.id);
    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('ok', false));
    await a.responses.create({ model: 'to-anthropic', previous_response_id: one.id, input: 'next' });
    await a.responses.create({ model: 'to-anthropic', previous_response_id: two!.id, input: 'next' });
    expect(h.mock.requests.map((r) => r.json.messages.map((m: any) => JSON.stringify(m.content)).join(' '))).toEqual([
      expect.stringContaining('First answer.'),
      expect.stringContaining('Second answer.'),
    ]);
    expect(JSON.stringify(h.mock.requests[1]!.json)).not.toContain('First answer.');
  });

  it('the same for Interactions: ids of ours, each continuing its own turn', async () => {
    const a = genai(h.proxy.url, KEY_A);
    h.mock.reply(sameId('First step.', false));
    const one = await a.interactions.create({ model: 'to-anthropic', input: 'one' });
    h.mock.reply(sameId('Second step.', false));
    const two = await a.interactions.create({ model: 'to-anthropic', input: 'two' });
    for (const r of [one, two]) {
      expect(r.id).toMatch(/^v1_[A-Za-z0-9]{24}$/);
      expect(r.id).not.toContain('same_every_time');
    }
    expect(one.id).not.toBe(two.id);
    expect((await a.interactions.get(one.id!)).output_text).toBe('First step.');
    expect((await a.interactions.get(two.id!)).output_text).toBe('Second step.');
  });
});

describe('one Redis shared by two proxies, two inbound keys', () => {
  // The same store.secret on both: they name each caller alike.
  const pair = useRedisPair((mockUrl, redisUrl) => twoKeys(mockUrl, { store: { url: redisUrl, secret: 'shared-by-both-instances' } }));

  it('A on one proxy, B on the other: B finds nothing of A’s; A finds its own on either', async () => {
    await responsesShareNothing(pair.a, pair.mock, pair.b);
    await interactionsShareNothing(pair.a, pair.mock, pair.b);
    pair.mock.reply(anthropic.text('Across.', false));
    const r = await openai(pair.a, KEY_A).responses.create({ model: 'to-anthropic', input: 'x' });
    expect((await openai(pair.b, KEY_A).responses.retrieve(r.id)).output_text).toBe('Across.');
  });
});
