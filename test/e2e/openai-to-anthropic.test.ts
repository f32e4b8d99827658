/**
 * The official `openai` SDK as the caller, through a real Interlingua server, against an
 * Anthropic-dialect mock upstream (route `to-anthropic` → claude-sonnet-4-5): streamed tools,
 * thinking round trips, n > 1 fan-out, structured output, errors and dropped-feature warnings.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import { fixtureStreamAnswer, fixtureStreamToolCall } from './helpers-anthropic.ts';

const ask = (extra: Record<string, unknown> = {}) =>
  ({ model: 'to-anthropic', messages: [{ role: 'user' as const, content: 'What is the weather in SF?' }], ...extra }) as never;

/** `ask()` is untyped; the streams it asks for are chunk iterables. */
const chunks = (s: unknown) => s as AsyncIterable<OpenAI.ChatCompletionChunk>;

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a place',
    parameters: { type: 'object', properties: { location: { type: 'string' }, units: { type: 'string' } }, required: ['location'] },
  },
};

describe.each(TARGETS)('%s: openai SDK → Interlingua → Anthropic upstream', (target) => {
  const h = useHarness(target);
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  it('non-stream text: Anthropic body upstream (max_tokens default, x-api-key), OpenAI completion back', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const expected = fixtureJson('anthropic', 'text-basic.json');
    const res = await client.chat.completions.create(
      ask({ messages: [{ role: 'system', content: 'Be kind.' }, { role: 'user', content: 'Hi' }], temperature: 0.2 }),
    );
    expect(res.choices[0]!.message.content).toBe(expected.content[0].text);
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(res.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 29, total_tokens: 41 });
    const got = h.mock.requests[0]!;
    expect(got.url).toBe('/v1/messages');
    expect(got.headers['x-api-key']).toBe(UPSTREAM_KEYS.anthropic);
    expect(got.headers['anthropic-version']).toBe('2023-06-01');
    expect(got.json).toMatchObject({ model: 'claude-sonnet-4-5', system: 'Be kind.', max_tokens: 4096, temperature: 0.2 });
    expect(got.json.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('tools streamed: tool_use → tool-call deltas; .stream() finalChatCompletion has the full arguments', async () => {
    const expected = fixtureStreamToolCall('anthropic', 'stream-tool-use.sse');
    h.mock.reply(fixtureReply('anthropic', 'stream-tool-use.sse'));
    const raw = await client.chat.completions.create(ask({ tools: [weatherTool], stream: true }));
    const deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    let finish: string | null = null;
    for await (const chunk of chunks(raw)) {
      for (const tc of chunk.choices[0]?.delta.tool_calls ?? []) deltas.push(tc);
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(deltas[0]).toMatchObject({ index: 0, id: 'toolu_018acGYLtfR52q9yDbWaEdQZ', type: 'function', function: { name: 'get_weather' } });
    expect(deltas.length).toBeGreaterThan(2);
    expect(JSON.parse(deltas.map((d) => d.function?.arguments ?? '').join(''))).toEqual(expected.input);
    expect(finish).toBe('tool_calls');
    expect(h.mock.requests[0]!.json).toMatchObject({ stream: true, tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }] });

    h.mock.reply(fixtureReply('anthropic', 'stream-tool-use.sse'));
    const final = await client.chat.completions.stream(ask({ tools: [weatherTool] })).finalChatCompletion();
    const call = final.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('get_weather');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual(expected.input);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('thinking (non-stream): reasoning_content + reasoning_details; sent back, the exact block reaches Anthropic', async () => {
    const fixture = fixtureJson('anthropic', 'thinking-signature.json');
    h.mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
    const res = await client.chat.completions.create(ask({ reasoning_effort: 'low', max_completion_tokens: 8000 }));
    expect(h.mock.requests[0]!.json.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(h.mock.requests[0]!.json.max_tokens).toBe(8000);
    const msg = res.choices[0]!.message as any;
    expect(msg.content).toBe(fixture.content[1].text);
    expect(msg.reasoning_content).toBe(fixture.content[0].thinking);
    expect(msg.reasoning_details).toHaveLength(1);

    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await client.chat.completions.create(
      ask({ reasoning_effort: 'low', messages: [{ role: 'user', content: 'What is 925 / 5?' }, msg, { role: 'user', content: 'Thanks' }] }),
    );
    const assistant = h.mock.requests[1]!.json.messages[1];
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: fixture.content[0].thinking, signature: fixture.content[0].signature });
    expect(assistant.content[1]).toEqual({ type: 'text', text: fixture.content[1].text });
  });

  it('thinking (stream): reasoning deltas and the signed detail; the follow-up replays the original signature', async () => {
    h.mock.reply(fixtureReply('anthropic', 'stream-thinking-signature.sse'));
    const stream = await client.chat.completions.create(ask({ reasoning_effort: 'medium', stream: true }));
    let reasoning = '';
    let content = '';
    const details: any[] = [];
    for await (const chunk of chunks(stream)) {
      const d = chunk.choices[0]?.delta as any;
      reasoning += d?.reasoning_content ?? '';
      content += d?.content ?? '';
      details.push(...(d?.reasoning_details ?? []));
    }
    expect(content).toBe(fixtureStreamAnswer('anthropic', 'stream-thinking-signature.sse'));
    expect(reasoning).toContain('925 ÷ 5 = 185');
    expect(details).toHaveLength(1);
    expect(details[0].text).toBe(reasoning);

    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const assistant = { role: 'assistant', content, reasoning_content: reasoning, reasoning_details: details };
    await client.chat.completions.create(ask({ messages: [{ role: 'user', content: 'Divide' }, assistant, { role: 'user', content: 'Again' }] }));
    const sent = h.mock.requests[1]!.json.messages[1].content[0];
    expect(sent.type).toBe('thinking');
    expect(sent.thinking).toBe(reasoning);
    expect(sent.signature).toMatch(/^EvQBCkYICxgCKkAxhD4NUKFzudtZ6Nzb.*\+43l7F57XrOmqNd6flI2K\/oPr\/4yzNgvi\/EhT6Ca17BgB$/);
  });

  it('n=2 → two upstream calls merged into choices 0 and 1, usage summed', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const { data: res, response } = await client.chat.completions.create(ask({ n: 2 })).withResponse();
    expect(h.mock.requests).toHaveLength(2);
    for (const r of h.mock.requests) expect(r.json.n).toBeUndefined();
    expect(res.choices.map((c) => c.index)).toEqual([0, 1]);
    for (const c of res.choices) expect(c.message.content).toBe(fixtureJson('anthropic', 'text-basic.json').content[0].text);
    expect(res.usage).toMatchObject({ prompt_tokens: 24, completion_tokens: 58, total_tokens: 82 });
    expect(response.headers.get('x-interlingua-warnings')).toContain('approximated:n=fan-out');
  });

  it('n=2 streaming: both choices interleaved, each closed with its finish_reason, usage summed', async () => {
    // Both upstream answers start only once both calls arrived, so the lanes really overlap.
    let release!: () => void;
    const both = new Promise<void>((r) => (release = r));
    h.mock.reply(async (_req, n) => {
      if (n === 2) release();
      await both;
      return fixtureReply('anthropic', 'stream-text-modern-usage.sse', { delayMs: 5 });
    });
    const stream = await client.chat.completions.create(ask({ n: 2, stream: true, stream_options: { include_usage: true } }));
    const text: Record<number, string> = { 0: '', 1: '' };
    const finish: Record<number, string> = {};
    const order: number[] = [];
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of chunks(stream)) {
      for (const c of chunk.choices) {
        order.push(c.index);
        text[c.index] += c.delta.content ?? '';
        if (c.finish_reason) finish[c.index] = c.finish_reason;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    const expected = fixtureStreamAnswer('anthropic', 'stream-text-modern-usage.sse');
    expect(text).toEqual({ 0: expected, 1: expected });
    expect(finish).toEqual({ 0: 'stop', 1: 'stop' });
    expect(order.slice(0, order.indexOf(1))).not.toEqual(order.filter((i) => i === 0)); // interleaved, not one after the other
    expect(h.mock.requests).toHaveLength(2);
    expect(usage?.total_tokens).toBeGreaterThan(0);
    expect(usage!.prompt_tokens % 2).toBe(0);
  });

  it('n=2 with tools, streamed: each choice gets its own tool call, ids kept unique', async () => {
    const expected = fixtureStreamToolCall('anthropic', 'stream-tool-use.sse');
    h.mock.reply(fixtureReply('anthropic', 'stream-tool-use.sse'));
    const final = await client.chat.completions.stream(ask({ n: 2, tools: [weatherTool] })).finalChatCompletion();
    expect(h.mock.requests).toHaveLength(2);
    expect(final.choices.map((c) => c.index)).toEqual([0, 1]);
    const calls = final.choices.map((c) => c.message.tool_calls![0]!);
    for (const c of calls) expect(c.type === 'function' && JSON.parse(c.function.arguments)).toEqual(expected.input);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(final.choices.map((c) => c.finish_reason)).toEqual(['tool_calls', 'tool_calls']);
  });

  it('structured output: json_schema → Anthropic output_config.format; the JSON comes back as content', async () => {
    const fixtureReq = fixtureJson('anthropic', 'structured-output-json-schema.request.json');
    const schema = fixtureReq.output_config.format.schema;
    h.mock.reply(fixtureReply('anthropic', 'structured-output-json-schema.json'));
    const res = await client.chat.completions.create(
      ask({ messages: [{ role: 'user', content: fixtureReq.messages[0].content }], response_format: { type: 'json_schema', json_schema: { name: 'OrderItem', schema, strict: true } } }),
    );
    expect(h.mock.requests[0]!.json.output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ product_name: 'Green Tea', price: 5.5, quantity: 2 });
  });

  it('structured output to a model without native support: a forced tool, answered as message text', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const body = fixtureJson('anthropic', 'tool-use-single.json');
    body.content[0] = { ...body.content[0], name: 'json_response', input: { answer: 'forty-two' } };
    h.mock.reply({ status: 200, body: JSON.stringify(body) });
    const res = await client.chat.completions.create(
      ask({ model: 'claude-3-7-sonnet-20250219', response_format: { type: 'json_schema', json_schema: { name: 'A', schema } } }),
    );
    const sent = h.mock.requests[0]!.json;
    expect(sent.tool_choice).toEqual({ type: 'tool', name: 'json_response' });
    expect(sent.tools[0]).toMatchObject({ name: 'json_response', input_schema: schema });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ answer: 'forty-two' });
    expect(res.choices[0]!.message.tool_calls ?? []).toHaveLength(0);
    expect(res.choices[0]!.finish_reason).toBe('stop');
  });

  it('529 overloaded → a 503 OpenAI server_error (InternalServerError), request id kept', async () => {
    h.mock.reply(fixtureReply('anthropic', 'error-529-overloaded.json'));
    const err = (await client.chat.completions.create(ask()).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err.status).toBe(503);
    expect(err.type).toBe('server_error');
    expect(err.message).toContain('Overloaded');
    expect(h.mock.requests).toHaveLength(1);
  });

  it('mid-stream overloaded error → the SDK stream throws an APIError, no hang', async () => {
    h.mock.reply(fixtureReply('anthropic', 'stream-error-overloaded-midstream.sse'));
    const stream = await client.chat.completions.create(ask({ stream: true }));
    let text = '';
    const err = await (async () => {
      for await (const chunk of chunks(stream)) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe('Hello');
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as Error).message).toContain('Overloaded');
  });

  it('max_tokens hit inside an open tool block → the stream ends properly with finish_reason length', async () => {
    h.mock.reply(fixtureReply('anthropic', 'stream-max-tokens-partial-tool-input.sse'));
    const stream = await client.chat.completions.create(ask({ tools: [weatherTool], stream: true, stream_options: { include_usage: true } }));
    const finishes: string[] = [];
    let text = '';
    let args = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of chunks(stream)) {
      const c = chunk.choices[0];
      if (c?.finish_reason) finishes.push(c.finish_reason);
      text += c?.delta.content ?? '';
      for (const tc of c?.delta.tool_calls ?? []) args += tc.function?.arguments ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(finishes).toEqual(['length']);
    expect(text).toContain('comprehensive tax guide');
    expect(args).toContain('"filename": "taxes.txt');
    expect(usage).toMatchObject({ prompt_tokens: 450, completion_tokens: 124 });
  });

  it('features Anthropic lacks are dropped and reported in x-interlingua-warnings', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const { response } = await client.chat.completions
      .create(ask({ logit_bias: { '50256': -100 }, seed: 7, presence_penalty: 0.5, logprobs: true }))
      .withResponse();
    const warnings = response.headers.get('x-interlingua-warnings') ?? '';
    for (const w of ['logit_bias', 'seed', 'presence_penalty', 'logprobs']) expect(warnings).toContain(w);
    const sent = h.mock.requests[0]!.json;
    for (const k of ['logit_bias', 'seed', 'presence_penalty', 'logprobs']) expect(sent[k]).toBeUndefined();
  });
});
