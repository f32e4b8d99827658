/**
 * Compaction through the proxy, the official `openai` SDK as the caller: `responses.compact()`
 * and a streamed `responses.create` whose last input item is a `compaction_trigger`, to every
 * upstream dialect. Toward OpenAI Chat, Anthropic and Gemini the proxy runs one summarising turn
 * and answers one `compaction` item carrying the summary; a later request that brings that item
 * back sends the summary in its place. Toward a Responses upstream both go as they are.
 */
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_KEY, TARGETS, responsesE2eConfig, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { UPSTREAMS, sentTo, type UpstreamCase } from './responses-helpers.ts';

type Event = OpenAI.Responses.ResponseStreamEvent;

const SUMMARY = '## Task\nRename notes.txt.\n## Open threads\nRun the tests.';
/** A conversation with a tool call and its output, as Codex sends one. */
const history: OpenAI.Responses.ResponseInputItem[] = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Rename notes.txt to todo.txt' }] },
  { type: 'function_call', call_id: 'call_ls', name: 'exec_command', arguments: '{"cmd":"ls"}' },
  { type: 'function_call_output', call_id: 'call_ls', output: 'notes.txt' },
];
const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } }, strict: false }];

/** How each upstream dialect was told that no tool may be called. */
function toolsOff(u: UpstreamCase, body: any): unknown {
  if (u.name === 'openai') return body.tool_choice;
  if (u.name === 'anthropic') return body.tool_choice?.type;
  return body.toolConfig?.functionCallingConfig?.mode;
}
const NONE = { openai: 'none', anthropic: 'none', gemini: 'NONE' } as const;

