/**
 * `@google/genai`'s Interactions API (`client.interactions.create`, unary and `stream: true`) as
 * the caller, through a real Interlingua server, to OpenAI Chat Completions, Responses,
 * Anthropic and Gemini (generateContent) mock upstreams: text, function calling over two
 * stateless turns, structured output, a 429 with its retry delay, a stream that fails midway,
 * errors in Google's shape, the /v1 path. Asserted on what the SDK parsed and on what each
 * upstream received. Mappings one upstream shows best: interactions-caller-mapping.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
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

  it("other bad requests: an unknown content type named by its path, a body that is not JSON, a wrong key (401 UNAUTHENTICATED)", async () => {
    const bogus = await postRaw(h.proxy.url, { model: 'to-openai', input: [{ type: 'user_input', content: [{ type: 'bogus' }] }] });
    expect(bogus.status).toBe(400);
    expect((await bogus.json()).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('input[0].content[0].type') });
    const notJson = await postRaw(h.proxy.url, '{"model":"to-openai", nope');
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    const wrongKey = sdkError(await rejection(genai(h.proxy.url, 'not-the-key').interactions.create({ model: 'to-openai', input: 'Hi' }, NO_RETRY)));
    expect(wrongKey).toMatchObject({ name: 'AuthenticationError', status: 401, body: { code: 401, status: 'UNAUTHENTICATED' } });
    expect(h.mock.requests).toHaveLength(0);
  });

  it('a function_call step whose arguments are a list: the SDK’s BadRequestError naming input[1].arguments; nothing sent upstream', async () => {
    const input = [{ type: 'user_input', content: [{ type: 'text', text: 'Hi' }] }, { type: 'function_call', id: 'c1', name: 'get_weather', arguments: [] }];
    const err = sdkError(await rejection(ai.interactions.create({ model: 'to-openai', input, store: false } as never, NO_RETRY)));
    expect(err.name).toBe('BadRequestError');
    expect(err.body).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('input[1].arguments') });
    expect(h.mock.requests).toHaveLength(0);
  });

  it('input as one content or a list of contents is one user turn', async () => {
    const u = UPSTREAMS.find((x) => x.name === 'openai')!;
    h.mock.reply(u.text('ok', false));
    await ai.interactions.create({ model: u.model, input: { type: 'text', text: 'single content' }, store: false });
    await ai.interactions.create({ model: u.model, input: [{ type: 'text', text: 'content' }, { type: 'text', text: 'list' }], store: false });
    const users = h.mock.requests.map((r) => r.json.messages.filter((m: any) => m.role === 'user'));
    expect(users.map((m) => m.length)).toEqual([1, 1]);
    expect(JSON.stringify(users[0])).toContain('single content');
    expect(JSON.stringify(users[1])).toMatch(/content.*list/);
  });

  it('the /v1 path newer SDKs call serves the same', async () => {
    const u = UPSTREAMS.find((x) => x.name === 'openai')!;
    h.mock.reply(u.text('Via v1', false));
    const res = await ai.interactions.create({ model: u.model, input: 'Hi', store: false, api_version: 'v1' });
    expect(res.output_text).toBe('Via v1');
    expect(sentTo(h.mock.requests, u).json.messages.at(-1).content).toContain('Hi');
  });
});
