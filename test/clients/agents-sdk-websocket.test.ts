/**
 * The OpenAI Agents SDK's Responses WebSocket model (`OpenAIProvider({ useResponsesWebSocket })`)
 * through Interlingua: the function tool loop of agents-sdk.test.ts, each model call a turn on one
 * socket, to an upstream of every dialect. The proxy's log must show the upgrade and the turns.
 *
 * The SDK needs a global WebSocket that takes headers: Node 22 has one (undici's); on Node 20 the
 * test lends it the `ws` package's (the openai SDK's own dependency, whose WebSocket mode uses it).
 */
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { z } from 'zod';
import { DIALECTS, INBOUND_KEY, MODEL_FOR, clientsConfig, useClientsHarness } from './harness.ts';
import { scripted, toolResults } from './scripted-upstream.ts';

setTracingDisabled(true);

const ORDER = 'A-2077';
const STATUS = 'out for delivery';
const ANSWER = `Order ${ORDER} is ${STATUS}.`;

describe('Agents SDK (Responses over WebSocket) → Interlingua → every upstream dialect', () => {
  const h = useClientsHarness((mockUrl) => clientsConfig(mockUrl, {}, { log: { requests: true } }));
  let provider: OpenAIProvider;
  let runner: Runner;
  const lent = !(globalThis as { WebSocket?: unknown }).WebSocket;
  beforeAll(() => {
    if (lent) (globalThis as { WebSocket?: unknown }).WebSocket = WsWebSocket;
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    provider = new OpenAIProvider({ openAIClient: client, useResponses: true, useResponsesWebSocket: true });
    runner = new Runner({ modelProvider: provider, tracingDisabled: true });
  });
  afterAll(async () => {
    await provider?.close();
    if (lent) delete (globalThis as { WebSocket?: unknown }).WebSocket;
  });

  it.each(DIALECTS)('run: the function tool loop to %s, every model call on the socket', async (dialect) => {
    h.proxy.logs.length = 0;
    h.mock.reply(scripted(dialect, [{ tool: 'order_status', args: { order: ORDER } }, { text: ANSWER }]));
    const executed: string[] = [];
    const orderStatus = tool({
      name: 'order_status',
      description: 'Shipping status of an order',
      parameters: z.object({ order: z.string() }),
      execute: async ({ order }) => {
        executed.push(order);
        return STATUS;
      },
    });
    const agent = new Agent({ name: 'Support', instructions: 'Answer order questions with the tool.', model: MODEL_FOR[dialect], tools: [orderStatus] });
    const result = await runner.run(agent, `Where is order ${ORDER}?`);
    expect(result.finalOutput).toBe(ANSWER);
    expect(executed).toEqual([ORDER]);
    const posts = h.mock.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(toolResults(dialect, posts[1]!.json)[0]!.output).toContain(STATUS);

    const lines = h.proxy.logs.flatMap((l) => {
      try {
        return [JSON.parse(l) as { route?: string; status?: number; socket?: string }];
      } catch {
        return [];
      }
    });
    // Both model calls were turns on a socket, none a POST of its own.
    const turns = lines.filter((l) => l.route === 'responses');
    expect(turns.map((l) => [l.status, typeof l.socket]), h.proxy.logs.join('\n')).toEqual([
      [200, 'string'],
      [200, 'string'],
    ]);
  });
});