describe.each(TARGETS)('%s: openai SDK compaction → Interlingua', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, responsesE2eConfig, { stateKv: true });
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  describe.each(UPSTREAMS.filter((u) => u.name !== 'responses'))('to $name: the proxy summarises', (u: UpstreamCase) => {
    it('responses.compact(): one summarising turn; the user messages then one compaction item; its usage', async () => {
      h.mock.reply(u.text(SUMMARY, false));
      const compacted = await client.responses.compact({ model: u.model, input: history, instructions: 'You are a coding agent.' });
      expect(compacted.object).toBe('response.compaction');
      expect(compacted.id).toMatch(/^resp_/);
      expect(compacted.output.map((o) => o.type)).toEqual(['message', 'compaction']);
      expect(compacted.output[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'Rename notes.txt to todo.txt' }] });
      const item = compacted.output[1] as OpenAI.Responses.ResponseCompactionItem;
      expect(item.encrypted_content.startsWith('/2lsM2')).toBe(true);
      expect(compacted.usage.input_tokens).toBeGreaterThan(0);
      expect(compacted.usage.output_tokens).toBeGreaterThan(0);

      // One call upstream: the conversation, then the instruction; tools offered (the history calls one), none to be called.
      expect(h.mock.requests).toHaveLength(1);
      const sent = sentTo(h.mock.requests, u);
      const wire = JSON.stringify(sent.json);
      expect(wire).toContain('Stop here: do not call any tool');
      expect(wire).toContain('notes.txt');
      expect(toolsOff(u, sent.json)).toBe(NONE[u.name as keyof typeof NONE]);
      expect(sent.url).not.toContain('stream');
      expect(sent.json.stream ?? false).toBe(false);

      // The next turn brings the compaction back: the upstream gets the summary, never the carrier.
      h.mock.requests.length = 0;
      h.mock.reply(u.text('Renamed.', false));
      const next = await client.responses.create({ model: u.model, input: [...compacted.output, { type: 'message', role: 'user', content: 'Go on.' }] as OpenAI.Responses.ResponseInputItem[], store: false });
      expect(next.output_text).toBe('Renamed.');
      const again = JSON.stringify(sentTo(h.mock.requests, u).json);
      expect(again).toContain('Run the tests.');
      expect(again).toContain('continue the task from it');
      expect(again).not.toContain('/2lsM2');
      expect(again).not.toContain('exec_command\\",'); // the compacted tool call is gone
    });

    it('a streamed create ending in compaction_trigger: exactly one compaction item, then the turn continues from it', async () => {
      h.mock.reply(u.text(SUMMARY, false));
      const stream = await client.responses.create({ model: u.model, input: [...history, { type: 'compaction_trigger' } as OpenAI.Responses.ResponseInputItem], tools, stream: true, store: false });
      const events: Event[] = [];
      for await (const e of stream) events.push(e);
      expect(events.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
      expect(events.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4]);
      const done = events.find((e) => e.type === 'response.completed') as OpenAI.Responses.ResponseCompletedEvent;
      expect(done.response.output).toHaveLength(1);
      const item = done.response.output[0] as OpenAI.Responses.ResponseCompactionItem;
      expect(item.type).toBe('compaction');
      expect(done.response.usage?.output_tokens).toBeGreaterThan(0);
      expect(toolsOff(u, sentTo(h.mock.requests, u).json)).toBe(NONE[u.name as keyof typeof NONE]);

      h.mock.requests.length = 0;
      h.mock.reply(u.text('Done.', true));
      const next = await client.responses.create({
        model: u.model,
        input: [history[0]!, { type: 'compaction', encrypted_content: item.encrypted_content }],
        tools,
        stream: true,
        store: false,
      });
      let text = '';
      for await (const e of next) if (e.type === 'response.output_text.delta') text += e.delta;
      expect(text).toBe('Done.');
      const wire = JSON.stringify(sentTo(h.mock.requests, u).json);
      expect(wire).toContain('Rename notes.txt.');
      expect(wire).not.toContain('Stop here: do not call any tool'); // an ordinary turn now
    });

    it('context_management on create: past its threshold the conversation is summarised first, the compaction item leads the output', async () => {
      const long: OpenAI.Responses.ResponseInputItem[] = [...history, { type: 'message', role: 'user', content: 'Now run the tests.' }];
      const answers = (stream: boolean) => (req: { body: string }) => (req.body.includes('Stop here: do not call any tool') ? u.text(SUMMARY, false) : u.text('Tests pass.', stream));
      h.mock.reply(answers(false));
      const res = await client.responses.create({ model: u.model, input: long, tools, store: false, context_management: [{ type: 'compaction', compact_threshold: 20 }] });
      expect(res.output.map((o) => o.type)).toEqual(['compaction', 'message']);
      expect(res.output_text).toBe('Tests pass.');
      expect(h.mock.requests).toHaveLength(2);
      const turn = JSON.stringify(h.mock.requests[1]!.json);
      expect(turn).toContain('Run the tests.'); // the summary…
      expect(turn).toContain('Now run the tests.'); // …and the new question, as it came
      expect(turn).not.toContain('notes.txt"'); // not the compacted tool output
      expect(turn).not.toContain('context_management');

      h.mock.requests.length = 0;
      h.mock.reply(answers(true));
      const stream = await client.responses.create({ model: u.model, input: long, tools, store: false, stream: true, context_management: [{ type: 'compaction', compact_threshold: 20 }] });
      const events: Event[] = [];
      for await (const e of stream) events.push(e);
      const added = events.filter((e): e is OpenAI.Responses.ResponseOutputItemAddedEvent => e.type === 'response.output_item.added');
      expect(added.map((e) => [e.output_index, e.item.type])).toEqual([[0, 'compaction'], [1, 'message']]);
      const done = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
      expect(done.response.output.map((o) => o.type)).toEqual(['compaction', 'message']);
      expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));

      // Below the threshold: one ordinary turn.
      h.mock.requests.length = 0;
      h.mock.reply(u.text('Hi.', false));
      const small = await client.responses.create({ model: u.model, input: 'Hello', store: false, context_management: [{ type: 'compaction', compact_threshold: 100_000 }] });
      expect(small.output.map((o) => o.type)).toEqual(['message']);
      expect(h.mock.requests).toHaveLength(1);
    });

    it('a stored compaction (store left on) is continued by previous_response_id: the summary goes in its place', async () => {
      h.mock.reply(u.text(SUMMARY, false));
      const stream = await client.responses.create({ model: u.model, input: [...history, { type: 'compaction_trigger' } as OpenAI.Responses.ResponseInputItem], stream: true });
      let id = '';
      for await (const e of stream) if (e.type === 'response.completed') id = e.response.id;
      h.mock.requests.length = 0;
      h.mock.reply(u.text('Continued.', false));
      const next = await client.responses.create({ model: u.model, previous_response_id: id, input: 'Go on.' });
      expect(next.output_text).toBe('Continued.');
      const wire = JSON.stringify(sentTo(h.mock.requests, u).json);
      expect(wire).toContain('Run the tests.');
      expect(wire).toContain('Go on.');
      expect(wire).not.toContain('/2lsM2');
    });

    it('what the proxy cannot compact or read is a 400 in the Responses shape, nothing sent', async () => {
      const notLast = client.responses.create({ model: u.model, input: [{ type: 'compaction_trigger' } as OpenAI.Responses.ResponseInputItem, ...history] });
      await expect(notLast).rejects.toMatchObject({ status: 400, error: { param: 'input[0]' } });
      // A compaction OpenAI made cannot be read by another vendor's model.
      const foreign = client.responses.create({ model: u.model, input: [{ type: 'compaction', encrypted_content: 'gAAAAABpZ3-openai' }, { type: 'message', role: 'user', content: 'hi' }] });
      await expect(foreign).rejects.toMatchObject({ status: 400, error: { param: 'input' } });
      expect(h.mock.requests).toHaveLength(0);
    });
  });

  it('over the WebSocket: a compaction_trigger turn is one compaction item; the next turn continues from it on the socket', async () => {
    const u = UPSTREAMS.find((x) => x.name === 'anthropic')!;
    const ws = new ResponsesWS(new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 }));
    const events: Array<Record<string, any>> = [];
    ws.on('event', (e) => events.push(e as Record<string, any>));
    ws.on('error', () => {});
    const turn = (body: Record<string, unknown>) =>
      new Promise<Array<Record<string, any>>>((resolve) => {
        const from = events.length;
        const on = (e: { type: string }) => {
          if (e.type !== 'response.completed' && e.type !== 'response.failed' && e.type !== 'error') return;
          ws.off('event', on);
          resolve(events.slice(from));
        };
        ws.on('event', on);
        ws.send({ type: 'response.create', ...body } as OpenAI.Responses.ResponsesClientEvent);
      });
    try {
      h.mock.reply(u.text(SUMMARY, false));
      const first = await turn({ model: u.model, input: [...history, { type: 'compaction_trigger' }], tools, store: false });
      expect(first.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
      const done = first.at(-1)!;
      expect(done.response.output.map((o: { type: string }) => o.type)).toEqual(['compaction']);

      h.mock.requests.length = 0;
      h.mock.reply(u.text('Renamed.', true));
      const second = await turn({ model: u.model, previous_response_id: done.response.id, input: 'Go on.', store: false });
      expect(second.at(-1)!.type).toBe('response.completed');
      const wire = JSON.stringify(sentTo(h.mock.requests, u).json);
      expect(wire).toContain('Run the tests.');
      expect(wire).not.toContain('/2lsM2');
    } finally {
      ws.close();
    }
  });

  describe('to a Responses upstream: as they are', () => {
    const u = UPSTREAMS.find((x) => x.name === 'responses')!;
    it('responses.compact() goes to its /responses/compact and its answer comes back; a compaction_trigger is forwarded', async () => {
      const answer = {
        id: 'resp_cmp_up',
        object: 'response.compaction',
        created_at: 1_767_000_000,
        output: [{ id: 'cmp_up_1', type: 'compaction', encrypted_content: 'gAAAAABpZ3-openai' }],
        usage: { input_tokens: 30, input_tokens_details: { cached_tokens: 0 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 39 },
      };
      h.mock.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) });
      const compacted = await client.responses.compact({ model: u.model, input: history });
      expect(compacted).toEqual(answer);
      expect(h.mock.requests[0]!.url).toBe('/v1/responses/compact');
      expect(h.mock.requests[0]!.json).toEqual({ model: 'gpt-5-mini', input: history });

      h.mock.requests.length = 0;
      h.mock.reply(u.text('ok', true));
      const stream = await client.responses.create({ model: u.model, input: [...history, { type: 'compaction_trigger' } as OpenAI.Responses.ResponseInputItem], stream: true, store: false });
      for await (const _ of stream);
      expect(h.mock.requests[0]!.json.input.at(-1)).toEqual({ type: 'compaction_trigger' });
      // OpenAI's own compaction item goes back to it as it is.
      h.mock.requests.length = 0;
      h.mock.reply(u.text('ok', false));
      await client.responses.create({ model: u.model, input: [answer.output[0] as OpenAI.Responses.ResponseInputItem, { type: 'message', role: 'user', content: 'hi' }], store: false, context_management: [{ type: 'compaction', compact_threshold: 1000 }] });
      expect(h.mock.requests[0]!.json.input[0]).toEqual(answer.output[0]);
      expect(h.mock.requests[0]!.json.context_management).toEqual([{ type: 'compaction', compact_threshold: 1000 }]);
    });
  });
});
