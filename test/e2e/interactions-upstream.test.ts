/**
 * Every other caller SDK to a `gemini-interactions` upstream (the wire-accurate Interactions mock
 * of test/support/interactions-upstream.ts at `{base}/v1beta/interactions`): the openai SDK's
 * chat.completions and responses, the Anthropic SDK's messages and `@google/genai`'s
 * generateContent, JSON and streams, tools over two turns (the mock sees `store: false`, the
 * function_call and function_result steps paired by id, the thought step with Gemini's own
 * signature back on turn 2), usage with cached and thought tokens, a 429; and `@google/genai`'s
 * interactions.create to it, a byte-exact passthrough.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { interactionsAnswer, interactionsError, interactionsJson, interactionsSseChunks, type InteractionsMockScript } from '../support/interactions-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { INTERACTIONS_KEY, INTERACTIONS_MODEL, INTERACTIONS_PATH, genai, interactionsE2eConfig, postRaw, type GoogleGenAI } from './interactions-helpers.ts';

/** Gemini's own thought signature (opaque bytes, base64). */
const RAW_SIG = 'CiQBVKhc7uP0mvXq3tHhXyZ1n5ZgZq4D3Kx7sQ2qC9cF0Ea1bW8SIgEB';
const toolScript: InteractionsMockScript = {
  id: 'v1_up_tool',
  steps: [
    { type: 'thought', signature: RAW_SIG, summary: ['Need the weather.'] },
    { type: 'function_call', id: 'fc_up_1', name: 'get_weather', arguments: { location: 'Paris' } },
  ],
  usage: { input: 40, cached: 32, output: 20, thought: 12 },
};
const textScript: InteractionsMockScript = { id: 'v1_up_text', steps: [{ type: 'text', text: 'It is sunny in Paris.' }], usage: { input: 50, output: 8 }, contentInStart: true };
const weatherParams = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };

