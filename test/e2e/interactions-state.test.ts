/**
 * Interactions state toward an upstream that keeps none (Anthropic), through `@google/genai`'s
 * interactions client: `store` defaults to true, so a turn continued with
 * `previous_interaction_id` and only the new input (a function_result, a user message) reaches
 * Anthropic as the whole history rebuilt from the store, with the first turn's tools;
 * `interactions.get` and `.delete` served from the store (a streamed search kept as the caller saw it:
 * its steps, the text's citations); an unknown id is a 404 NOT_FOUND;
 * where no store can answer, a 400 naming the parameter; `background` and `agent` toward
 * Anthropic refused naming them. On Node from the memory store, on Workers from a bound KV
 * namespace, and from one Redis shared by two proxy processes. The config has no Interactions
 * upstream: with one, an id the store does not hold is asked of it (tested in the upstream suite).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream, ReceivedRequest } from '../support/mock-upstream.ts';
import { TARGETS, e2eConfig, useHarness } from '../support/proxy.ts';
import { useRedisPair } from '../support/redis.ts';
import { workerBundle } from '../support/worker.ts';
import { UPSTREAMS } from './responses-helpers.ts';
import { NO_RETRY, checked, collect, genai, postRaw, rejection, sdkError, weatherFn, type GoogleGenAI } from './interactions-helpers.ts';

const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;

/** What Anthropic was sent, one line per message: `role: part, part` (text, tool_use name(id), tool_result(id)=content). */
function conversation(r: ReceivedRequest): string[] {
  return r.json.messages.map((m: any) => {
    const parts = Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }];
    const shown = parts.map((p: any) => {
      if (p.type === 'text') return p.text;
      if (p.type === 'tool_use') return `tool_use ${p.name}(${p.id}) ${JSON.stringify(p.input)}`;
      if (p.type === 'tool_result') return `tool_result(${p.tool_use_id})=${typeof p.content === 'string' ? p.content : p.content.map((c: any) => c.text).join('')}`;
      return p.type;
    });
    return `${m.role}: ${shown.join(' | ')}`;
  });
}

/** Turn 1 asks for the weather (a tool call), turn 2 sends only its result by previous_interaction_id. */
async function toolTurns(ai: GoogleGenAI, mock: MockUpstream, ai2 = ai, streamFirst = false) {
  mock.reply(anthropic.toolCall('get_weather', { location: 'Paris' }, 'toolu_w1', streamFirst));
  const body = { model: 'to-anthropic', input: 'Weather in Paris?', tools: [weatherFn], system_instruction: 'Be brief.', generation_config: { max_output_tokens: 300 } };
  let firstId: string;
  if (streamFirst) {
    const events = checked(await collect(await ai.interactions.create({ ...body, stream: true })));
    expect(events.at(-1)!.interaction.status).toBe('requires_action');
    firstId = events[0]!.interaction.id;
  } else {
    const first = await ai.interactions.create(body);
    expect(first.status).toBe('requires_action');
    expect(first.steps.find((s) => s.type === 'function_call')).toMatchObject({ id: 'toolu_w1', name: 'get_weather' });
    firstId = first.id!;
  }
  mock.requests.length = 0;
  mock.reply(anthropic.text('Sunny, 21 degrees.', false));
  const second = await ai2.interactions.create({
    model: 'to-anthropic',
    previous_interaction_id: firstId,
    input: [{ type: 'function_result', call_id: 'toolu_w1', name: 'get_weather', result: '21 degrees' }],
  });
  expect(second.output_text).toBe('Sunny, 21 degrees.');
  expect(conversation(mock.requests[0]!)).toEqual([
    'user: Weather in Paris?',
    'assistant: tool_use get_weather(toolu_w1) {"location":"Paris"}',
    'user: tool_result(toolu_w1)=21 degrees',
  ]);
  // Tools, system_instruction and generation_config of turn 1 carry over (the docs' turn 2 sends none).
  expect(anthropic.toolsSent(mock.requests[0]!.json)).toEqual({ get_weather: weatherFn.parameters });
  expect(mock.requests[0]!.json).toMatchObject({ system: expect.anything(), max_tokens: 300 });
  expect(JSON.stringify(mock.requests[0]!.json.system)).toContain('Be brief.');
  return { firstId, second };
}

