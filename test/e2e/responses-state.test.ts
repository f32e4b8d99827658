/**
 * Responses state toward an upstream that keeps none (Anthropic), through the official `openai`
 * SDK: `previous_response_id` and `item_reference` replay, `responses.retrieve`,
 * `inputItems.list` and `delete` (which takes the response's output items with it). On Node from
 * the memory store, on Workers from a bound KV namespace, and from one Redis shared by two proxy
 * processes (turn 1 on one, turn 2 on the other, right after the streamed turn 1 ended).
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { responsesReply, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, responsesE2eConfig, useHarness, type RunningProxy } from '../support/proxy.ts';
import { useRedisPair } from '../support/redis.ts';
import { workerBundle } from '../support/worker.ts';
import { replayedReasoningWithoutId } from '../schema/openai-responses-allowances.ts';
import { checker } from '../schema/validate.ts';
import { UPSTREAMS } from './responses-helpers.ts';

const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;

/** What the Anthropic upstream was sent, as role: text lines. */
function conversation(r: ReceivedRequest): string[] {
  return r.json.messages.map((m: any) => `${m.role}: ${(Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }]).map((p: any) => p.text ?? p.type).join('')}`);
}

const client = (proxy: RunningProxy) => new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });

/** A streamed turn, read to its end; the answer is the terminal event's response. */
async function streamedTurn(c: OpenAI, body: Record<string, unknown>): Promise<OpenAI.Responses.Response> {
  let done: OpenAI.Responses.Response | undefined;
  for await (const e of await c.responses.create({ ...body, stream: true } as OpenAI.Responses.ResponseCreateParamsStreaming)) {
    if (e.type === 'response.completed') done = e.response;
  }
  if (!done) throw new Error('no response.completed');
  return done;
}

