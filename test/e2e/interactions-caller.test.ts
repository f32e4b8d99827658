/**
 * `@google/genai`'s Interactions API (`client.interactions.create`, unary and `stream: true`) as
 * the caller, through a real Interlingua server, to OpenAI Chat Completions, Responses,
 * Anthropic and Gemini (generateContent) mock upstreams: text, function calling over two
 * stateless turns, structured output, a 429 with its retry delay, a stream that fails midway,
 * thoughts from Anthropic whose signature goes back untouched, and errors in Google's shape.
 * Asserted on what the SDK parsed and on what each upstream received.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson, fixtureSse } from '../support/fixtures.ts';
import { fixtureReply, responsesReply, type ResponsesMockScript } from '../support/mock-upstream.ts';
import { TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { PNG_1X1 } from './helpers-gemini.ts';
import { UPSTREAMS, sentTo, type UpstreamCase } from './responses-helpers.ts';
import {
  NO_RETRY,
  checked,
  collect,
  framesChecked,
  genai,
  interactionsE2eConfig,
  postRaw,
  rejection,
  sdkError,
  streamedSteps,
  streamedText,
  weatherFn,
  type GoogleGenAI,
} from './interactions-helpers.ts';

/** The system text and output-token cap an upstream got, read in its own terms. */
function settingsSent(u: UpstreamCase, b: any): { system: string; maxTokens: number } {
  switch (u.name) {
    case 'openai':
      return { system: b.messages.find((m: any) => m.role === 'system' || m.role === 'developer')?.content, maxTokens: b.max_completion_tokens ?? b.max_tokens };
    case 'anthropic':
      return { system: typeof b.system === 'string' ? b.system : b.system?.map((s: any) => s.text).join(''), maxTokens: b.max_tokens };
    case 'gemini':
      return { system: b.systemInstruction?.parts?.map((p: any) => p.text).join(''), maxTokens: b.generationConfig?.maxOutputTokens };
    case 'responses':
      return { system: b.instructions, maxTokens: b.max_output_tokens };
  }
}

