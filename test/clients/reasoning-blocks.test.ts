/**
 * Anthropic reasoning blocks through a Responses caller (the AI SDK) come back to Anthropic as the
 * blocks they were, from the caller's replay (store: false, `encrypted_content`) and from the
 * proxy's store (store: true, `item_reference`) alike:
 *  1. a `redacted_thinking` block returns as `redacted_thinking`, never as a `thinking` block;
 *  2. the thinking text Anthropic signed returns beside its signature even when the caller asked
 *     for no reasoning summary (Codex's default), so the text is in no summary.
 * The carrier (`encodeReasoning`, src/canonical/carrier.ts) holds the block whole for this.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INBOUND_KEY, MODEL_FOR, useClientsHarness } from './harness.ts';
import { scripted, thinkingBlocks, toolResults } from './scripted-upstream.ts';

describe('Anthropic reasoning blocks through a Responses caller', () => {
  const h = useClientsHarness();
  let openai: ReturnType<typeof createOpenAI>;
  beforeAll(() => {
    openai = createOpenAI({ baseURL: `${h.proxy.url}/v1`, apiKey: INBOUND_KEY });
  });
  const weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' });
  const run = (openaiOptions: Record<string, unknown>) =>
    generateText({
      model: openai(MODEL_FOR.anthropic),
      prompt: 'Weather in Lisbon?',
      tools: { get_weather: weather },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { forceReasoning: true, include: ['reasoning.encrypted_content'], ...openaiOptions } },
    });
  const turn2 = () => h.mock.requests.filter((r) => r.method === 'POST')[1]!.json;

  it.each([true, false])('redacted_thinking returns as redacted_thinking (store: %s)', async (store) => {
    h.mock.reply((req) => {
      const first = toolResults('anthropic', req.json).length === 0;
      const content = first
        ? [{ type: 'redacted_thinking', data: 'REDACTED-DATA' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Lisbon' } }]
        : [{ type: 'text', text: 'Sunny.' }];
      const body = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: first ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 5 } };
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    });
    expect((await run({ store, reasoningSummary: 'auto' })).text).toBe('Sunny.');
    const assistant = turn2().messages[1].content;
    expect(assistant[0]).toEqual({ type: 'redacted_thinking', data: 'REDACTED-DATA' });
  });

  it.each([true, false])('thinking text returns beside its signature when no summary was asked for (store: %s)', async (store) => {
    h.mock.reply(scripted('anthropic', [{ tool: 'get_weather', args: { city: 'Lisbon' }, thinking: { text: 'Look it up.', signature: 'sig-1' } }, { text: 'Sunny.' }]));
    expect((await run({ store })).text).toBe('Sunny.');
    expect(thinkingBlocks(turn2())).toEqual([{ text: 'Look it up.', signature: 'sig-1' }]);
  });
});
