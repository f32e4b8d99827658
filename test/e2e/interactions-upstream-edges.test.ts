/**
 * A `gemini-interactions` upstream's endings and failures as other callers see them: an
 * `incomplete` interaction is a length stop (OpenAI `length`, Anthropic `max_tokens`, JSON and
 * stream); Google errors keep their meaning (404, 400, 503) in each caller's shape; events a
 * client does not know (`interaction.status_update`, a future event type, a
 * `text_annotation_delta`) are skipped, as the docs ask; a Gemini caller gets the signature of the
 * thought before a call on that `functionCall` part, where generateContent puts it.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { interactionsAnswer, interactionsError, interactionsSseChunks } from '../support/interactions-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { apiErrorOf } from './helpers-gemini.ts';
import { genai, interactionsE2eConfig, type GoogleGenAI } from './interactions-helpers.ts';

const partial = { steps: [{ type: 'text' as const, text: 'Part' }], incomplete: true };
const messages = [{ role: 'user' as const, content: 'Hi' }];

describe.each(TARGETS)('%s: gemini-interactions upstream endings and failures', (target) => {
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

  it('incomplete: OpenAI finish_reason length, Anthropic stop_reason max_tokens (JSON and stream)', async () => {
    h.mock.reply(interactionsAnswer(partial));
    const chat = await openai.chat.completions.create({ model: 'to-interactions', messages });
    expect(chat.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'Part' } });
    const msg = await anthropic.messages.create({ model: 'to-interactions', max_tokens: 5, messages });
    expect(msg.stop_reason).toBe('max_tokens');
    const streamed = await anthropic.messages.stream({ model: 'to-interactions', max_tokens: 5, messages }).finalMessage();
    expect(streamed.stop_reason).toBe('max_tokens');
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text', text: 'Part' })]);
    expect(h.mock.requests.map((r) => r.json.stream === true)).toEqual([false, false, true]);
  });

  it("Google errors keep their meaning in each caller's shape: 404 NOT_FOUND, 400 INVALID_ARGUMENT, 503 UNAVAILABLE", async () => {
    h.mock.reply(interactionsError(404, 'NOT_FOUND', 'models/gemini-3-flash-preview is not found'));
    const notFound = await openai.chat.completions.create({ model: 'to-interactions', messages }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(OpenAI.NotFoundError);
    h.mock.reply(interactionsError(400, 'INVALID_ARGUMENT', 'Bad schema.'));
    const bad = await anthropic.messages.create({ model: 'to-interactions', max_tokens: 5, messages }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect((bad as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('Bad schema.') } });
    h.mock.reply(interactionsError(503, 'UNAVAILABLE', 'The model is overloaded.'));
    const down = apiErrorOf(await ai.models.generateContent({ model: 'to-interactions', contents: 'Hi' }).catch((e: unknown) => e));
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
  });

  it('events a client does not know are skipped: the text and the finish come through whole', async () => {
    const chunks = interactionsSseChunks({ steps: [{ type: 'text', text: 'Hello world' }] });
    const frame = (data: Record<string, unknown>) => `event: ${data.event_type}\ndata: ${JSON.stringify(data)}\n\n`;
    h.mock.reply({
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        chunks[0]!,
        frame({ event_type: 'interaction.status_update', interaction_id: 'v1_mock_interaction_1', status: 'in_progress' }),
        frame({ event_type: 'future.event', detail: 1 }),
        ...chunks.slice(1, 3),
        frame({ event_type: 'step.delta', index: 0, delta: { type: 'text_annotation_delta', annotations: [] } }),
        ...chunks.slice(3),
      ],
    });
    let text = '';
    let finish: string | null = null;
    for await (const c of await openai.chat.completions.create({ model: 'to-interactions', messages, stream: true })) {
      text += c.choices[0]?.delta.content ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('Hello world');
    expect(finish).toBe('stop');
  });

  it("a Gemini caller gets the thought's signature on the functionCall part it signs (JSON and stream), no empty thought part", async () => {
    const tools = [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }];
    const steps = [
      { type: 'thought' as const, signature: 'U0lHWA==' },
      { type: 'function_call' as const, id: 'fc9', name: 'get_weather', arguments: { city: 'Paris' } },
    ];
    h.mock.reply(interactionsAnswer({ steps }));
    const res = await ai.models.generateContent({ model: 'to-interactions', contents: 'Weather?', config: { tools } });
    expect(res.candidates?.[0]?.content?.parts).toEqual([{ functionCall: expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } }), thoughtSignature: 'U0lHWA==' }]);
    h.mock.reply(interactionsAnswer({ steps }));
    const parts = [];
    for await (const c of await ai.models.generateContentStream({ model: 'to-interactions', contents: 'Weather?', config: { tools } })) parts.push(...(c.candidates?.[0]?.content?.parts ?? []));
    expect(parts.filter((p) => p.thought)).toEqual([]);
    expect(parts.find((p) => p.functionCall)).toMatchObject({ functionCall: { name: 'get_weather' }, thoughtSignature: 'U0lHWA==' });
  });
});
