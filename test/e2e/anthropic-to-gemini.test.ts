/**
 * The official `@anthropic-ai/sdk` (1.x) as the caller, through a real Interlingua server, against
 * a Gemini-dialect mock upstream: parallel same-name calls, thought signatures, schema compiling,
 * safety blocks, rate limits, malformed calls and image URLs.
 */
import Anthropic from '@anthropic-ai/sdk';
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

type Msg = Anthropic.MessageParam;
const weather: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const user: Msg = { role: 'user', content: 'Weather in Paris and Rome?' };
const base = { max_tokens: 1024 };

describe.each(TARGETS)('%s: @anthropic-ai/sdk → Interlingua → Gemini upstream', (target) => {
  const h = useHarness(target);
  let client: Anthropic;
  beforeAll(() => {
    client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
  });

  /** Send both tool results back in `order` (one user turn) and return the contents the mock got. */
  async function sendResults(content: Anthropic.ContentBlock[], order: number[]) {
    const uses = content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    const results: Anthropic.ToolResultBlockParam[] = order.map((i) => ({ type: 'tool_result', tool_use_id: uses[i]!.id, content: JSON.stringify({ temp: i === 0 ? 21 : 25 }) }));
    h.mock.reply(geminiText('Paris 21, Rome 25.'));
    const res = await client.messages.create({ ...base, model: 'to-gemini', messages: [user, { role: 'assistant', content }, { role: 'user', content: results }], tools: [weather] });
    expect(res.content).toEqual([expect.objectContaining({ type: 'text', text: 'Paris 21, Rome 25.' })]);
    return h.mock.requests.at(-1)!.json.contents;
  }

  function expectPairedTurn(contents: any[]) {
    expect(contents).toHaveLength(3);
    expect(contents[1].parts.map((p: any) => p.functionCall.args.city)).toEqual(['Paris', 'Rome']);
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
        { functionResponse: { name: 'get_weather', response: { temp: 25 } } },
      ],
    });
  }

  it('parallel same-name calls without ids: two distinct tool_use ids; results (either order) pair into one ordered turn', async () => {
    h.mock.reply(PARALLEL_SAME_NAME);
    const res = await client.messages.create({ ...base, model: 'to-gemini', messages: [user], tools: [weather] });
    expect(res.stop_reason).toBe('tool_use');
    const uses = res.content.filter((b) => b.type === 'tool_use');
    expect(uses).toHaveLength(2);
    expect(uses[0]!.id).not.toBe(uses[1]!.id);
    expect(uses.map((u) => (u.input as any).city)).toEqual(['Paris', 'Rome']);
    expect(h.mock.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(h.mock.requests[0]!.headers['x-goog-api-key']).toBe(UPSTREAM_KEYS.gemini);

    expectPairedTurn(await sendResults(res.content, [0, 1]));
    expectPairedTurn(await sendResults(res.content, [1, 0]));
  });

  it('parallel same-name calls streamed: two tool_use blocks, same pairing', async () => {
    h.mock.reply(PARALLEL_SAME_NAME_SSE);
    const final = await client.messages.stream({ ...base, model: 'to-gemini', messages: [user], tools: [weather] }).finalMessage();
    const uses = final.content.filter((b) => b.type === 'tool_use');
    expect(uses).toHaveLength(2);
    expect(new Set(uses.map((u) => u.id)).size).toBe(2);
    expect(final.stop_reason).toBe('tool_use');
    expect(h.mock.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expectPairedTurn(await sendResults(final.content, [1, 0]));
  });

  describe.each(signatureCases())('thought signature round trip: $file', (sc) => {
    it('comes back byte-identical on the same functionCall part; never sent to another vendor', async () => {
      h.mock.reply(sc.reply);
      const ask = { ...base, model: sc.model, messages: [{ role: 'user', content: sc.question } as Msg], tools: [{ ...weather, name: sc.name }] };
      const message = sc.stream ? await client.messages.stream(ask).finalMessage() : await client.messages.create(ask);
      const use = message.content.find((b) => b.type === 'tool_use')!;
      expect(use.name).toBe(sc.name);
      const followUp: Msg[] = [
        ...ask.messages,
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 18C' }] },
      ];

      h.mock.reply(geminiText('It is sunny.'));
      await client.messages.create({ ...ask, messages: followUp });
      const contents = h.mock.requests.at(-1)!.json.contents;
      const call = contents[1].parts.find((p: any) => p.functionCall);
      expect(call.functionCall.name).toBe(sc.name);
      expect(call.thoughtSignature).toBe(sc.signature);
      expect(contents[2].parts[0].functionResponse).toEqual({ name: sc.name, response: { output: 'Sunny, 18C' } });

      // The same conversation routed to OpenAI, and to Anthropic: no Gemini signature leaves.
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      await client.messages.create({ ...ask, model: 'to-openai', messages: followUp });
      expect(h.mock.requests.at(-1)!.url).toBe('/v1/chat/completions');
      expectNoSignatureData(h.mock.requests.at(-1)!.body, sc.signature);

      h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
      const { response } = await client.messages.create({ ...ask, model: 'to-anthropic', messages: followUp }).withResponse();
      const sent = h.mock.requests.at(-1)!;
      expect(sent.url).toBe('/v1/messages');
      expectNoSignatureData(sent.body, sc.signature);
      const toolUse = sent.json.messages[1].content.find((b: any) => b.type === 'tool_use');
      expect(sent.json.messages[2].content[0].tool_use_id).toBe(toolUse.id);
      expect(response.headers.get('x-interlingua-warnings')).toContain('signature-not-replayed');
    });
  });

  it.each([
    ['gemini3-text-thought-signature.json', false],
    ['stream-gemini3-text-thought-signature.sse', true],
  ])('text thought signature (%s) comes back on the text the model wrote', async (file, stream) => {
    const signature = textSignatureOf(file);
    h.mock.reply(fixtureReply('gemini', file));
    const ask = { ...base, model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'How many r in strawberry?' } as Msg] };
    const message = stream ? await client.messages.stream(ask).finalMessage() : await client.messages.create(ask);
    const answer = message.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
    expect(answer).toContain('strawberry');
    h.mock.reply(geminiText('You are welcome.'));
    await client.messages.create({ ...ask, messages: [...ask.messages, { role: 'assistant', content: message.content }, { role: 'user', content: 'Thanks!' }] });
    const model = h.mock.requests.at(-1)!.json.contents[1];
    expect(model.role).toBe('model');
    expect(model.parts.map((p: any) => p.text ?? '').join('')).toBe(answer);
    expect(model.parts.filter((p: any) => p.thoughtSignature).map((p: any) => p.thoughtSignature)).toEqual([signature]);
    expect(model.parts.some((p: any) => p.thought)).toBe(false);
  });

  it('stream: thought parts then text → a thinking block, then a new text block; usage from the last chunk', async () => {
    h.mock.reply(THOUGHTS_THEN_TEXT_SSE);
    const final = await client.messages
      .stream({ max_tokens: 4096, model: 'to-gemini', messages: [user], thinking: { type: 'enabled', budget_tokens: 2048 } })
      .finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(final.content[0]).toMatchObject({ type: 'thinking', thinking: 'Adding 1 to 100 pairwise gives 101 × 50.' });
    expect(final.content[1]).toMatchObject({ type: 'text', text: 'The sum is 5050.' });
    expect(final.usage).toMatchObject({ input_tokens: 17, output_tokens: 27 });
    expect(final.stop_reason).toBe('end_turn');
    expect(h.mock.requests[0]!.json.generationConfig.thinkingConfig).toMatchObject({ thinkingBudget: 2048, includeThoughts: true });
  });

  it('tool schema with $ref/$defs, anyOf, additionalProperties, const, nullable type → compiled, drops reported', async () => {
    h.mock.reply(geminiText('ok'));
    const { response } = await client.messages
      .create({ ...base, model: 'to-gemini', messages: [user], tools: [{ name: 'book', input_schema: SCHEMA_WITH_REFS as Anthropic.Tool.InputSchema }] })
      .withResponse();
    expectCompiledSchema(h.mock.requests[0]!.json.tools[0].functionDeclarations[0].parameters);
    expectSchemaWarnings(response.headers.get('x-interlingua-warnings'));
  });

  it('safety: a blocked prompt and a SAFETY candidate → stop_reason refusal', async () => {
    h.mock.reply(fixtureReply('gemini', 'prompt-blocked-prohibited-content.json'));
    const blocked = await client.messages.create({ ...base, model: 'to-gemini', messages: [user] });
    expect(blocked.stop_reason).toBe('refusal');
    expect(blocked.usage.input_tokens).toBe(12559);

    h.mock.reply(fixtureReply('gemini', 'candidate-safety-block.json'));
    const filtered = await client.messages.create({ ...base, model: 'to-gemini', messages: [user] });
    expect(filtered.stop_reason).toBe('refusal');
  });

  it.each(['stream-prompt-blocked-prohibited-content.sse', 'stream-candidate-prohibited-content.sse'])('safety: streamed %s → stop_reason refusal', async (file) => {
    h.mock.reply(fixtureReply('gemini', file));
    const final = await client.messages.stream({ ...base, model: 'to-gemini', messages: [user] }).finalMessage();
    expect(final.stop_reason).toBe('refusal');
    const text = final.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text).toBe(file.includes('candidate') ? 'No' : '');
  });

  it('429 RESOURCE_EXHAUSTED with RetryInfo → RateLimitError, retry-after 35', async () => {
    h.mock.reply(fixtureReply('gemini', 'error-429-resource-exhausted.json'));
    const err = await client.messages.create({ ...base, model: 'to-gemini', messages: [user] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    const e = err as InstanceType<typeof Anthropic.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.headers?.get('retry-after')).toBe('35');
    expect(e.message).toContain('exceeded your current quota');
  });

  it('MALFORMED_FUNCTION_CALL → an APIError, never a clean stop (JSON and stream)', async () => {
    h.mock.reply(fixtureReply('gemini', 'malformed-function-call.json'));
    const err = await client.messages.create({ ...base, model: 'to-gemini', messages: [user], tools: [weather] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as Error).message).toContain('MALFORMED_FUNCTION_CALL');

    h.mock.reply(fixtureReply('gemini', 'stream-malformed-function-call-finish-message.sse'));
    const streamErr = await client.messages.stream({ ...base, model: 'to-gemini', messages: [user], tools: [weather] }).finalMessage().catch((e: unknown) => e);
    expect(streamErr).toBeInstanceOf(Anthropic.APIError);
    expect((streamErr as Error).message).toContain('MALFORMED_FUNCTION_CALL');
  });

  it('image URL → fetched by the guarded fetcher and sent as inlineData; a private URL → 400', async () => {
    h.mock.reply(pngServer(geminiText('A pixel.')));
    const res = await client.messages.create({
      ...base,
      model: 'to-gemini',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'url', url: `${h.mock.url}/pixel.png` } }] }],
    });
    expect(res.content[0]).toMatchObject({ type: 'text', text: 'A pixel.' });
    expect(h.mock.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
    expect(h.mock.requests[1]!.json.contents[0].parts).toEqual([{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG_1X1 } }]);

    h.mock.requests.length = 0;
    const err = await client.messages
      .create({ ...base, model: 'to-gemini', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: `http://localhost:${h.mock.port}/pixel.png` } }] }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(h.mock.requests).toHaveLength(0);
  });
});