describe.each(TARGETS)('%s: every caller SDK → Interlingua → gemini-interactions upstream', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, interactionsE2eConfig);
  let openai: OpenAI;
  let anthropic: Anthropic;
  let ai: GoogleGenAI;
  beforeAll(() => {
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    ai = genai(h.proxy.url);
  });

  /** The upstream request: to /v1beta/interactions, the upstream's key and model, `store: false`. */
  const upstream = (i = 0) => {
    const r = h.mock.requests[i]!;
    expect(r.method).toBe('POST');
    expect(r.url).toBe(INTERACTIONS_PATH);
    expect(r.headers['x-goog-api-key']).toBe(INTERACTIONS_KEY);
    expect(r.json.model).toBe(INTERACTIONS_MODEL);
    expect(r.json.store).toBe(false);
    return r.json;
  };

  /** Turn 2 as the mock got it: the call and its result paired by the upstream's id, after the user's question. */
  const pairedTurn2 = (opts: { thought: boolean }) => {
    const input = upstream().input as any[];
    expect(Array.isArray(input)).toBe(true);
    const types = input.map((s) => s.type);
    const call = input.find((s) => s.type === 'function_call');
    const result = input.find((s) => s.type === 'function_result');
    expect(call).toMatchObject({ id: 'fc_up_1', name: 'get_weather', arguments: { location: 'Paris' } });
    expect(result.call_id).toBe('fc_up_1');
    expect(JSON.stringify(result.result)).toContain('21');
    expect(types.indexOf('user_input')).toBeLessThan(types.indexOf('function_call'));
    expect(types.indexOf('function_call')).toBeLessThan(types.indexOf('function_result'));
    if (opts.thought) {
      const thought = input.find((s) => s.type === 'thought');
      expect(thought?.signature).toBe(RAW_SIG);
      expect(types.indexOf('thought')).toBeLessThan(types.indexOf('function_call'));
    }
    expect(upstream().tools).toEqual([expect.objectContaining({ type: 'function', name: 'get_weather', parameters: weatherParams })]);
  };

  describe('openai SDK chat.completions', () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: weatherParams } }];
    it('tools over two turns (JSON): usage with cached and reasoning tokens; function_call / function_result paired by id', async () => {
      h.mock.reply(interactionsAnswer(toolScript));
      const first = await openai.chat.completions.create({ model: 'to-interactions', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools });
      const call = first.choices[0]!.message.tool_calls![0]!;
      expect(call.type === 'function' && call.function).toEqual({ name: 'get_weather', arguments: '{"location":"Paris"}' });
      // The upstream's id, with Gemini's signature riding in it (the tool-call id carrier).
      expect(call.id.startsWith('fc_up_1')).toBe(true);
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      expect(first.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 32, prompt_tokens_details: { cached_tokens: 32 }, completion_tokens_details: { reasoning_tokens: 12 } });
      expect(upstream().input).toEqual([{ type: 'user_input', content: [{ type: 'text', text: 'Weather in Paris?' }] }]);

      h.mock.requests.length = 0;
      h.mock.reply(interactionsAnswer(textScript));
      const second = await openai.chat.completions.create({
        model: 'to-interactions',
        tools,
        messages: [{ role: 'user', content: 'Weather in Paris?' }, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '21 degrees' }],
      });
      expect(second.choices[0]!.message.content).toBe('It is sunny in Paris.');
      pairedTurn2({ thought: true });
    });

    it('stream: the tool call in deltas, usage in the last chunk; the upstream asked to stream', async () => {
      h.mock.reply(interactionsAnswer(toolScript));
      const stream = await openai.chat.completions.create({ model: 'to-interactions', messages: [{ role: 'user', content: 'Weather?' }], tools, stream: true, stream_options: { include_usage: true } });
      let args = '';
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const c of stream) {
        for (const tc of c.choices[0]?.delta.tool_calls ?? []) args += tc.function?.arguments ?? '';
        finish = c.choices[0]?.finish_reason ?? finish;
        usage = c.usage ?? usage;
      }
      expect(JSON.parse(args)).toEqual({ location: 'Paris' });
      expect(finish).toBe('tool_calls');
      expect(usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 32 });
      expect(upstream().stream).toBe(true);
    });

    it("a 429 keeps its status and retry-after; an error event midway fails the caller's stream", async () => {
      h.mock.reply(interactionsError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', { 'retry-after': '7' }));
      const err = await openai.chat.completions.create({ model: 'to-interactions', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.RateLimitError);
      expect((err as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('7');

      h.mock.reply(interactionsAnswer({ steps: [{ type: 'text', text: 'Hello' }, { type: 'text', text: 'never' }], failAfter: { steps: 1, message: 'Deadline exceeded.' } }));
      let text = '';
      const failed = await (async () => {
        for await (const c of await openai.chat.completions.create({ model: 'to-interactions', messages: [{ role: 'user', content: 'Hi' }], stream: true })) text += c.choices[0]?.delta.content ?? '';
      })().catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(OpenAI.APIError);
      expect(text).toBe('Hello');
    });
  });

  describe('openai SDK responses', () => {
    it('reasoning and a function call over two turns: the signature goes back as the thought with its raw signature', async () => {
      h.mock.reply(interactionsAnswer(toolScript));
      const tools = [{ type: 'function' as const, name: 'get_weather', parameters: weatherParams, strict: false }];
      const first = await openai.responses.create({ model: 'to-interactions', input: 'Weather in Paris?', tools, store: false, reasoning: { effort: 'low', summary: 'auto' }, include: ['reasoning.encrypted_content'] });
      const reasoning = first.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
      expect(reasoning.summary.map((s) => s.text).join('')).toBe('Need the weather.');
      const call = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
      expect(call).toMatchObject({ name: 'get_weather', arguments: '{"location":"Paris"}' });
      expect(call.call_id.startsWith('fc_up_1')).toBe(true);
      expect(first.usage).toMatchObject({ input_tokens: 40, input_tokens_details: { cached_tokens: 32 }, output_tokens_details: { reasoning_tokens: 12 } });

      h.mock.requests.length = 0;
      h.mock.reply(interactionsAnswer(textScript));
      const second = await openai.responses.create({
        model: 'to-interactions',
        tools,
        store: false,
        input: [{ role: 'user', content: 'Weather in Paris?' }, ...first.output, { type: 'function_call_output', call_id: call.call_id, output: '21 degrees' }] as never,
      });
      expect(second.output_text).toBe('It is sunny in Paris.');
      pairedTurn2({ thought: true });
    });

    it('stream: text deltas (the first carried by step.start upstream) and the usage', async () => {
      h.mock.reply(interactionsAnswer(textScript));
      const stream = openai.responses.stream({ model: 'to-interactions', input: 'Weather?', store: false });
      const deltas: string[] = [];
      stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
      const final = await stream.finalResponse();
      expect(final.output_text).toBe('It is sunny in Paris.');
      expect(deltas.join('')).toBe('It is sunny in Paris.');
      expect(final.usage).toMatchObject({ input_tokens: 50, output_tokens: 8 });
      expect(upstream().stream).toBe(true);
    });
  });

  describe('Anthropic SDK messages', () => {
    const tools = [{ name: 'get_weather', description: 'Weather', input_schema: weatherParams as Anthropic.Tool.InputSchema }];
    const thinking = { type: 'enabled' as const, budget_tokens: 2000 };
    it('thinking and tools over two turns (JSON): the thinking block returns as the thought with its raw signature', async () => {
      h.mock.reply(interactionsAnswer(toolScript));
      const first = await anthropic.messages.create({ model: 'to-interactions', max_tokens: 4000, thinking, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools });
      expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
      expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: 'Need the weather.', signature: expect.any(String) });
      const use = first.content[1] as Anthropic.ToolUseBlock;
      expect(use).toMatchObject({ id: expect.stringMatching(/^fc_up_1/), name: 'get_weather', input: { location: 'Paris' } });
      expect(first.stop_reason).toBe('tool_use');
      expect(first.usage).toMatchObject({ output_tokens: 32, cache_read_input_tokens: 32 });
      expect(upstream().generation_config).toMatchObject({ max_output_tokens: 4000 });

      h.mock.requests.length = 0;
      h.mock.reply(interactionsAnswer(textScript));
      const second = await anthropic.messages.create({
        model: 'to-interactions',
        max_tokens: 4000,
        thinking,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21 degrees' }] },
        ],
      });
      expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'It is sunny in Paris.' })]);
      pairedTurn2({ thought: true });
    });

    it('stream: the thinking, the tool input in deltas, message_stop last', async () => {
      h.mock.reply(interactionsAnswer(toolScript));
      const stream = anthropic.messages.stream({ model: 'to-interactions', max_tokens: 4000, thinking, messages: [{ role: 'user', content: 'Weather?' }], tools });
      const types: string[] = [];
      stream.on('streamEvent', (e) => types.push(e.type));
      const final = await stream.finalMessage();
      expect(final.content.find((b) => b.type === 'thinking')).toMatchObject({ thinking: 'Need the weather.' });
      expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({ id: expect.stringMatching(/^fc_up_1/), input: { location: 'Paris' } });
      expect(types.at(-1)).toBe('message_stop');
      expect(upstream().stream).toBe(true);
    });

    it('a streamed thought before text: its signature rides in the thinking block and returns raw, before the answer it signed', async () => {
      const sig = 'EhQKEgoQbW9jay10aG91Z2h0LXNpZy0y';
      h.mock.reply(interactionsAnswer({ steps: [{ type: 'thought', signature: sig, summary: ['Plan the reply.'] }, { type: 'text', text: 'Hello!' }] }));
      const first = await anthropic.messages.stream({ model: 'to-interactions', max_tokens: 4000, thinking, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage();
      expect(first.content.map((b) => b.type)).toEqual(['thinking', 'text']);
      expect((first.content[0] as Anthropic.ThinkingBlock).signature).toBeTruthy();

      h.mock.requests.length = 0;
      h.mock.reply(interactionsAnswer(textScript));
      await anthropic.messages.create({ model: 'to-interactions', max_tokens: 4000, thinking, messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: first.content }, { role: 'user', content: 'More' }] });
      const input = upstream().input as any[];
      expect(input.map((s) => s.type)).toEqual(['user_input', 'thought', 'model_output', 'user_input']);
      expect(input[1].signature).toBe(sig);
      expect(input[2].content).toEqual([{ type: 'text', text: 'Hello!' }]);
    });
  });

  describe('@google/genai generateContent', () => {
    it("a function call over two turns: the thought signature on the functionCall part goes back as the thought step's", async () => {
      h.mock.reply(interactionsAnswer(toolScript));
      const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherParams }] }], thinkingConfig: { includeThoughts: true } };
      const first = await ai.models.generateContent({ model: 'to-interactions', contents: 'Weather in Paris?', config });
      expect(first.functionCalls).toEqual([expect.objectContaining({ id: 'fc_up_1', name: 'get_weather', args: { location: 'Paris' } })]);
      // Gemini's own signature reaches a Gemini caller raw (no carrier), in the model turn it echoes.
      expect(first.candidates![0]!.content!.parts!.filter((p) => p.thoughtSignature).map((p) => p.thoughtSignature)).toEqual([RAW_SIG]);
      expect(first.usageMetadata).toMatchObject({ promptTokenCount: 40, cachedContentTokenCount: 32, candidatesTokenCount: 20, thoughtsTokenCount: 12 });

      h.mock.requests.length = 0;
      h.mock.reply(interactionsAnswer(textScript));
      const second = await ai.models.generateContent({
        model: 'to-interactions',
        config,
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
          first.candidates![0]!.content!,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', id: 'fc_up_1', response: { temp: 21 } } }] },
        ],
      });
      expect(second.text).toBe('It is sunny in Paris.');
      pairedTurn2({ thought: true });
    });

    it('generateContentStream: the text in chunks, the last with finishReason and usage', async () => {
      h.mock.reply(interactionsAnswer(textScript));
      let text = '';
      let last: any;
      for await (const chunk of await ai.models.generateContentStream({ model: 'to-interactions', contents: 'Weather?' })) {
        text += chunk.text ?? '';
        last = chunk;
      }
      expect(text).toBe('It is sunny in Paris.');
      expect(last.candidates[0].finishReason).toBe('STOP');
      expect(last.usageMetadata).toMatchObject({ promptTokenCount: 50, candidatesTokenCount: 8, totalTokenCount: 58 });
      expect(upstream().stream).toBe(true);
    });
  });

  describe('@google/genai interactions.create: the same dialect, passed through', () => {
    it('the SDK request arrives as sent (model renamed), stateful fields left to the upstream; the answer comes back as it was', async () => {
      h.mock.reply(interactionsAnswer(toolScript));
      const request = {
        model: 'to-interactions',
        input: [{ type: 'function_result' as const, call_id: 'fc_prev', name: 'get_weather', result: { temp: 21 } }],
        previous_interaction_id: 'v1_prev_upstream',
        tools: [{ type: 'google_search' as const }, { type: 'function' as const, name: 'get_weather', parameters: weatherParams }],
        generation_config: { thinking_level: 'high' as const },
      };
      const res = await ai.interactions.create(request);
      expect(h.mock.requests[0]!.json).toEqual({ ...request, model: INTERACTIONS_MODEL });
      expect(h.mock.requests[0]!.headers['x-goog-api-key']).toBe(INTERACTIONS_KEY);
      const { sdkHttpResponse: _h, continuation_ids: _c, output_text: _o, ...parsed } = res as any;
      const { usage, ...rest } = interactionsJson(toolScript);
      expect(parsed).toEqual({ ...rest, usage: { ...(usage as object), initial_input_tokens: 40 } });
    });

    it('get and delete of an interaction the proxy did not keep are asked of the Interactions upstream', async () => {
      const kept = { ...textScript, id: 'v1_kept_upstream' };
      h.mock.reply({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(interactionsJson(kept)) });
      const got = await ai.interactions.get('v1_kept_upstream');
      expect(got.output_text).toBe('It is sunny in Paris.');
      h.mock.reply({ headers: { 'content-type': 'application/json' }, body: '{}' });
      await ai.interactions.delete('v1_kept_upstream');
      expect(h.mock.requests.map((r) => `${r.method} ${r.url.split('?')[0]} ${r.headers['x-goog-api-key']}`)).toEqual([
        `GET ${INTERACTIONS_PATH}/v1_kept_upstream ${INTERACTIONS_KEY}`,
        `DELETE ${INTERACTIONS_PATH}/v1_kept_upstream ${INTERACTIONS_KEY}`,
      ]);
    });

    it('byte for byte: a request with no rename reaches the upstream unchanged, its JSON and its stream come back unchanged', async () => {
      const body = '{"model":"interactions-exp-1","input":"Hi","store":true,"background":false,  "labels":{"a":"b"}}';
      h.mock.reply(interactionsAnswer(textScript));
      const raw = await postRaw(h.proxy.url, body);
      expect(raw.status).toBe(200);
      expect(await raw.text()).toBe(JSON.stringify(interactionsJson(textScript)));
      expect(h.mock.requests[0]!.body).toBe(body);
      expect(raw.headers.get('x-interlingua-warnings')).toBeNull();

      h.mock.requests.length = 0;
      const streamBody = body.replace('"store":true', '"store":true,"stream":true');
      const streamed = await postRaw(h.proxy.url, streamBody);
      expect(await streamed.text()).toBe(interactionsSseChunks(textScript).join(''));
      expect(h.mock.requests[0]!.body).toBe(streamBody);
      expect(h.mock.requests[0]!.headers.accept).toContain('text/event-stream');
    });
  });

  it('no log line holds the upstream key', () => {
    expect(h.proxy.logs.length).toBeGreaterThan(0);
    for (const line of h.proxy.logs) expect(line).not.toContain(INTERACTIONS_KEY);
  });
});