const cityFormat = {
  type: 'text' as const,
  mime_type: 'application/json' as const,
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

describe.each(TARGETS)('%s: @google/genai interactions.create → Interlingua → every upstream', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, interactionsE2eConfig);
  let ai: GoogleGenAI;
  beforeAll(() => {
    ai = genai(h.proxy.url);
  });

  describe.each(UPSTREAMS)('to $name', (u: UpstreamCase) => {
    it('unary text: one model_output step, output_text, usage; system_instruction and max_output_tokens reach the upstream', async () => {
      h.mock.reply(u.text('Hello there', false));
      const res = await ai.interactions.create({ model: u.model, input: 'Hi', system_instruction: 'Be brief.', generation_config: { max_output_tokens: 200 }, store: false });
      expect(res.status).toBe('completed');
      expect(res.id).toBeTruthy();
      expect(res.output_text).toBe('Hello there');
      expect(res.steps).toEqual([{ type: 'model_output', content: [{ type: 'text', text: 'Hello there' }] }]);
      expect(res.usage).toMatchObject({ total_input_tokens: 11, total_output_tokens: 7 });
      const up = sentTo(h.mock.requests, u);
      expect(up.headers.authorization ?? up.headers['x-api-key'] ?? up.headers['x-goog-api-key']).toContain(UPSTREAM_KEYS[u.name]);
      expect(settingsSent(u, up.json)).toEqual({ system: 'Be brief.', maxTokens: 200 });
      expect(JSON.stringify(up.json)).toContain('Hi');
    });

    it('stream: interaction.created → step.start / text deltas / step.stop → interaction.completed with usage', async () => {
      h.mock.reply(u.text('Hello there', true));
      const events = checked(await collect(await ai.interactions.create({ model: u.model, input: 'Hi', stream: true, store: false })));
      expect(streamedText(events)).toBe('Hello there');
      expect(events.filter((e) => e.event_type === 'step.delta' && e.delta.type === 'text').length).toBeGreaterThan(0);
      const done = events.at(-1)!;
      expect(done.event_type).toBe('interaction.completed');
      expect(done.interaction.status).toBe('completed');
      expect(done.interaction.usage).toMatchObject({ total_input_tokens: 11, total_output_tokens: 7 });
      expect(done.interaction.id).toBe(events[0]!.interaction.id);
      const up = sentTo(h.mock.requests, u);
      expect(u.name === 'gemini' ? up.url.includes('streamGenerateContent') : up.json.stream).toBe(true);
    });

    it('function calling over two stateless turns: function_call out (requires_action), history with the function_result back', async () => {
      h.mock.reply(u.toolCall('get_weather', { location: 'Paris' }, 'call_w1', false));
      const first = await ai.interactions.create({ model: u.model, input: 'Weather in Paris?', tools: [weatherFn], store: false });
      expect(first.status).toBe('requires_action');
      const call = first.steps.find((s) => s.type === 'function_call')!;
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: { location: 'Paris' } });
      if (call.type !== 'function_call') throw new Error('no call');
      expect(call.id).toBeTruthy();
      expect(Object.keys(u.toolsSent(sentTo(h.mock.requests, u).json))).toEqual(['get_weather']);

      h.mock.requests.length = 0;
      h.mock.reply(u.text('It is sunny.', false));
      const second = await ai.interactions.create({
        model: u.model,
        store: false,
        tools: [weatherFn],
        input: [
          { type: 'user_input', content: [{ type: 'text', text: 'Weather in Paris?' }] },
          ...first.steps,
          { type: 'function_result', call_id: call.id, name: 'get_weather', result: '{"temp":21}' },
        ],
      });
      expect(second.status).toBe('completed');
      expect(second.output_text).toBe('It is sunny.');
      // The result is linked to the call the upstream issued, under its own id.
      expect(u.toolResultSent(sentTo(h.mock.requests, u).json, 'call_w1')).toContain('21');
    });

    it('stream with a function call: the call in step.start, its arguments in arguments_delta fragments', async () => {
      h.mock.reply(u.toolCall('get_weather', { location: 'Oslo' }, 'call_w2', true));
      const events = checked(await collect(await ai.interactions.create({ model: u.model, input: 'Oslo?', tools: [weatherFn], stream: true, store: false })));
      const steps = streamedSteps(events);
      const call = steps.find((s) => s.type === 'function_call');
      expect(call).toMatchObject({ name: 'get_weather', arguments: { location: 'Oslo' } });
      expect(call.id).toBeTruthy();
      expect(events.at(-1)!.interaction.status).toBe('requires_action');
    });

    it('structured output: response_format with a schema reaches the upstream as its own JSON-schema setting', async () => {
      h.mock.reply(u.text('{"city":"Rome"}', false));
      const res = await ai.interactions.create({ model: u.model, input: 'A city?', response_format: cityFormat, store: false });
      expect(JSON.parse(res.output_text!)).toEqual({ city: 'Rome' });
      const body = sentTo(h.mock.requests, u).json;
      switch (u.name) {
        case 'openai':
          expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: cityFormat.schema } });
          break;
        case 'anthropic':
          expect(body.output_config?.format ?? body.output_format).toEqual({ type: 'json_schema', schema: cityFormat.schema });
          break;
        case 'gemini':
          expect(body.generationConfig.responseMimeType).toBe('application/json');
          expect(JSON.stringify(body.generationConfig.responseJsonSchema ?? body.generationConfig.responseSchema)).toContain('"city"');
          break;
        case 'responses':
          expect(body.text.format).toMatchObject({ type: 'json_schema', schema: cityFormat.schema });
          break;
      }
    });

    it("429 from the upstream: the SDK's RateLimitError, retry-after kept, Google's error shape", async () => {
      h.mock.reply(u.rateLimited());
      const err = sdkError(await rejection(ai.interactions.create({ model: u.model, input: 'Hi', store: false }, NO_RETRY)));
      expect(err.name).toBe('RateLimitError');
      expect(err.status).toBe(429);
      expect(Number(err.headers?.get('retry-after'))).toBe(7);
      expect(err.body).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
      expect(h.mock.requests).toHaveLength(1);
    });

    it('a stream that fails midway: the SDK yields an error event, last; the wire ends with done / [DONE]', async () => {
      h.mock.reply(u.failingStream());
      const events = await collect(await ai.interactions.create({ model: u.model, input: 'Hi', stream: true, store: false }));
      checked(events);
      const last = events.at(-1)!;
      expect(last.event_type).toBe('error');
      expect(last.error.message).toBeTruthy();
      expect(streamedText(events)).toMatch(/^Hel/);

      h.mock.reply(u.failingStream());
      const raw = await postRaw(h.proxy.url, { model: u.model, input: 'Hi', stream: true, store: false });
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toContain('text/event-stream');
      expect(framesChecked(await raw.text()).at(-1)!.event_type).toBe('error');
    });
  });

  it("thoughts from Anthropic: a thought step with summary and signature; sent back, Anthropic gets its own block (JSON and stream)", async () => {
    const block = fixtureJson('anthropic', 'thinking-signature.json').content.find((c: any) => c.type === 'thinking');
    h.mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
    const thinking = { thinking_level: 'low' as const, thinking_summaries: 'auto' as const };
    const res = await ai.interactions.create({ model: 'to-anthropic', input: 'What is 925 / 5?', generation_config: thinking, store: false });
    expect(h.mock.requests[0]!.json.thinking).toMatchObject({ type: expect.stringMatching(/enabled|adaptive/) });
    const thought = res.steps.find((s) => s.type === 'thought');
    expect(thought).toMatchObject({ type: 'thought', summary: [{ type: 'text', text: expect.stringContaining('925 divided by 5') }] });
    expect(thought?.type === 'thought' && thought.signature).toBeTruthy();
    expect(res.output_text).toBe('925 ÷ 5 = 185');
    expect(res.steps.map((s) => s.type)).toEqual(['thought', 'model_output']);

    h.mock.requests.length = 0;
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const history = [{ type: 'user_input' as const, content: [{ type: 'text' as const, text: 'What is 925 / 5?' }] }, ...res.steps, { type: 'user_input' as const, content: [{ type: 'text' as const, text: 'And / 37?' }] }];
    await ai.interactions.create({ model: 'to-anthropic', input: history, generation_config: thinking, store: false });
    const blocks = h.mock.requests[0]!.json.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
    expect(blocks.find((b: any) => b.type === 'thinking')).toEqual(block);

    // Streamed: summary deltas, then the signature as the thought step's last delta.
    const streamedSig = fixtureSse('anthropic', 'stream-thinking-signature.sse')
      .map((e) => JSON.parse(e.data))
      .find((d) => d.delta?.type === 'signature_delta').delta.signature;
    h.mock.requests.length = 0;
    h.mock.reply(fixtureReply('anthropic', 'stream-thinking-signature.sse'));
    const events = checked(await collect(await ai.interactions.create({ model: 'to-anthropic', input: 'Divide', generation_config: thinking, stream: true, store: false })));
    const deltas = events.filter((e) => e.event_type === 'step.delta' && e.index === 0).map((e) => e.delta.type);
    expect(deltas).toContain('thought_summary');
    expect(deltas.at(-1)).toBe('thought_signature');
    const steps = streamedSteps(events);
    expect(steps[0].summary.map((c: any) => c.text).join('')).toContain('I need to divide that by 5.');
    h.mock.requests.length = 0;
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await ai.interactions.create({ model: 'to-anthropic', input: [history[0]!, ...steps, history[2]!], generation_config: thinking, store: false });
    const sent = h.mock.requests[0]!.json.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
    expect(sent.find((b: any) => b.type === 'thinking')?.signature).toBe(streamedSig);
  });

  it('usage: thought tokens apart from the output, cached tokens kept; a max-tokens stop is incomplete (JSON and stream)', async () => {
    const script: ResponsesMockScript = { items: [{ type: 'reasoning', summary: ['Think.'] }, { type: 'message', text: 'Partial' }], usage: { input: 40, cached: 32, output: 20, reasoning: 12 }, incomplete: true };
    const usage = { total_input_tokens: 40, total_cached_tokens: 32, total_output_tokens: 8, total_thought_tokens: 12, total_tokens: 60 };
    h.mock.reply(responsesReply(script, false));
    const res = await ai.interactions.create({ model: 'to-responses', input: 'Hi', store: false });
    expect(res.status).toBe('incomplete');
    expect(res.usage).toMatchObject(usage);
    expect(res.output_text).toBe('Partial');
    h.mock.reply(responsesReply(script, true));
    const done = checked(await collect(await ai.interactions.create({ model: 'to-responses', input: 'Hi', stream: true, store: false }))).at(-1)!;
    expect(done.interaction).toMatchObject({ status: 'incomplete', usage });
  });

  it("a bad request (no model): 400 INVALID_ARGUMENT in Google's shape, the SDK's BadRequestError; nothing sent upstream", async () => {
    const raw = await postRaw(h.proxy.url, { input: 'Hi' });
    expect(raw.status).toBe(400);
    const body = await raw.json();
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('model') });
    const err = sdkError(await rejection(ai.interactions.create({ input: 'Hi' } as never, NO_RETRY)));
    expect(err.name).toBe('BadRequestError');
    expect(err.body).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(h.mock.requests).toHaveLength(0);
  });

  it("Gemini 3's signature on a functionCall: a thought step before the call, back to Gemini on the call itself (JSON and stream)", async () => {
    for (const [reply, name] of [['gemini3-tool-call.json', 'weather'], ['stream-gemini3-tool-call.sse', undefined]] as const) {
      h.mock.requests.length = 0;
      h.mock.reply(fixtureReply('gemini', reply));
      const stream = reply.endsWith('.sse');
      const steps = stream
        ? streamedSteps(checked(await collect(await ai.interactions.create({ model: 'to-gemini', input: 'Weather?', tools: [weatherFn], stream: true, store: false }))))
        : (await ai.interactions.create({ model: 'to-gemini', input: 'Weather?', tools: [weatherFn], store: false })).steps;
      const upstreamParts = stream
        ? fixtureSse('gemini', reply).flatMap((e) => JSON.parse(e.data).candidates?.[0]?.content?.parts ?? [])
        : fixtureJson('gemini', reply).candidates[0].content.parts;
      const signed = upstreamParts.find((p: any) => p.functionCall && p.thoughtSignature);
      if (name) expect(signed.functionCall.name).toBe(name);
      const types = steps.map((st: any) => st.type);
      expect(types.indexOf('thought')).toBe(types.indexOf('function_call') - 1);
      expect(steps[types.indexOf('thought')].signature).toBeTruthy();

      h.mock.requests.length = 0;
      h.mock.reply(UPSTREAMS.find((x) => x.name === 'gemini')!.text('Sunny.', false));
      const call = steps.find((st: any) => st.type === 'function_call') as any;
      await ai.interactions.create({
        model: 'to-gemini',
        tools: [weatherFn],
        store: false,
        input: [{ type: 'user_input', content: [{ type: 'text', text: 'Weather?' }] }, ...steps, { type: 'function_result', call_id: call.id, name: call.name, result: 'sunny' }],
      });
      const model = h.mock.requests[0]!.json.contents.find((c: any) => c.role === 'model');
      expect(model.parts.find((p: any) => p.functionCall)).toMatchObject({ functionCall: { name: signed.functionCall.name }, thoughtSignature: signed.thoughtSignature });
    }
  });

  it('generation_config knobs reach OpenAI in its own terms (temperature, top_p, seed, stop, tool_choice any → required)', async () => {
    const openai = UPSTREAMS.find((x) => x.name === 'openai')!;
    h.mock.reply(openai.toolCall('get_weather', { location: 'Rome' }, 'call_k1', false));
    const generation_config = { temperature: 0.3, top_p: 0.9, seed: 7, stop_sequences: ['END'], tool_choice: 'any' as const };
    await ai.interactions.create({ model: 'to-openai', input: 'Rome?', tools: [weatherFn], generation_config, store: false });
    expect(sentTo(h.mock.requests, openai).json).toMatchObject({ temperature: 0.3, top_p: 0.9, seed: 7, stop: ['END'], tool_choice: 'required' });
  });

  it('parallel calls from OpenAI: one function_result per call_id, sent back in reverse order, each paired to its call', async () => {
    const openai = UPSTREAMS.find((x) => x.name === 'openai')!;
    const calls = [{ id: 'call_p1', city: 'Paris' }, { id: 'call_p2', city: 'Oslo' }];
    h.mock.reply({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'chatcmpl_par',
        object: 'chat.completion',
        created: 1_767_000_000,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ location: c.city }) } })) } }],
        usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
      }),
    });
    const first = await ai.interactions.create({ model: 'to-openai', input: 'Paris and Oslo?', tools: [weatherFn], store: false });
    const got = first.steps.filter((s) => s.type === 'function_call');
    expect(got.map((s) => s.type === 'function_call' && s.arguments)).toEqual([{ location: 'Paris' }, { location: 'Oslo' }]);

    h.mock.requests.length = 0;
    h.mock.reply(openai.text('Both sunny.', false));
    const results = got.reverse().map((s) => ({ type: 'function_result' as const, call_id: s.type === 'function_call' ? s.id : '', name: 'get_weather', result: s.type === 'function_call' ? `sunny in ${s.arguments.location}` : '' }));
    await ai.interactions.create({ model: 'to-openai', tools: [weatherFn], store: false, input: [{ type: 'user_input', content: [{ type: 'text', text: 'Paris and Oslo?' }] }, ...first.steps, ...results] });
    for (const c of calls) expect(openai.toolResultSent(sentTo(h.mock.requests, openai).json, c.id)).toContain(c.city);
  });

  it('images and documents in the input reach OpenAI and Anthropic in their own media forms', async () => {
    const PDF = Buffer.from('%PDF-1.4\n%mock\n').toString('base64');
    const input = [
      { type: 'text' as const, text: 'What is in these?' },
      { type: 'image' as const, data: PNG_1X1, mime_type: 'image/png' as const },
    ];
    const openai = UPSTREAMS.find((x) => x.name === 'openai')!;
    h.mock.reply(openai.text('A pixel.', false));
    expect((await ai.interactions.create({ model: 'to-openai', input, store: false })).output_text).toBe('A pixel.');
    expect(sentTo(h.mock.requests, openai).json.messages.at(-1).content).toContainEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } });

    h.mock.requests.length = 0;
    const anthropic = UPSTREAMS.find((x) => x.name === 'anthropic')!;
    h.mock.reply(anthropic.text('A pixel and a PDF.', false));
    await ai.interactions.create({ model: 'to-anthropic', input: [...input, { type: 'document', data: PDF, mime_type: 'application/pdf' }], store: false });
    const parts = sentTo(h.mock.requests, anthropic).json.messages.at(-1).content;
    expect(parts).toContainEqual(expect.objectContaining({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }));
    expect(parts).toContainEqual(expect.objectContaining({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } }));
  });

  it('a hosted Google tool is kept for a Gemini upstream, dropped with a loss warning toward Anthropic', async () => {
    const tools = [weatherFn, { type: 'google_search' as const }];
    const gemini = UPSTREAMS.find((x) => x.name === 'gemini')!;
    h.mock.reply(gemini.text('Searched.', false));
    await ai.interactions.create({ model: 'to-gemini', input: 'News?', tools, store: false });
    const geminiTools = sentTo(h.mock.requests, gemini).json.tools;
    expect(JSON.stringify(geminiTools)).toMatch(/google_?search/i);

    h.mock.requests.length = 0;
    const anthropic = UPSTREAMS.find((x) => x.name === 'anthropic')!;
    h.mock.reply(anthropic.text('No search.', false));
    const res = await ai.interactions.create({ model: 'to-anthropic', input: 'News?', tools, store: false });
    expect(Object.keys(anthropic.toolsSent(sentTo(h.mock.requests, anthropic).json))).toEqual(['get_weather']);
    expect(res.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toMatch(/dropped:tools\[1\]=google_?search/i);
  });

  it('the /v1 path newer SDKs call serves the same', async () => {
    const u = UPSTREAMS.find((x) => x.name === 'openai')!;
    h.mock.reply(u.text('Via v1', false));
    const res = await ai.interactions.create({ model: u.model, input: 'Hi', store: false, api_version: 'v1' });
    expect(res.output_text).toBe('Via v1');
    expect(sentTo(h.mock.requests, u).json.messages.at(-1).content).toContain('Hi');
  });
});
