/**
 * Tool use through Interlingua with `@anthropic-ai/sdk` (1.x and 0.x) as the caller: the tool
 * call each upstream dialect returns (JSON and streamed), and the tool result sent back on the
 * next turn, checked in the upstream's own dialect.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { TARGETS, useHarness } from '../support/proxy.ts';
import {
  SDKS,
  UPSTREAMS,
  fixtureStreamToolCall,
  fixtureToolCall,
  toolFor,
  type AnthropicClient,
} from './helpers-anthropic.ts';

describe.each(TARGETS)('%s: Anthropic SDK tool use → Interlingua', (target) => {
  const h = useHarness(target);

  describe.each(SDKS)('$name', (sdk) => {
    let client: AnthropicClient;
    beforeAll(() => {
      client = sdk.make(h.proxy.url);
    });

    describe.each(UPSTREAMS)('→ $model ($dialect)', (up) => {
      it('round trip: tool_use comes back, the tool_result reaches the upstream paired in its dialect', async () => {
        const expected = fixtureToolCall(up.dialect, up.tool);
        const tools = [toolFor(expected.name)];
        const question = { role: 'user' as const, content: 'What is the weather?' };

        h.mock.reply(fixtureReply(up.dialect, up.tool));
        const first = await client.messages.create({ model: up.model, max_tokens: 512, tools, messages: [question] });
        expect(first.stop_reason).toBe('tool_use');
        const use = first.content.find((b) => b.type === 'tool_use');
        if (use?.type !== 'tool_use') throw new Error('no tool_use block');
        expect(use.name).toBe(expected.name);
        expect(use.input).toEqual(expected.input);
        expect(use.id).toMatch(/^[a-zA-Z0-9_-]+$/);
        if (expected.id && up.dialect === 'anthropic') expect(use.id).toBe(expected.id);
        // The tool definition reached the upstream in its dialect.
        const t0 = h.mock.requests[0]!.json;
        if (up.dialect === 'openai-chat') expect(t0.tools[0].function.name).toBe(expected.name);
        else if (up.dialect === 'gemini') expect(t0.tools[0].functionDeclarations[0].name).toBe(expected.name);
        else expect(t0.tools[0].name).toBe(expected.name);

        h.mock.reply(fixtureReply(up.dialect, up.text));
        const second = await client.messages.create({
          model: up.model,
          max_tokens: 512,
          tools,
          messages: [
            question,
            { role: 'assistant', content: first.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 C' }] },
          ],
        });
        expect(second.stop_reason).toBe('end_turn');
        expect(h.mock.requests).toHaveLength(2);
        const j = h.mock.requests[1]!.json;

        if (up.dialect === 'openai-chat') {
          const assistant = j.messages.find((m: any) => m.role === 'assistant');
          expect(assistant.tool_calls).toHaveLength(1);
          expect(assistant.tool_calls[0].id).toBe(expected.id);
          expect(assistant.tool_calls[0].function.name).toBe(expected.name);
          expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(expected.input);
          const tool = j.messages.find((m: any) => m.role === 'tool');
          expect(tool.tool_call_id).toBe(expected.id);
          expect(tool.content).toBe('Sunny, 21 C');
          expect(j.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool']);
        } else if (up.dialect === 'gemini') {
          const raw = fixtureJson('gemini', up.tool).candidates[0].content.parts[0];
          const model = j.contents.find((c: any) => c.role === 'model');
          const call = model.parts.find((p: any) => p.functionCall);
          expect(call.functionCall).toMatchObject({ name: expected.name, args: expected.input });
          // The Gemini thought signature rode in the tool_use id and is restored for Gemini.
          expect(call.thoughtSignature).toBe(raw.thoughtSignature);
          const last = j.contents.at(-1);
          expect(last.role).toBe('user');
          const resp = last.parts.find((p: any) => p.functionResponse).functionResponse;
          expect(resp.name).toBe(expected.name);
          expect(JSON.stringify(resp.response)).toContain('Sunny, 21 C');
        } else {
          // Passthrough: the conversation reaches Anthropic exactly as the SDK sent it.
          expect(j.messages[1]).toEqual({ role: 'assistant', content: JSON.parse(JSON.stringify(first.content)) });
          expect(j.messages[2].content[0]).toEqual({ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 C' });
        }
      });

      it('messages.stream(): tool_use input assembled from the streamed arguments', async () => {
        const expected = fixtureStreamToolCall(up.dialect, up.streamTool);
        h.mock.reply(fixtureReply(up.dialect, up.streamTool));
        const stream = client.messages.stream({
          model: up.model,
          max_tokens: 512,
          tools: [toolFor(expected.name)],
          messages: [{ role: 'user', content: 'What is the weather?' }],
        });
        const jsonDeltas: string[] = [];
        stream.on('inputJson', (delta) => jsonDeltas.push(delta));
        const final = await stream.finalMessage();
        const use = final.content.find((b) => b.type === 'tool_use');
        if (use?.type !== 'tool_use') throw new Error('no tool_use block');
        expect(use.name).toBe(expected.name);
        expect(use.input).toEqual(expected.input);
        expect(final.stop_reason).toBe('tool_use');
        expect(JSON.parse(jsonDeltas.join('') || '{}')).toEqual(expected.input);
        expect(h.mock.requests[0]!.url).toBe(up.streamPath);
      });
    });

    it('tool_choice and disable_parallel_tool_use reach an OpenAI upstream; is_error results keep their text', async () => {
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      await client.messages.create({
        model: 'to-openai',
        max_tokens: 100,
        tools: [toolFor('lookup')],
        tool_choice: { type: 'tool', name: 'lookup', disable_parallel_tool_use: true },
        messages: [
          { role: 'user', content: 'Look it up' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: [{ type: 'text', text: 'boom' }] }] },
        ],
      });
      const j = h.mock.requests[0]!.json;
      expect(j.tool_choice).toEqual({ type: 'function', function: { name: 'lookup' } });
      expect(j.parallel_tool_calls).toBe(false);
      const tool = j.messages.find((m: any) => m.role === 'tool');
      expect(tool.tool_call_id).toBe('toolu_1');
      expect(JSON.stringify(tool.content)).toContain('boom');
    });
  });
});
