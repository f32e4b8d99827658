/**
 * An AI SDK chat with history, as an app writes it: turn 2 passes turn 1's response messages
 * back, and the default provider (`store: true`) replays them as `item_reference`s holding the
 * ids the proxy minted. Each turn may go to a different proxy instance (a load balancer).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type ModelMessage } from 'ai';
import { expect } from 'vitest';
import type { MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, MODEL_FOR } from './harness.ts';
import { scripted } from './scripted-upstream.ts';

export const FIRST_ANSWER = 'Nice to meet you, Ada.';
export const SECOND_ANSWER = 'Your name is Ada.';

export interface HistoryRun {
  texts: string[];
  /** The `input` of each request the SDK sent. */
  inputs: Array<Array<Record<string, unknown>>>;
  /** The messages the Anthropic upstream received on turn 2. */
  upstreamTurn2: Array<{ role: string; content: unknown }>;
}

/** Two turns to the Anthropic upstream on `mock`, turn 1 through `turn1Url`, turn 2 through `turn2Url`. */
export async function chatWithHistory(mock: MockUpstream, turn1Url: string, turn2Url: string): Promise<HistoryRun> {
  mock.requests.length = 0;
  mock.reply(scripted('anthropic', (req) => [{ text: req.json.messages.length === 1 ? FIRST_ANSWER : SECOND_ANSWER }]));
  const inputs: HistoryRun['inputs'] = [];
  const provider = (base: string) =>
    createOpenAI({
      baseURL: `${base}/v1`,
      apiKey: INBOUND_KEY,
      fetch: async (url, init) => {
        inputs.push(JSON.parse(String(init?.body)).input);
        return fetch(url, init);
      },
    });
  const history: ModelMessage[] = [{ role: 'user', content: 'Hi, I am Ada.' }];
  const first = await generateText({ model: provider(turn1Url)(MODEL_FOR.anthropic), messages: history, maxRetries: 0 });
  history.push(...first.response.messages, { role: 'user', content: 'What is my name?' });
  const second = await generateText({ model: provider(turn2Url)(MODEL_FOR.anthropic), messages: history, maxRetries: 0 });
  return { texts: [first.text, second.text], inputs, upstreamTurn2: mock.requests.filter((r) => r.method === 'POST')[1]?.json.messages ?? [] };
}

/**
 * The SDK replayed turn 1 by reference only (the id the proxy minted), and the upstream still got
 * the whole conversation, in order, from the store.
 */
export function expectHistoryServed(run: HistoryRun): void {
  expect(run.texts).toEqual([FIRST_ANSWER, SECOND_ANSWER]);
  const replay = run.inputs[1]!;
  expect(replay.filter((i) => i.type === 'item_reference')).toHaveLength(1);
  expect(JSON.stringify(replay)).not.toContain(FIRST_ANSWER);
  expect(run.upstreamTurn2.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  expect(JSON.stringify(run.upstreamTurn2[1])).toContain(FIRST_ANSWER);
  expect(JSON.stringify(run.upstreamTurn2[2])).toContain('What is my name?');
}
