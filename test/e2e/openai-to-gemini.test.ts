/**
 * The official `openai` SDK as the caller, through a real Interlingua server, against a
 * Gemini-dialect mock upstream: parallel same-name calls, thought signatures, schema compiling,
 * safety blocks, rate limits, malformed calls and image URLs.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import {
  PARALLEL_SAME_NAME,
  PARALLEL_SAME_NAME_SSE,
  PNG_1X1,
  SCHEMA_WITH_REFS,
  expectCompiledSchema,
  expectNoSignatureData,
  expectSchemaWarnings,
  geminiText,
  pngServer,
  signatureCases,
  textSignatureOf,
  THOUGHTS_THEN_TEXT_SSE,
} from './helpers-gemini.ts';

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;
const weather: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const user: Msg = { role: 'user', content: 'Weather in Paris and Rome?' };

describe.each(TARGETS)('%s: openai SDK → Interlingua → Gemini upstream', (target) => {
  const h = useHarness(target);
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  /** Send both tool results back in `order` and return the function-response turn the mock got. */
  async function sendResults(assistant: OpenAI.Chat.Completions.ChatCompletionMessage, order: number[]) {
    const calls = assistant.tool_calls!.filter((c) => c.type === 'function');
    const results: Msg[] = order.map((i) => ({ role: 'tool', tool_call_id: calls[i]!.id, content: JSON.stringify({ temp: i === 0 ? 21 : 25 }) }));
    h.mock.reply(geminiText('Paris 21, Rome 25.'));
    const res = await client.chat.completions.create({ model: 'to-gemini', messages: [user, assistant as Msg, ...results], tools: [weather] });
    expect(res.choices[0]!.message.content).toBe('Paris 21, Rome 25.');
    return h.mock.requests.at(-1)!.json.contents;
  }

  function expectPairedTurn(contents: any[]) {
    expect(contents).toHaveLength(3);
    expect(contents[1].role).toBe('model');
    expect(contents[1].parts.map((p: any) => p.functionCall.args.city)).toEqual(['Paris', 'Rome']);
    expect(contents[2].role).toBe('user');
    expect(contents[2].parts).toEqual([
      { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
      { functionResponse: { name: 'get_weather', response: { temp: 25 } } },
    ]);
  }

  it('parallel same-name calls without ids: two distinct ids; results (either order) pair into one ordered turn', async () => {
    h.mock.reply(PARALLEL_SAME_NAME);
    const res = await client.chat.completions.create({ model: 'to-gemini', messages: [user], tools: [weather] });
    const choice = res.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const calls = choice.message.tool_calls!.filter((c) => c.type === 'function');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(calls.map((c) => JSON.parse(c.function.arguments).city)).toEqual(['Paris', 'Rome']);
    expect(h.mock.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(h.mock.requests[0]!.headers['x-goog-api-key']).toBe(UPSTREAM_KEYS.gemini);
    expect(h.mock.requests[0]!.json.tools[0].functionDeclarations[0].name).toBe('get_weather');

    expectPairedTurn(await sendResults(choice.message, [0, 1]));
    expectPairedTurn(await sendResults(choice.message, [1, 0]));
  });

  it('parallel same-name calls streamed: fresh index per call, distinct ids, same pairing', async () => {
    h.mock.reply(PARALLEL_SAME_NAME_SSE);
    const final = await client.chat.completions.stream({ model: 'to-gemini', messages: [user], tools: [weather] }).finalChatCompletion();
    const calls = final.choices[0]!.message.tool_calls!.filter((c) => c.type === 'function');
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(h.mock.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expectPairedTurn(await sendResults(final.choices[0]!.message, [1, 0]));
  });

  describe.each(signatureCases())('thought signature round trip: $name', (sc) => {
    it('comes back byte-identical on the same functionCall part; never sent to OpenAI', async () => {
      h.mock.reply(sc.reply);
      const ask = { model: sc.model, messages: [{ role: 'user', content: sc.question } as Msg], tools: [{ ...weather, function: { ...weather.function, name: sc.name } }] };
      const assistant = sc.stream
        ? (await client.chat.completions.stream(ask).finalChatCompletion()).choices[0]!.message
        : (await client.chat.completions.create(ask)).choices[0]!.message;
      const call = assistant.tool_calls![0]!;
      expect(call.type === 'function' && call.function.name).toBe(sc.name);
      const followUp = [...ask.messages, assistant as Msg, { role: 'tool', tool_call_id: call.id, content: 'Sunny, 18C' } as Msg];

      h.mock.reply(geminiText('It is sunny.'));
      await client.chat.completions.create({ ...ask, messages: followUp });
      const contents = h.mock.requests.at(-1)!.json.contents;
      expect(contents[1].parts).toHaveLength(1);
      expect(contents[1].parts[0].functionCall.name).toBe(sc.name);
      expect(contents[1].parts[0].thoughtSignature).toBe(sc.signature);
      expect(contents[2].parts[0].functionResponse).toEqual({ name: sc.name, response: { output: 'Sunny, 18C' } });

      // The same conversation routed to another vendor: no signature data leaves for OpenAI.
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      const { response } = await client.chat.completions.create({ ...ask, model: 'to-openai', messages: followUp }).withResponse();
      const sent = h.mock.requests.at(-1)!;
      expect(sent.url).toBe('/v1/chat/completions');
      expectNoSignatureData(sent.body, sc.signature);
      const ids = sent.json.messages.flatMap((m: any) => [...(m.tool_calls ?? []).map((c: any) => c.id), ...(m.tool_call_id ? [m.tool_call_id] : [])]);
      expect(ids).toHaveLength(2);
      expect(ids[0]).toBe(ids[1]);
      expect(response.headers.get('x-interlingua-warnings')).toContain('signature-not-replayed');
    });
  });

  it.each([
    ['gemini3-text-thought-signature.json', false],
    ['stream-gemini3-text-thought-signature.sse', true],
  ])('text thought signature (%s) comes back on the text the model wrote', async (file, stream) => {
    const signature = textSignatureOf(file);
    h.mock.reply(fixtureReply('gemini', file));
    const ask = { model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'How many r in strawberry?' } as Msg] };
    const assistant = stream
      ? (await client.chat.completions.stream(ask).finalChatCompletion()).choices[0]!.message
      : (await client.chat.completions.create(ask)).choices[0]!.message;
    expect(assistant.content).toContain('strawberry');
    h.mock.reply(geminiText('You are welcome.'));
    await client.chat.completions.create({ ...ask, messages: [...ask.messages, assistant as Msg, { role: 'user', content: 'Thanks!' }] });
    const model = h.mock.requests.at(-1)!.json.contents[1];
    expect(model.role).toBe('model');
    expect(model.parts.map((p: any) => p.text ?? '').join('')).toBe(assistant.content);
    expect(model.parts.filter((p: any) => p.thoughtSignature).map((p: any) => p.thoughtSignature)).toEqual([signature]);
    expect(model.parts.some((p: any) => p.thought)).toBe(false);
  });

  it('stream: thoughts then text → reasoning_content then content; cumulative usage → one final usage', async () => {
    h.mock.reply(THOUGHTS_THEN_TEXT_SSE);
    const stream = await client.chat.completions.create({
      model: 'to-gemini',
      messages: [user],
      stream: true,
      stream_options: { include_usage: true },
      reasoning_effort: 'low',
    });
    let reasoning = '';
    let text = '';
    const usages: OpenAI.CompletionUsage[] = [];
    for await (const chunk of stream) {
      if (chunk.usage) usages.push(chunk.usage);
      const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
      if (delta?.reasoning_content) {
        expect(text).toBe('');
        reasoning += delta.reasoning_content;
      }
      text += delta?.content ?? '';
    }
    expect(reasoning).toBe('Adding 1 to 100 pairwise gives 101 × 50.');
    expect(text).toBe('The sum is 5050.');
    expect(usages).toHaveLength(1);
    expect(usages[0]).toMatchObject({ prompt_tokens: 17, completion_tokens: 27, total_tokens: 44 });
    expect(h.mock.requests[0]!.json.generationConfig.thinkingConfig).toMatchObject({ thinkingBudget: expect.any(Number) });
  });

  it('n: 2 → candidateCount 2 in one call, two choices back', async () => {
    h.mock.reply({
      body: JSON.stringify({
        candidates: [0, 1].map((index) => ({ content: { role: 'model', parts: [{ text: `answer ${index}` }] }, finishReason: 'STOP', index })),
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 4, totalTokenCount: 9 },
      }),
    });
    const res = await client.chat.completions.create({ model: 'to-gemini', messages: [user], n: 2 });
    expect(res.choices.map((c) => c.message.content)).toEqual(['answer 0', 'answer 1']);
    expect(h.mock.requests).toHaveLength(1);
    expect(h.mock.requests[0]!.json.generationConfig.candidateCount).toBe(2);
  });

  it('tool schema with $ref/$defs, anyOf, additionalProperties, const, nullable type → compiled, drops reported', async () => {
    h.mock.reply(geminiText('ok'));
    const { response } = await client.chat.completions
      .create({ model: 'to-gemini', messages: [user], tools: [{ type: 'function', function: { name: 'book', parameters: SCHEMA_WITH_REFS } }] })
      .withResponse();
    expectCompiledSchema(h.mock.requests[0]!.json.tools[0].functionDeclarations[0].parameters);
    expectSchemaWarnings(response.headers.get('x-interlingua-warnings'));
  });

  it('safety: a blocked prompt → finish_reason content_filter, no content', async () => {
    h.mock.reply(fixtureReply('gemini', 'prompt-blocked-prohibited-content.json'));
    const res = await client.chat.completions.create({ model: 'to-gemini', messages: [user] });
    expect(res.choices).toHaveLength(1);
    expect(res.choices[0]!.finish_reason).toBe('content_filter');
    expect(res.choices[0]!.message.content).toBeNull();
    expect(res.usage?.prompt_tokens).toBe(12559);
  });

  it('safety: a candidate stopped for SAFETY → finish_reason content_filter', async () => {
    h.mock.reply(fixtureReply('gemini', 'candidate-safety-block.json'));
    const res = await client.chat.completions.create({ model: 'to-gemini', messages: [user] });
    expect(res.choices[0]!.finish_reason).toBe('content_filter');
  });

  it.each(['stream-prompt-blocked-prohibited-content.sse', 'stream-candidate-prohibited-content.sse'])('safety: streamed %s → a content_filter finish chunk, then [DONE]', async (file) => {
    h.mock.reply(fixtureReply('gemini', file));
    const stream = await client.chat.completions.create({ model: 'to-gemini', messages: [user], stream: true });
    const reasons: string[] = [];
    let text = '';
    for await (const chunk of stream) {
      for (const c of chunk.choices) {
        if (c.finish_reason) reasons.push(c.finish_reason);
        text += c.delta.content ?? '';
      }
    }
    expect(reasons).toEqual(['content_filter']);
    expect(text).toBe(file.includes('candidate') ? 'No' : '');
  });

  it('429 RESOURCE_EXHAUSTED with RetryInfo → RateLimitError, retry-after 35', async () => {
    h.mock.reply(fixtureReply('gemini', 'error-429-resource-exhausted.json'));
    const err = await client.chat.completions.create({ model: 'to-gemini', messages: [user] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.headers?.get('retry-after')).toBe('35');
    expect(e.message).toContain('exceeded your current quota');
    expect(h.mock.requests).toHaveLength(1);
  });

  it('MALFORMED_FUNCTION_CALL → an APIError, never a clean stop (JSON and stream)', async () => {
    h.mock.reply(fixtureReply('gemini', 'malformed-function-call.json'));
    const err = await client.chat.completions.create({ model: 'to-gemini', messages: [user], tools: [weather] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(500);
    expect((err as Error).message).toContain('MALFORMED_FUNCTION_CALL');

    h.mock.reply(fixtureReply('gemini', 'stream-malformed-function-call-finish-message.sse'));
    const reasons: string[] = [];
    const streamErr = await (async () => {
      for await (const chunk of await client.chat.completions.create({ model: 'to-gemini', messages: [user], tools: [weather], stream: true })) {
        for (const c of chunk.choices) if (c.finish_reason) reasons.push(c.finish_reason);
      }
    })().catch((e: unknown) => e);
    expect(streamErr).toBeInstanceOf(OpenAI.APIError);
    expect(reasons).not.toContain('stop');
  });

  it('image URL → fetched by the guarded fetcher and sent as inlineData', async () => {
    h.mock.reply(pngServer(geminiText('A pixel.')));
    const res = await client.chat.completions.create({
      model: 'to-gemini',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `${h.mock.url}/pixel.png` } }] }],
    });
    expect(res.choices[0]!.message.content).toBe('A pixel.');
    expect(h.mock.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /pixel.png', 'POST /v1beta/models/gemini-2.5-flash:generateContent']);
    expect(h.mock.requests[0]!.headers['x-goog-api-key']).toBeUndefined();
    expect(h.mock.requests[0]!.headers.authorization).toBeUndefined();
    expect(h.mock.requests[1]!.json.contents[0].parts).toEqual([{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG_1X1 } }]);
  });

  it('image URL to a private address not in fetchAllowHosts → 400, nothing fetched or sent', async () => {
    h.mock.reply(pngServer(geminiText('A pixel.')));
    for (const url of [`http://localhost:${h.mock.port}/pixel.png`, 'http://10.1.2.3/pixel.png', 'http://169.254.169.254/latest/meta-data']) {
      const err = await client.chat.completions
        .create({ model: 'to-gemini', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    }
    expect(h.mock.requests).toHaveLength(0);
  });
});
