/**
 * Per-caller state beyond the rules every stateful dialect shares (those — read, continue, delete,
 * cancel, on every store — are test/conformance/stored-state.test.ts): the Responses routes only
 * it has (`input_items`, `item_reference`, `input_tokens`) answer another caller's id exactly as
 * an id nobody kept; without `keys`, two forwarded credentials are two callers and callers with
 * no credential at all are one anonymous caller; references that resolve to nothing are a 400.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { memoryStateStore } from '../src/app.ts';
import { anthropic, KEY_A, KEY_B, proxyOver, sameAsUnknown as sameAs, watched, type Call } from './support/state-proxy.ts';

describe('Responses routes', () => {
  it('B cannot list, reference an item of, or count tokens against what A kept', async () => {
    const store = watched(memoryStateStore());
    const p = proxyOver(store);
    const sameAsUnknown = (id: string, attempt: (id: string) => Promise<Call>) => sameAs(p, store, id, attempt);
    p.up.reply(anthropic.text('Secret of A.', false));
    const made = await p.send(KEY_A, 'POST', '/v1/responses', { model: 'to-anthropic', input: 'A private question' });
    expect(made.status).toBe(200);
    const r = JSON.parse(made.body);
    const item = r.output[0].id as string;

    const list = await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'GET', `/v1/responses/${id}/input_items`));
    expect(list.body).not.toContain('A private question');
    const cont = await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'POST', '/v1/responses', { model: 'to-anthropic', previous_response_id: id, input: 'more' }));
    expect(JSON.parse(cont.body).error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
    const ref = await sameAsUnknown(item, (id) => p.send(KEY_B, 'POST', '/v1/responses', { model: 'to-anthropic', input: [{ type: 'item_reference', id }, { role: 'user', content: 'x' }] }));
    expect(JSON.parse(ref.body).error).toMatchObject({ code: 'item_not_found' });
    const tokens = await sameAsUnknown(r.id, (id) => p.send(KEY_B, 'POST', '/v1/responses/input_tokens', { model: 'to-anthropic', previous_response_id: id, input: 'more' }));
    expect(JSON.parse(tokens.body).error).toMatchObject({ code: 'previous_response_not_found' });

    expect((await p.send(KEY_A, 'GET', `/v1/responses/${r.id}/input_items`)).body).toContain('A private question');
  });
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