describe.each(TARGETS)('%s: Responses state from the store (memory on Node, KV on Workers)', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, e2eConfig, { stateKv: true });
  let c: OpenAI;
  beforeAll(() => {
    c = client(h.proxy);
  });

  it('previous_response_id and item_reference replay the kept turn to Anthropic; retrieve and input_items serve it', async () => {
    h.mock.reply(anthropic.text('Paris is sunny.', false));
    const first = await c.responses.create({ model: 'to-anthropic', instructions: 'Be brief.', input: 'Weather in Paris?' });
    expect(first.output_text).toBe('Paris is sunny.');

    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('Still sunny.', false));
    const second = await c.responses.create({ model: 'to-anthropic', previous_response_id: first.id, input: 'And tomorrow?' });
    expect(second.output_text).toBe('Still sunny.');
    expect(conversation(h.mock.requests[0]!)).toEqual(['user: Weather in Paris?', 'assistant: Paris is sunny.', 'user: And tomorrow?']);
    // Instructions do not carry over.
    expect(h.mock.requests[0]!.json.system).toBeUndefined();

    // The AI SDK's default replay: its earlier items by the ids we minted.
    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('Yes.', false));
    const message = first.output.find((o) => o.type === 'message')!;
    await c.responses.create({ model: 'to-anthropic', input: [{ role: 'user', content: 'Weather in Paris?' }, { type: 'item_reference', id: message.id! }, { role: 'user', content: 'Sure?' }] });
    expect(conversation(h.mock.requests[0]!)).toEqual(['user: Weather in Paris?', 'assistant: Paris is sunny.', 'user: Sure?']);

    const got = await c.responses.retrieve(first.id);
    expect(got.id).toBe(first.id);
    expect(got.output).toEqual(first.output);
    const items: unknown[] = [];
    for await (const item of c.responses.inputItems.list(second.id, { order: 'asc' })) items.push(item);
    expect(items).toHaveLength(3);
    expect(JSON.stringify(items)).toContain('And tomorrow?');
    // A limit below 1 is 1 (not the default page of 20).
    const page = await c.responses.inputItems.list(second.id, { limit: 0 });
    expect(page.data).toHaveLength(1);
  });

  it('input_tokens resolves previous_response_id as create does: the whole history is counted; an unknown id is previous_response_not_found', async () => {
    h.mock.reply(anthropic.text('Counted answer.', false));
    const first = await c.responses.create({ model: 'to-anthropic', input: 'Count this' });
    h.mock.requests.length = 0;
    h.mock.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input_tokens: 42 }) });
    const counted = await c.responses.inputTokens.count({ model: 'to-anthropic', previous_response_id: first.id, input: 'And this' });
    expect(counted.input_tokens).toBe(42);
    expect(h.mock.requests[0]!.url).toBe('/v1/messages/count_tokens');
    expect(conversation(h.mock.requests[0]!)).toEqual(['user: Count this', 'assistant: Counted answer.', 'user: And this']);

    h.mock.requests.length = 0;
    const unknown = await c.responses.inputTokens.count({ model: 'to-anthropic', previous_response_id: 'resp_nobodyKeptThisOne0000', input: 'x' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.BadRequestError);
    expect((unknown as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'previous_response_id', code: 'previous_response_not_found' });
    expect(h.mock.requests).toHaveLength(0);
  });

  it('a streamed answer is kept before its terminal event: the next turn at once finds it', async () => {
    h.mock.reply(anthropic.text('Streamed answer.', true));
    const first = await streamedTurn(c, { model: 'to-anthropic', input: 'Stream please' });
    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('ok', false));
    await c.responses.create({ model: 'to-anthropic', previous_response_id: first.id, input: 'Next' });
    expect(conversation(h.mock.requests[0]!)).toEqual(['user: Stream please', 'assistant: Streamed answer.', 'user: Next']);
  });

  it('DELETE removes the response and its output items: later references to either are 400s naming them', async () => {
    h.mock.reply(anthropic.text('To be deleted.', false));
    const r = await c.responses.create({ model: 'to-anthropic', input: 'Hi' });
    const itemId = r.output[0]!.id!;
    // Resolvable before.
    h.mock.reply(anthropic.text('ok', false));
    await c.responses.create({ model: 'to-anthropic', input: [{ type: 'item_reference', id: itemId }, { role: 'user', content: 'x' }] });

    await c.responses.delete(r.id);
    const byItem = await c.responses.create({ model: 'to-anthropic', input: [{ type: 'item_reference', id: itemId }, { role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(byItem).toBeInstanceOf(OpenAI.BadRequestError);
    expect((byItem as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'input[0].id', code: 'item_not_found' });
    expect((byItem as Error).message).toContain(itemId);
    const byPrev = await c.responses.create({ model: 'to-anthropic', previous_response_id: r.id, input: 'x' }).catch((e: unknown) => e);
    expect(byPrev).toBeInstanceOf(OpenAI.BadRequestError);
    expect((byPrev as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'previous_response_id', code: 'previous_response_not_found' });
    const retrieved = await c.responses.retrieve(r.id).catch((e: unknown) => e);
    expect(retrieved).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('Redis shared by two proxy processes', () => {
  const pair = useRedisPair((mockUrl, redisUrl) => e2eConfig(mockUrl, { store: { url: redisUrl, ttlSeconds: 600 } }));

  it('turn 1 streamed on proxy A, turn 2 (previous_response_id, then item_reference) on proxy B', async () => {
    pair.mock.reply(anthropic.text('Answer from A.', true));
    const first = await streamedTurn(client(pair.a), { model: 'to-anthropic', input: 'Question one' });

    pair.mock.requests.length = 0;
    pair.mock.reply(anthropic.text('Answer from B.', false));
    const second = await client(pair.b).responses.create({ model: 'to-anthropic', previous_response_id: first.id, input: 'Question two' });
    expect(second.output_text).toBe('Answer from B.');
    expect(conversation(pair.mock.requests[0]!)).toEqual(['user: Question one', 'assistant: Answer from A.', 'user: Question two']);

    pair.mock.requests.length = 0;
    pair.mock.reply(anthropic.text('ok', false));
    const replay = [{ role: 'user' as const, content: 'Question one' }, { type: 'item_reference' as const, id: first.output[0]!.id! }, { role: 'user' as const, content: 'Three' }];
    await client(pair.b).responses.create({ model: 'to-anthropic', input: replay });
    expect(conversation(pair.mock.requests[0]!)).toEqual(['user: Question one', 'assistant: Answer from A.', 'user: Three']);

    // Deleted on A, gone on B.
    await client(pair.a).responses.delete(first.id);
    const gone = await client(pair.b).responses.create({ model: 'to-anthropic', input: replay }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe.each(TARGETS)('%s: a kept answer replays what its caller was not shown', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, e2eConfig, { stateKv: true });
  const sig = 'ErUBCkYIBRgCIkBmb2N1c2VkLW1vY2stdGhpbmtpbmctc2lnbmF0dXJl';
  const thinkingJson = {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'msg_think1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'Paris is in France.', signature: sig },
        { type: 'text', text: 'Sunny in Paris.' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 11, output_tokens: 7 },
    }),
  };
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const thinkingSse = {
    headers: { 'content-type': 'text/event-stream' },
    chunks: [
      ev('message_start', { message: { id: 'msg_think2', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 11, output_tokens: 1 } } }),
      ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Paris is in France.' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: sig } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
      ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Sunny in Paris.' } }),
      ev('content_block_stop', { index: 1 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }),
      ev('message_stop', {}),
    ],
  };

  it.each([
    ['JSON', false],
    ['streamed', true],
  ])('%s turn 1 without include: turn 2 by previous_response_id gives Anthropic its thinking block back, signature and all', async (_name, stream) => {
    const c = client(h.proxy);
    h.mock.reply(stream ? thinkingSse : thinkingJson);
    const body = { model: 'to-anthropic', input: 'Weather in Paris?', reasoning: { effort: 'low' as const } };
    const first = stream ? await streamedTurn(c, body) : await c.responses.create(body);
    // What the caller was shown is as before: a reasoning item without encrypted content.
    expect(first.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    expect(JSON.stringify(first)).not.toContain('encrypted_content');

    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('Still sunny.', false));
    const second = await c.responses.create({ model: 'to-anthropic', previous_response_id: first.id, input: 'And tomorrow?', reasoning: { effort: 'low' } });
    expect(h.mock.requests[0]!.json.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Paris is in France.', signature: sig },
        { type: 'text', text: 'Sunny in Paris.' },
      ],
    });
    // Listed back (turn 2's input holds turn 1), the item is as the caller saw it; with include, as kept.
    const listed = await c.responses.inputItems.list(second.id, { order: 'asc' });
    expect(listed.data.map((i) => i.type)).toEqual(['message', 'reasoning', 'message', 'message']);
    expect(listed.data[1]).toEqual(first.output[0]);
    const included = await c.responses.inputItems.list(second.id, { order: 'asc', include: ['reasoning.encrypted_content'] });
    expect(included.data[1]).toEqual({ ...first.output[0], encrypted_content: expect.any(String) });
    expect(h.mock.requests).toHaveLength(1);
  });
});

describe.each(TARGETS)('%s: a continued turn that falls back to a Responses upstream', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const routes = (mockUrl: string) => {
    const base = responsesE2eConfig(mockUrl);
    return { ...base, models: { ...base.models, 'anthropic-then-responses': { upstream: [{ upstream: 'anthropic', model: 'claude-sonnet-4-5' }, { upstream: 'responses', model: 'gpt-5-mini' }] } } };
  };
  const h = useHarness(target, routes, { stateKv: true });
  const check = checker('openai-responses', [replayedReasoningWithoutId]);

  it('is sent the history rebuilt, encoded anew: input shapes the document accepts, none of the ids the proxy minted', async () => {
    const c = client(h.proxy);
    h.mock.reply(anthropic.toolCall('get_weather', { city: 'Paris' }, 'toolu_fb1', false));
    const first = await c.responses.create({ model: 'anthropic-then-responses', input: 'Weather in Paris?', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }] });
    h.mock.requests.length = 0;
    h.mock.reply((r) =>
      r.url === '/v1/messages'
        ? { status: 529, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) }
        : responsesReply({ items: [{ type: 'message', text: 'Sunny.' }] }, false),
    );
    const second = await c.responses.create({ model: 'anthropic-then-responses', previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: 'toolu_fb1', output: '21 degrees' }] });
    expect(second.output_text).toBe('Sunny.');
    const sent = h.mock.requests.find((r) => r.url === '/v1/responses')!.json;
    expect(sent.previous_response_id).toBeUndefined();
    expect(check.problems('InputParam', sent.input)).toEqual([]);
    expect(sent.input.map((i: any) => i.type)).toEqual(['message', 'function_call', 'function_call_output']);
    const minted = [first.id, ...first.output.map((o) => o.id)];
    for (const id of minted) expect(JSON.stringify(sent)).not.toContain(id);
  });
});
