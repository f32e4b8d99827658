/**
 * The OpenAI Agents SDK as a real client through Interlingua: an Agent with a function tool,
 * run on the Responses API (its OpenAIProvider with an `openai` client whose base URL is the
 * proxy), the tool loop going to an upstream of every dialect, with and without streaming.
 */
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DIALECTS, INBOUND_KEY, MODEL_FOR, useClientsHarness } from './harness.ts';
import { scripted, thinkingBlocks, toolResults, type Dialect } from './scripted-upstream.ts';

setTracingDisabled(true);

const ORDER = 'A-1042';
const STATUS = 'shipped on 2026-11-20';
const ANSWER = `Order ${ORDER} was ${STATUS}.`;

describe('Agents SDK (Responses) → Interlingua → every upstream dialect', () => {
  const h = useClientsHarness();
  let runner: Runner;
  beforeAll(() => {
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), tracingDisabled: true });
  });

  function agent(dialect: Dialect, executed: string[], modelSettings: ConstructorParameters<typeof Agent>[0]['modelSettings'] = {}) {
    const orderStatus = tool({
      name: 'order_status',
      description: 'Shipping status of an order',
      parameters: z.object({ order: z.string() }),
      execute: async ({ order }) => {
        executed.push(order);
        return STATUS;
      },
    });
    return new Agent({ name: 'Support', instructions: 'Answer order questions with the tool.', model: MODEL_FOR[dialect], tools: [orderStatus], modelSettings });
  }

  function expectLoop(dialect: Dialect, executed: string[]) {
    expect(executed).toEqual([ORDER]);
    const posts = h.mock.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(toolResults(dialect, posts[0]!.json)).toEqual([]);
    const results = toolResults(dialect, posts[1]!.json);
    expect(results).toHaveLength(1);
    expect(results[0]!.output).toContain(STATUS);
  }

  const script = [{ tool: 'order_status', args: { order: ORDER } }, { text: ANSWER }];

  it.each(DIALECTS)('run: the function tool loop to %s', async (dialect) => {
    h.mock.reply(scripted(dialect, script));
    const executed: string[] = [];
    const result = await runner.run(agent(dialect, executed), `Where is order ${ORDER}?`);
    expect(result.finalOutput).toBe(ANSWER);
    expectLoop(dialect, executed);
  });

  it.each(DIALECTS)('run with stream: true: the function tool loop to %s', async (dialect) => {
    h.mock.reply(scripted(dialect, script));
    const executed: string[] = [];
    const result = await runner.run(agent(dialect, executed), `Where is order ${ORDER}?`, { stream: true });
    let text = '';
    for await (const chunk of result.toTextStream()) text += chunk;
    await result.completed;
    expect(result.error ?? null).toBeNull();
    expect(text).toBe(ANSWER);
    expect(result.finalOutput).toBe(ANSWER);
    expectLoop(dialect, executed);
  });

  it('server-managed conversation (previousResponseId) to anthropic: deltas only, the proxy store fills in the history', async () => {
    h.mock.reply(
      scripted('anthropic', (req) => {
        const last = JSON.stringify(req.json.messages.at(-1));
        return last.includes('When will it arrive') ? [{ text: 'Tomorrow.' }] : script;
      }),
    );
    const executed: string[] = [];
    const sent: Array<Record<string, unknown>> = [];
    const client = new OpenAI({
      apiKey: INBOUND_KEY,
      baseURL: `${h.proxy.url}/v1`,
      maxRetries: 0,
      fetch: async (url, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return fetch(url, init);
      },
    });
    const chained = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), tracingDisabled: true });
    const a = agent('anthropic', executed);
    const first = await chained.run(a, `Where is order ${ORDER}?`);
    expect(first.finalOutput).toBe(ANSWER);
    const second = await chained.run(a, 'When will it arrive?', { previousResponseId: first.lastResponseId });
    expect(second.finalOutput).toBe('Tomorrow.');
    expect(executed).toEqual([ORDER]);
    // The SDK sent only the new message, chained to the last answer…
    expect(sent.at(-1)!.previous_response_id).toBe(first.lastResponseId);
    expect(JSON.stringify(sent.at(-1)!.input)).not.toContain(ORDER);
    // …and the upstream got the whole conversation: question, tool call, its result, answer, new question.
    const upstream = h.mock.requests.filter((r) => r.method === 'POST').at(-1)!.json.messages;
    expect(upstream.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(toolResults('anthropic', { messages: upstream })[0]!.output).toContain(STATUS);
    expect(JSON.stringify(upstream[3])).toContain(ANSWER);
  });

  it.each([false, true])('reasoning with encrypted content to anthropic (stream: %s): the thinking and its signature come back on the tool-result turn', async (stream) => {
    h.mock.reply(scripted('anthropic', script.map((t, i) => ({ ...t, thinking: { text: `Checking ${i + 1}`, signature: `sig-${i + 1}` } }))));
    const executed: string[] = [];
    const reasoning = { reasoning: { effort: 'medium' as const, summary: 'auto' as const }, providerData: { include: ['reasoning.encrypted_content'], store: false } };
    const a = agent('anthropic', executed, reasoning);
    const question = `Where is order ${ORDER}?`;
    let output: unknown;
    if (stream) {
      const r = await runner.run(a, question, { stream: true });
      for await (const _ of r.toTextStream());
      await r.completed;
      output = r.finalOutput;
    } else output = (await runner.run(a, question)).finalOutput;
    expect(output).toBe(ANSWER);
    expectLoop('anthropic', executed);
    expect(thinkingBlocks(h.mock.requests.filter((r) => r.method === 'POST')[1]!.json)).toEqual([{ text: 'Checking 1', signature: 'sig-1' }]);
  });
});
