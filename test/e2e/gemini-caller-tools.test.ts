/**
 * `@google/genai` as the caller: function calling round trips, generation knobs, images and token
 * counting, against OpenAI, Anthropic and Gemini mock upstreams.
 */
import { Type } from '@google/genai';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { genai, PNG_1X1, UPSTREAM_CASES, type GoogleGenAI } from './helpers-gemini.ts';

const weatherTool = (name: string) => ({
  functionDeclarations: [
    {
      name,
      description: 'Current weather for a place',
      parameters: {
        type: Type.OBJECT,
        properties: { location: { type: Type.STRING }, city: { type: Type.STRING } },
      },
    },
  ],
});

describe.each(TARGETS)('%s: @google/genai tools, images, countTokens', (target) => {
  const h = useHarness(target);
  let ai: GoogleGenAI;
  beforeAll(() => {
    ai = genai(h.proxy.url);
  });

  describe.each(UPSTREAM_CASES)('→ $kind upstream', (u) => {
    it.each([
      ['the id echoed', true],
      ['no id (paired by name)', false],
    ])('function calling round trip, functionResponse with %s', async (_label, echoId) => {
      h.mock.reply(u.tool.reply);
      const question = { role: 'user', parts: [{ text: 'What is the weather?' }] };
      const first = await ai.models.generateContent({ model: u.model, contents: [question], config: { tools: [weatherTool(u.tool.name)] } });
      const calls = first.functionCalls!;
      expect(calls).toHaveLength(1);
      expect(calls[0]!.name).toBe(u.tool.name);
      expect(calls[0]!.args).toEqual(u.tool.args);
      if (u.tool.id) expect(calls[0]!.id).toBe(u.tool.id);
      const declared = h.mock.requests[0]!.json;
      if (u.kind === 'openai') expect(declared.tools[0].function.name).toBe(u.tool.name);
      if (u.kind === 'anthropic') expect(declared.tools[0].name).toBe(u.tool.name);

      h.mock.reply(u.text);
      const answer = { temperature: 12, unit: 'c' };
      const second = await ai.models.generateContent({
        model: u.model,
        contents: [
          question,
          first.candidates![0]!.content!,
          { role: 'user', parts: [{ functionResponse: { ...(echoId && calls[0]!.id ? { id: calls[0]!.id } : {}), name: calls[0]!.name, response: answer } }] },
        ],
        config: { tools: [weatherTool(u.tool.name)] },
      });
      expect(second.text).toBe(u.expectedText);
      const body = h.mock.requests[1]!.json;
      switch (u.kind) {
        case 'openai': {
          const assistant = body.messages.find((m: any) => m.role === 'assistant');
          expect(assistant.tool_calls).toHaveLength(1);
          expect(assistant.tool_calls[0].id).toBe(u.tool.id);
          expect(assistant.tool_calls[0].function.name).toBe(u.tool.name);
          expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(u.tool.args);
          const tool = body.messages.find((m: any) => m.role === 'tool');
          expect(tool.tool_call_id).toBe(u.tool.id);
          expect(JSON.parse(typeof tool.content === 'string' ? tool.content : tool.content[0].text)).toEqual(answer);
          break;
        }
        case 'anthropic': {
          const [, assistant, user] = body.messages;
          expect(assistant.role).toBe('assistant');
          const use = assistant.content.find((b: any) => b.type === 'tool_use');
          expect(use).toMatchObject({ id: u.tool.id, name: u.tool.name, input: u.tool.args });
          expect(user.role).toBe('user');
          const result = user.content.find((b: any) => b.type === 'tool_result');
          expect(result.tool_use_id).toBe(u.tool.id);
          expect(JSON.stringify(result.content)).toContain('temperature');
          break;
        }
        case 'gemini': {
          // Passthrough: the upstream sees the SDK's own history, signature included.
          const fixture = fixtureJson('gemini', 'gemini3-tool-call.json');
          expect(body.contents[1].parts[0].thoughtSignature).toBe(fixture.candidates[0].content.parts[0].thoughtSignature);
          expect(body.contents[2].parts[0].functionResponse).toMatchObject({ name: u.tool.name, response: answer });
          break;
        }
      }
    });

    it('images: inlineData reaches the upstream in its own image form', async () => {
      h.mock.reply(u.text);
      await ai.models.generateContent({
        model: u.model,
        contents: [{ role: 'user', parts: [{ text: 'What is in this picture?' }, { inlineData: { mimeType: 'image/png', data: PNG_1X1 } }] }],
      });
      const body = h.mock.requests[0]!.json;
      switch (u.kind) {
        case 'openai': {
          const parts = body.messages.at(-1).content;
          expect(parts).toContainEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } });
          break;
        }
        case 'anthropic': {
          const parts = body.messages.at(-1).content;
          expect(parts).toContainEqual(expect.objectContaining({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }));
          break;
        }
        case 'gemini':
          expect(body.contents[0].parts[1].inlineData).toEqual({ mimeType: 'image/png', data: PNG_1X1 });
          break;
      }
    });
  });

  it('parallel calls from OpenAI: results sent back reversed and without ids pair to the issued tool_call_ids', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'parallel-tool-calls.json'));
    const issued = fixtureJson('openai-chat', 'parallel-tool-calls.json').choices[0].message.tool_calls as any[];
    const question = { role: 'user', parts: [{ text: 'Weather in Edinburgh and the AAPL price?' }] };
    const first = await ai.models.generateContent({ model: 'to-openai', contents: [question], config: { tools: [weatherTool('GetWeatherArgs')] } });
    expect(first.functionCalls!.map((c) => c.id)).toEqual(issued.map((c) => c.id));
    h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const responses = [...first.functionCalls!].reverse().map((c) => ({ functionResponse: { name: c.name!, response: { result: `for ${c.name}` } } }));
    await ai.models.generateContent({ model: 'to-openai', contents: [question, first.candidates![0]!.content!, { role: 'user', parts: responses }] });
    const messages = h.mock.requests[1]!.json.messages;
    expect(messages[1].tool_calls.map((c: any) => c.id)).toEqual(issued.map((c) => c.id));
    const tools = messages.filter((m: any) => m.role === 'tool');
    expect(tools).toHaveLength(2);
    for (const t of tools) {
      const call = issued.find((c) => c.id === t.tool_call_id);
      expect(call).toBeDefined();
      expect(t.content).toContain(`for ${call.function.name}`);
    }
  });

  it.each([
    ['to-openai', 'openai-chat', 'stream-tool-call-single.sse'],
    ['to-anthropic', 'anthropic', 'stream-tool-use.sse'],
  ])('a streamed chat (%s): the function call in the chat history pairs with its functionResponse', async (model, dialect, file) => {
    h.mock.reply(fixtureReply(dialect, file));
    const chat = ai.chats.create({ model, config: { tools: [weatherTool('x')] } });
    const calls: any[] = [];
    for await (const chunk of await chat.sendMessageStream({ message: 'What is the weather?' })) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toHaveLength(1);
    h.mock.reply(fixtureReply(dialect, 'text-basic.json'));
    await chat.sendMessage({ message: [{ functionResponse: { id: calls[0].id, name: calls[0].name, response: { temperature: 12 } } }] });
    const body = h.mock.requests[1]!.json;
    if (dialect === 'openai-chat') {
      const assistant = body.messages.find((m: any) => m.role === 'assistant');
      expect(assistant.tool_calls[0].id).toBe(calls[0].id);
      expect(body.messages.find((m: any) => m.role === 'tool').tool_call_id).toBe(calls[0].id);
    } else {
      expect(body.messages[1].content.find((b: any) => b.type === 'tool_use').id).toBe(calls[0].id);
      expect(body.messages[2].content.find((b: any) => b.type === 'tool_result').tool_use_id).toBe(calls[0].id);
    }
  });

  it('generationConfig knobs reach OpenAI and Anthropic by name; what they lack is reported', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'n3-multiple-choices.json'));
    const schema = { type: Type.OBJECT, properties: { answer: { type: Type.STRING } }, required: ['answer'] };
    const res = await ai.models.generateContent({
      model: 'to-openai',
      contents: 'Answer in JSON.',
      config: { seed: 7, presencePenalty: 0.5, frequencyPenalty: 0.25, topK: 40, candidateCount: 3, responseMimeType: 'application/json', responseSchema: schema },
    });
    expect(res.candidates).toHaveLength(3);
    const body = h.mock.requests[0]!.json;
    expect(body).toMatchObject({ seed: 7, presence_penalty: 0.5, frequency_penalty: 0.25, n: 3 });
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.schema).toMatchObject({ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] });
    expect(body.top_k).toBeUndefined();
    expect(res.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toContain('dropped:generationConfig.topK');

    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const a = await ai.models.generateContent({ model: 'to-anthropic', contents: 'Hi', config: { topK: 40, seed: 7, maxOutputTokens: 300 } });
    expect(h.mock.requests[1]!.json).toMatchObject({ top_k: 40, max_tokens: 300 });
    expect(h.mock.requests[1]!.json.seed).toBeUndefined();
    expect(a.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toContain('dropped:generationConfig.seed');
  });

  it('streamed function call from OpenAI and Anthropic arrives whole, args parsed', async () => {
    for (const [model, reply] of [
      ['to-openai', fixtureReply('openai-chat', 'stream-tool-call-single.sse')],
      ['to-anthropic', fixtureReply('anthropic', 'stream-tool-use.sse')],
    ] as const) {
      h.mock.reply(reply);
      const calls: any[] = [];
      for await (const chunk of await ai.models.generateContentStream({ model, contents: 'weather?', config: { tools: [weatherTool('x')] } })) {
        calls.push(...(chunk.functionCalls ?? []));
      }
      expect(calls.length).toBeGreaterThanOrEqual(1);
      for (const c of calls) {
        expect(c.id).toMatch(/\S/);
        expect(typeof c.args).toBe('object');
      }
    }
  });

  it('countTokens: Gemini passthrough, Anthropic count_tokens, OpenAI estimated', async () => {
    h.mock.reply({ body: JSON.stringify({ totalTokens: 31 }) });
    const g = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'How many tokens is this?' });
    expect(g.totalTokens).toBe(31);
    expect(h.mock.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(JSON.stringify(h.mock.requests[0]!.json)).toContain('How many tokens is this?');

    h.mock.reply({ body: JSON.stringify({ totalTokens: 33 }) });
    expect((await ai.models.countTokens({ model: 'to-gemini', contents: 'How many tokens is this?' })).totalTokens).toBe(33);
    expect(h.mock.requests.at(-1)!.url).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    h.mock.requests.length = 1;

    h.mock.reply({ body: JSON.stringify({ input_tokens: 42 }) });
    const a = await ai.models.countTokens({ model: 'to-anthropic', contents: 'How many tokens is this?' });
    expect(a.totalTokens).toBe(42);
    expect(h.mock.requests[1]!.url).toBe('/v1/messages/count_tokens');
    expect(h.mock.requests[1]!.json).toMatchObject({ model: 'claude-sonnet-4-5', messages: [{ role: 'user' }] });

    const o = await ai.models.countTokens({ model: 'to-openai', contents: 'How many tokens is this?' });
    expect(o.totalTokens).toBeGreaterThan(0);
    expect(h.mock.requests).toHaveLength(2);
    const raw = await fetch(`${h.proxy.url}/v1beta/models/to-openai:countTokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': INBOUND_KEY },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'How many tokens is this?' }] }] }),
    });
    expect(raw.headers.get('x-interlingua-token-count')).toBe('estimated');
    expect(((await raw.json()) as any).totalTokens).toBe(o.totalTokens);
  });
});
