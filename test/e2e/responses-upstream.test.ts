/**
 * Every other caller SDK to an `openai-responses` upstream (a wire-accurate Responses mock at
 * `{base}/responses`): the openai SDK's chat.completions, the Anthropic SDK's messages and
 * `@google/genai`'s generateContent / generateContentStream, JSON and streams, with tools (the
 * call and its result linked as `function_call` / `function_call_output` items), reasoning
 * (summaries and usage), and errors.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { responsesReply, type ResponsesMockScript } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, responsesE2eConfig, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { apiErrorOf, genai, type GoogleGenAI } from './helpers-gemini.ts';

const toolScript: ResponsesMockScript = {
  id: 'resp_up_tool',
  items: [
    { type: 'reasoning', summary: ['Need the weather.'], encrypted: 'gAAAA-opaque-reasoning' },
    { type: 'function_call', name: 'get_weather', arguments: '{"location":"Paris"}', callId: 'call_up_1' },
  ],
  usage: { input: 40, cached: 32, output: 20, reasoning: 12 },
};
const textScript: ResponsesMockScript = { id: 'resp_up_text', items: [{ type: 'message', text: 'It is sunny in Paris.' }], usage: { input: 50, output: 8 } };
const rateLimited = {
  status: 429,
  headers: { 'content-type': 'application/json', 'retry-after': '7' },
  body: JSON.stringify({ error: { message: 'Rate limit reached. Please try again in 7s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }),
};

const weatherParams = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };

describe.each(TARGETS)('%s: every caller SDK → Interlingua → openai-responses upstream', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, responsesE2eConfig);
  let openai: OpenAI;
  let anthropic: Anthropic;
  let ai: GoogleGenAI;
  beforeAll(() => {
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    ai = genai(h.proxy.url);
  });

  /** The upstream request: to /v1/responses with the upstream's key and model. */
  const upstream = () => {
    const r = h.mock.requests[0]!;
    expect(r.url).toBe('/v1/responses');
    expect(r.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.responses}`);
    expect(r.json.model).toBe('gpt-5-mini');
    return r.json;
  };

  describe('openai SDK chat.completions', () => {
    it('tools over two turns (JSON): function_call out, function_call_output linked back; usage with cached and reasoning tokens', async () => {
      h.mock.reply(responsesReply(toolScript, false));
      const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: weatherParams } }];
      const first = await openai.chat.completions.create({ model: 'to-responses', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, reasoning_effort: 'low' });
      const call = first.choices[0]!.message.tool_calls![0]!;
      expect(call.type === 'function' && call.function).toEqual({ name: 'get_weather', arguments: '{"location":"Paris"}' });
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      expect(first.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 32 }, completion_tokens_details: { reasoning_tokens: 12 } });
      const sent = upstream();
      expect(sent.tools).toEqual([expect.objectContaining({ type: 'function', name: 'get_weather', parameters: weatherParams })]);
      expect(sent.reasoning).toMatchObject({ effort: 'low' });

      h.mock.requests.length = 0;
      h.mock.reply(responsesReply(textScript, false));
      const second = await openai.chat.completions.create({
        model: 'to-responses',
        tools,
        messages: [{ role: 'user', content: 'Weather in Paris?' }, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '21 degrees' }],
      });
      expect(second.choices[0]!.message.content).toBe('It is sunny in Paris.');
      const input = upstream().input as any[];
      const fc = input.find((i) => i.type === 'function_call');
      const out = input.find((i) => i.type === 'function_call_output');
      expect(fc).toMatchObject({ name: 'get_weather', arguments: '{"location":"Paris"}' });
      expect(out.call_id).toBe(fc.call_id);
      expect(JSON.stringify(out.output)).toContain('21 degrees');
    });

    it('stream: text deltas, the tool call, usage in the last chunk, [DONE]', async () => {
      h.mock.reply(responsesReply(toolScript, true));
      const stream = await openai.chat.completions.create({
        model: 'to-responses',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherParams } }],
        stream: true,
        stream_options: { include_usage: true },
      });
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
      expect(usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 20 });
      expect(upstream().stream).toBe(true);
    });

    it('429 keeps its status and retry-after', async () => {
      h.mock.reply(rateLimited);
      const err = await openai.chat.completions.create({ model: 'to-responses', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.RateLimitError);
      expect((err as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('7');
    });
  });

  describe('Anthropic SDK messages', () => {
    it('tools over two turns (JSON): tool_use out, tool_result linked back as function_call_output', async () => {
      h.mock.reply(responsesReply(toolScript, false));
      const tools = [{ name: 'get_weather', description: 'Weather', input_schema: weatherParams as Anthropic.Tool.InputSchema }];
      const first = await anthropic.messages.create({ model: 'to-responses', max_tokens: 1000, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools });
      const use = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
      expect(use).toMatchObject({ name: 'get_weather', input: { location: 'Paris' } });
      expect(first.stop_reason).toBe('tool_use');
      expect(first.usage.output_tokens).toBe(20);
      expect(upstream().max_output_tokens).toBe(1000);

      h.mock.requests.length = 0;
      h.mock.reply(responsesReply(textScript, false));
      const second = await anthropic.messages.create({
        model: 'to-responses',
        max_tokens: 1000,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21 degrees' }] },
        ],
      });
      expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'It is sunny in Paris.' })]);
      const input = upstream().input as any[];
      const fc = input.find((i) => i.type === 'function_call');
      const out = input.find((i) => i.type === 'function_call_output');
      expect(out.call_id).toBe(fc.call_id);
      expect(JSON.stringify(out.output)).toContain('21 degrees');
    });

    it('stream: thinking from the reasoning summary, the tool input in deltas, message_stop last', async () => {
      h.mock.reply(responsesReply(toolScript, true));
      const stream = anthropic.messages.stream({
        model: 'to-responses',
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 2000 },
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [{ name: 'get_weather', input_schema: weatherParams as Anthropic.Tool.InputSchema }],
      });
      const types: string[] = [];
      stream.on('streamEvent', (e) => types.push(e.type));
      const final = await stream.finalMessage();
      expect(final.content.find((b) => b.type === 'thinking')).toMatchObject({ thinking: 'Need the weather.' });
      expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: { location: 'Paris' } });
      expect(types.at(-1)).toBe('message_stop');
      expect(upstream().reasoning).toMatchObject({ effort: expect.any(String) });
    });

    it('429 keeps its status and retry-after', async () => {
      h.mock.reply(rateLimited);
      const err = await anthropic.messages.create({ model: 'to-responses', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.RateLimitError);
      expect((err as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')).toBe('7');
    });
  });

  describe('@google/genai', () => {
    it('generateContent with a function: functionCall out, functionResponse back as function_call_output', async () => {
      h.mock.reply(responsesReply(toolScript, false));
      const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherParams }] }] };
      const first = await ai.models.generateContent({ model: 'to-responses', contents: 'Weather in Paris?', config });
      expect(first.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { location: 'Paris' } })]);
      expect(first.usageMetadata).toMatchObject({ promptTokenCount: 40, cachedContentTokenCount: 32, thoughtsTokenCount: 12 });

      h.mock.requests.length = 0;
      h.mock.reply(responsesReply(textScript, false));
      const second = await ai.models.generateContent({
        model: 'to-responses',
        config,
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
          first.candidates![0]!.content!,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', id: first.functionCalls![0]!.id, response: { temp: 21 } } }] },
        ],
      });
      expect(second.text).toBe('It is sunny in Paris.');
      const input = upstream().input as any[];
      const fc = input.find((i) => i.type === 'function_call');
      const out = input.find((i) => i.type === 'function_call_output');
      expect(out.call_id).toBe(fc.call_id);
      expect(JSON.stringify(out.output)).toContain('21');
    });

    it('generateContentStream: the text in chunks, the last with finishReason and usage', async () => {
      h.mock.reply(responsesReply(textScript, true));
      let text = '';
      let last: any;
      for await (const chunk of await ai.models.generateContentStream({ model: 'to-responses', contents: 'Weather?' })) {
        text += chunk.text ?? '';
        last = chunk;
      }
      expect(text).toBe('It is sunny in Paris.');
      expect(last.candidates[0].finishReason).toBe('STOP');
      expect(last.usageMetadata.totalTokenCount).toBe(58);
      expect(upstream().stream).toBe(true);
    });

    it('429 keeps its status', async () => {
      h.mock.reply(rateLimited);
      const err = await ai.models.generateContent({ model: 'to-responses', contents: 'Hi' }).catch((e: unknown) => e);
      expect(apiErrorOf(err).status).toBe(429);
      expect(apiErrorOf(err).body.error.status).toBe('RESOURCE_EXHAUSTED');
    });
  });
});
