/**
 * The Vercel AI SDK's default OpenAI provider (`openai(model)`: the Responses API) as a real
 * client through Interlingua: a multi-step tool loop with `generateText` and `streamText` to an
 * upstream of every dialect, and a chat with history replayed as `item_reference`s (the
 * provider's default `store: true`) served from the proxy's memory store.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DIALECTS, INBOUND_KEY, MODEL_FOR, useClientsHarness } from './harness.ts';
import { chatWithHistory, expectHistoryServed } from './history.ts';
import { scripted, signatures, thinkingBlocks, toolResults, type Dialect } from './scripted-upstream.ts';

const CITY = 'Lisbon';
const FORECAST = 'sunny, 23 C';

/** The tool the model calls; `calls` records every execution. */
function weatherTool(calls: string[]) {
  return tool({
    description: 'Current weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      calls.push(city);
      return { city, forecast: FORECAST };
    },
  });
}

const script = [{ tool: 'get_weather', args: { city: CITY } }, { text: `In ${CITY} it is ${FORECAST}.` }];

describe('AI SDK openai(model) → Interlingua (Responses) → every upstream dialect', () => {
  const h = useClientsHarness();
  let openai: ReturnType<typeof createOpenAI>;
  beforeAll(() => {
    openai = createOpenAI({ baseURL: `${h.proxy.url}/v1`, apiKey: INBOUND_KEY });
  });

  /** The upstream's second request carries the tool result, linked to the call it answers. */
  function expectLinkedResult(dialect: Dialect) {
    const calls = h.mock.requests.filter((r) => r.method === 'POST');
    expect(calls).toHaveLength(2);
    expect(calls.every((r) => r.url.startsWith(dialect === 'openai-responses' ? '/v1/responses' : dialect === 'openai' ? '/v1/chat/completions' : dialect === 'anthropic' ? '/v1/messages' : '/v1beta/models/'))).toBe(true);
    expect(toolResults(dialect, calls[0]!.json)).toEqual([]);
    const results = toolResults(dialect, calls[1]!.json);
    expect(results).toHaveLength(1);
    expect(results[0]!.output).toContain(FORECAST);
    const linkedTo = dialect === 'gemini' ? 'get_weather' : dialect === 'anthropic' ? 'toolu_1' : `call_${dialect.replace('-', '_')}_1`;
    expect(results[0]!.id).toBe(linkedTo);
  }

  it.each(DIALECTS)('generateText: tool loop to %s', async (dialect) => {
    h.mock.reply(scripted(dialect, script));
    const executed: string[] = [];
    const result = await generateText({
      model: openai(MODEL_FOR[dialect]),
      prompt: `What is the weather in ${CITY}?`,
      tools: { get_weather: weatherTool(executed) },
      stopWhen: stepCountIs(4),
    });
    expect(executed).toEqual([CITY]);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(result.text).toBe(`In ${CITY} it is ${FORECAST}.`);
    expect(result.finishReason).toBe('stop');
    expect(result.totalUsage.inputTokens).toBe(40);
    expectLinkedResult(dialect);
    expect(h.mock.requests.every((r) => r.json?.stream !== true && !r.url.includes(':streamGenerateContent'))).toBe(true);
  });

  it.each(DIALECTS)('streamText: tool loop to %s', async (dialect) => {
    h.mock.reply(scripted(dialect, script));
    const executed: string[] = [];
    const errors: unknown[] = [];
    const result = streamText({
      model: openai(MODEL_FOR[dialect]),
      prompt: `What is the weather in ${CITY}?`,
      tools: { get_weather: weatherTool(executed) },
      stopWhen: stepCountIs(4),
      onError: ({ error }) => void errors.push(error),
    });
    let deltas = 0;
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas++;
    expect(errors).toEqual([]);
    expect(executed).toEqual([CITY]);
    expect(deltas).toBeGreaterThanOrEqual(2);
    expect(await result.text).toBe(`In ${CITY} it is ${FORECAST}.`);
    expect(await result.finishReason).toBe('stop');
    expect((await result.steps).map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    expectLinkedResult(dialect);
    expect(h.mock.requests.some((r) => r.json?.stream === true || r.url.includes(':streamGenerateContent'))).toBe(true);
  });

  /**
   * A reasoning model (the provider's `forceReasoning`): the upstream's signed reasoning reaches
   * the SDK as a reasoning item, and the SDK's replay of it — an `item_reference` with its default
   * `store: true`, or the item with `encrypted_content` with `store: false` — brings the signature
   * back to the upstream on the tool-result turn.
   */
  describe.each([
    ['anthropic', true],
    ['anthropic', false],
    ['gemini', true],
    ['gemini', false],
  ] as Array<['anthropic' | 'gemini', boolean]>)('reasoning to %s, store: %s', (dialect, store) => {
    const signed = script.map((t, i) => ({ ...t, thinking: { text: `Thinking ${i + 1}`, signature: `sig-${dialect}-${i + 1}` } }));
    const providerOptions = { openai: { forceReasoning: true, reasoningEffort: 'medium', reasoningSummary: 'auto', store, include: ['reasoning.encrypted_content'] } };

    it.each(['generateText', 'streamText'])('%s: the signature returns on turn 2', async (fn) => {
      h.mock.reply(scripted(dialect, signed));
      const executed: string[] = [];
      const options = { model: openai(MODEL_FOR[dialect]), prompt: `What is the weather in ${CITY}?`, tools: { get_weather: weatherTool(executed) }, stopWhen: stepCountIs(4), providerOptions };
      let text: string;
      let reasoning: string[];
      if (fn === 'generateText') {
        const r = await generateText(options);
        text = r.text;
        reasoning = r.steps.map((s) => s.reasoningText ?? '');
      } else {
        const errors: unknown[] = [];
        const r = streamText({ ...options, onError: ({ error }) => void errors.push(error) });
        text = await r.text;
        reasoning = (await r.steps).map((s) => s.reasoningText ?? '');
        expect(errors).toEqual([]);
      }
      expect(text).toBe(`In ${CITY} it is ${FORECAST}.`);
      expect(reasoning).toEqual(['Thinking 1', 'Thinking 2']);
      expectLinkedResult(dialect);
      const posts = h.mock.requests.filter((r) => r.method === 'POST');
      expect(signatures(dialect, posts[1]!.json)).toEqual([`sig-${dialect}-1`]);
      if (dialect === 'anthropic') expect(thinkingBlocks(posts[1]!.json)).toEqual([{ text: 'Thinking 1', signature: 'sig-anthropic-1' }]);
    });
  });

  it('a chat with history: turn 1 replayed as item_reference, served from the memory store, to anthropic', async () => {
    const run = await chatWithHistory(h.mock, h.proxy.url, h.proxy.url);
    expectHistoryServed(run);
  });
});