describe.each(TARGETS)('%s: Interactions state from the store (memory on Node, KV on Workers)', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, e2eConfig, { stateKv: true });
  let ai: GoogleGenAI;
  beforeAll(() => {
    ai = genai(h.proxy.url);
  });

  it('previous_interaction_id with only a function_result, then a new user input: Anthropic gets the whole history rebuilt', async () => {
    const { second } = await toolTurns(ai, h.mock);
    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('Still sunny.', false));
    const third = await ai.interactions.create({ model: 'to-anthropic', previous_interaction_id: second.id, input: 'And tomorrow?' });
    expect(third.output_text).toBe('Still sunny.');
    expect(conversation(h.mock.requests[0]!)).toEqual([
      'user: Weather in Paris?',
      'assistant: tool_use get_weather(toolu_w1) {"location":"Paris"}',
      'user: tool_result(toolu_w1)=21 degrees',
      'assistant: Sunny, 21 degrees.',
      'user: And tomorrow?',
    ]);
  });

  it('a streamed turn is kept before its stream ends: the next turn at once finds it', async () => {
    await toolTurns(ai, h.mock, ai, true);
  });

  it('streamed thinking and a tool call kept: the continuation gives Anthropic its thinking block back, signature and all', async () => {
    const sig = 'ErUBCkYIBRgCIkBmb2N1c2VkLW1vY2stdGhpbmtpbmctc2lnbmF0dXJl';
    const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    h.mock.reply({
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        ev('message_start', { message: { id: 'msg_th1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 11, output_tokens: 1 } } }),
        ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Use the tool.' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: sig } }),
        ev('content_block_stop', { index: 0 }),
        ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_th1', name: 'get_weather', input: {} } }),
        ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"location":"Paris"}' } }),
        ev('content_block_stop', { index: 1 }),
        ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }),
        ev('message_stop', {}),
      ],
    });
    const thinking = { thinking_level: 'low' as const };
    const events = checked(await collect(await ai.interactions.create({ model: 'to-anthropic', input: 'Weather in Paris?', tools: [weatherFn], generation_config: thinking, stream: true })));
    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('Sunny.', false));
    await ai.interactions.create({ model: 'to-anthropic', previous_interaction_id: events[0]!.interaction.id, input: [{ type: 'function_result', call_id: 'toolu_th1', name: 'get_weather', result: 'sunny' }] });
    const assistant = h.mock.requests[0]!.json.messages[1];
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'Use the tool.', signature: sig },
      { type: 'tool_use', id: 'toolu_th1', name: 'get_weather', input: { location: 'Paris' } },
    ]);
    expect(h.mock.requests[0]!.json.thinking).toMatchObject({ type: expect.stringMatching(/enabled|adaptive/) });
  });

  it('a streamed search is kept with its steps: get shows the text with its citation and the search call (its queries) with its result; continuing toward Anthropic sends the text alone', async () => {
    const text = 'Spain won Euro 2024.';
    const grounding = {
      webSearchQueries: ['who won euro 2024'],
      groundingChunks: [{ web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/uefa', title: 'uefa.com' } }],
      groundingSupports: [{ segment: { startIndex: 0, endIndex: text.length, text }, groundingChunkIndices: [0] }],
    };
    h.mock.reply({
      headers: { 'content-type': 'text/event-stream' },
      chunks: [{ candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 }, modelVersion: 'gemini-2.5-flash' }].map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`),
    });
    const events = checked(await collect(await ai.interactions.create({ model: 'to-gemini', input: 'Who won Euro 2024?', tools: [{ type: 'google_search' }], stream: true })));
    const id = events[0]!.interaction.id as string;
    expect(h.mock.requests[0]!.json.tools).toEqual([{ googleSearch: {} }]);

    const got = await ai.interactions.get(id);
    const [call, result] = got.steps.filter((s) => s.type === 'google_search_call' || s.type === 'google_search_result') as Array<Record<string, any>>;
    expect(call).toMatchObject({ type: 'google_search_call', arguments: { queries: ['who won euro 2024'] } });
    expect(result).toMatchObject({ type: 'google_search_result', call_id: call!.id });
    // The text as the caller streamed it, its citation (a text_annotation_delta) on it.
    expect(got.steps.find((s) => s.type === 'model_output')).toEqual({
      type: 'model_output',
      content: [{ type: 'text', text, annotations: [{ type: 'url_citation', url: grounding.groundingChunks[0]!.web.uri, title: 'uefa.com', start_index: 0, end_index: text.length }] }],
    });

    h.mock.requests.length = 0;
    h.mock.reply(anthropic.text('By 2–1.', false));
    const next = await ai.interactions.create({ model: 'to-anthropic', previous_interaction_id: id, input: 'And the score?' });
    expect(next.output_text).toBe('By 2–1.');
    // Google's search and its citation are no Anthropic blocks: the history is the text alone.
    expect(h.mock.requests[0]!.json.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Who won Euro 2024?' }] },
      { role: 'assistant', content: [{ type: 'text', text }] },
      { role: 'user', content: [{ type: 'text', text: 'And the score?' }] },
    ]);
  });

  it('interactions.get serves the kept interaction (user_input first); delete removes it: then get and continuing are 404 NOT_FOUND', async () => {
    h.mock.reply(anthropic.text('Kept answer.', false));
    const first = await ai.interactions.create({ model: 'to-anthropic', input: 'Remember me' });
    const got = await ai.interactions.get(first.id!);
    expect(got.id).toBe(first.id);
    expect(got.status).toBe('completed');
    expect(got.steps[0]).toMatchObject({ type: 'user_input', content: [{ type: 'text', text: 'Remember me' }] });
    expect(got.steps.at(-1)).toEqual({ type: 'model_output', content: [{ type: 'text', text: 'Kept answer.' }] });
    expect(got.output_text).toBe('Kept answer.');
    expect(h.mock.requests).toHaveLength(1);

    await ai.interactions.delete(first.id!);
    const gone = sdkError(await rejection(ai.interactions.get(first.id!, undefined, NO_RETRY)));
    expect(gone.name).toBe('NotFoundError');
    expect(gone.body).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    const cont = sdkError(await rejection(ai.interactions.create({ model: 'to-anthropic', previous_interaction_id: first.id!, input: 'x' }, NO_RETRY)));
    expect(cont.name).toBe('NotFoundError');
    expect(cont.body).toMatchObject({ code: 404, status: 'NOT_FOUND', message: expect.stringContaining(first.id!) });
    expect(h.mock.requests).toHaveLength(1);
  });

  it('store: false keeps nothing: continuing from it is a 404', async () => {
    h.mock.reply(anthropic.text('Not kept.', false));
    const first = await ai.interactions.create({ model: 'to-anthropic', input: 'Hi', store: false });
    const err = sdkError(await rejection(ai.interactions.create({ model: 'to-anthropic', previous_interaction_id: first.id!, input: 'x' }, NO_RETRY)));
    expect(err.status).toBe(404);
    expect(err.body.status).toBe('NOT_FOUND');
  });

  it('background: true and agent toward Anthropic: 400 INVALID_ARGUMENT naming the parameter; nothing sent upstream', async () => {
    const bg = await postRaw(h.proxy.url, { model: 'to-anthropic', input: 'Hi', background: true });
    expect(bg.status).toBe(400);
    expect((await bg.json()).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('background') });
    const agent = sdkError(await rejection(ai.interactions.create({ model: 'to-anthropic', agent: 'deep-research-pro-preview-12-2025', input: 'Hi' } as never, NO_RETRY)));
    expect(agent.name).toBe('BadRequestError');
    expect(agent.body.message).toContain('agent');
    expect(h.mock.requests).toHaveLength(0);
  });
});

// A Worker without a KV namespace keeps no state: the reference cannot be resolved there.
describe.runIf(TARGETS.includes('worker'))('worker with no store bound', () => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness('worker', e2eConfig);

  it("previous_interaction_id: a 400 naming the parameter, in Google's shape", async () => {
    const raw = await postRaw(h.proxy.url, { model: 'to-anthropic', previous_interaction_id: 'v1_anything', input: 'x' });
    expect(raw.status).toBe(400);
    const body = await raw.json();
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('previous_interaction_id') });
    expect(h.mock.requests).toHaveLength(0);
  });
});

describe('Redis shared by two proxy processes', () => {
  const pair = useRedisPair((mockUrl, redisUrl) => e2eConfig(mockUrl, { store: { url: redisUrl, ttlSeconds: 600 } }));

  it('turn 1 streamed on proxy A, turn 2 (previous_interaction_id) on proxy B; get and delete on either', async () => {
    const { firstId } = await toolTurns(genai(pair.a.url), pair.mock, genai(pair.b.url), true);
    expect((await genai(pair.b.url).interactions.get(firstId)).id).toBe(firstId);
    await genai(pair.a.url).interactions.delete(firstId);
    const gone = sdkError(await rejection(genai(pair.b.url).interactions.get(firstId, undefined, NO_RETRY)));
    expect(gone.status).toBe(404);
  });
});
