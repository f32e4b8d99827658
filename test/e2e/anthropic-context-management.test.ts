/**
 * Anthropic context editing (`context-management-2025-06-27`, as Claude Code sends it) through
 * the proxy, the Anthropic SDK's beta messages as the caller: toward an OpenAI Chat or Gemini
 * upstream the proxy clears old tool results and thinking from the history before encoding and
 * answers `context_management.applied_edits` as Anthropic does (JSON and streamed); toward
 * Anthropic the request goes as it is.
 */
import Anthropic from '@anthropic-ai/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply, type MockReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { UPSTREAMS } from './helpers-anthropic.ts';

const BETA = 'context-management-2025-06-27';

/** The dialect's text fixture answering `text` instead (the summarising turn's answer). */
function fixtureReplyWithText(dialect: string, text: string): MockReply {
  if (dialect === 'gemini') {
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 300, candidatesTokenCount: 40, totalTokenCount: 340 } }) };
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'chatcmpl-sum', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 } }),
  };
}
const PLACEHOLDER = '[tool result cleared to save context]';

/** Five tool uses (each turn with signed thinking), then the next question. */
function conversation(): Anthropic.Beta.BetaMessageParam[] {
  const out: Anthropic.Beta.BetaMessageParam[] = [{ role: 'user', content: 'Read the five files.' }];
  for (let i = 1; i <= 5; i++) {
    out.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `Reading file ${i}.`, signature: `sig-${i}` },
        { type: 'tool_use', id: `toolu_${i}`, name: i === 2 ? 'memory' : 'read_file', input: { path: `f${i}.txt` } },
      ],
    });
    out.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `contents of file ${i} `.repeat(20) }] });
  }
  return out;
}
const tools: Anthropic.Beta.BetaToolUnion[] = [
  { name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'memory', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
];
const contextManagement: Anthropic.Beta.BetaContextManagementConfig = {
  edits: [
    { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 1 } },
    { type: 'clear_tool_uses_20250919', trigger: { type: 'tool_uses', value: 3 }, keep: { type: 'tool_uses', value: 1 }, exclude_tools: ['memory'], clear_tool_inputs: true },
  ],
};

describe.each(TARGETS)('%s: Anthropic SDK context management → Interlingua', (target) => {
  const h = useHarness(target);
  let client: Anthropic;
  beforeAll(() => {
    client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
  });

  describe.each(UPSTREAMS.filter((u) => u.dialect !== 'anthropic'))('→ $model ($dialect): edits applied by the proxy', (up) => {
    const ask = { model: up.model, max_tokens: 256, messages: conversation(), tools, betas: [BETA], context_management: contextManagement };

    it('JSON: old tool results (and inputs) cleared but the excluded tool and the last use; applied_edits answered', async () => {
      h.mock.reply(fixtureReply(up.dialect, up.text));
      const msg = await client.beta.messages.create(ask);
      expect(msg.context_management?.applied_edits).toEqual([
        { type: 'clear_thinking_20251015', cleared_thinking_turns: 4, cleared_input_tokens: expect.any(Number) },
        // Uses 1, 3 and 4 (read_file): cleared; 2 (memory) excluded; 5 kept.
        { type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: expect.any(Number) },
      ]);
      expect(msg.context_management!.applied_edits[1]!.cleared_input_tokens).toBeGreaterThan(100);
      const wire = JSON.stringify(h.mock.requests[0]!.json);
      expect(wire.split(PLACEHOLDER).length - 1).toBe(3);
      for (const kept of [2, 5]) expect(wire).toContain(`contents of file ${kept}`);
      for (const gone of [1, 3, 4]) expect(wire).not.toContain(`contents of file ${gone}`);
      // clear_tool_inputs: the cleared uses' inputs are gone too, the others' kept.
      for (const gone of [1, 3, 4]) expect(wire).not.toContain(`f${gone}.txt`);
      expect(wire).toContain('f5.txt');
      // Nothing of the beta's own fields reaches the upstream.
      expect(wire).not.toContain('context_management');
      expect(wire).not.toContain('clear_tool_uses');
    });

    it('stream: applied_edits in message_delta', async () => {
      h.mock.reply(fixtureReply(up.dialect, up.streamText));
      const stream = client.beta.messages.stream(ask);
      const deltas: Anthropic.Beta.BetaRawMessageDeltaEvent[] = [];
      for await (const e of stream) if (e.type === 'message_delta') deltas.push(e);
      expect(deltas).toHaveLength(1);
      expect(deltas[0]!.context_management?.applied_edits.map((a) => a.type)).toEqual(['clear_thinking_20251015', 'clear_tool_uses_20250919']);
      expect(JSON.stringify(h.mock.requests[0]!.json).split(PLACEHOLDER).length - 1).toBe(3);
    });

    it('compact_20260112 past its trigger: the proxy summarises first, the compaction block leads; brought back, it stands for what it summarised', async () => {
      const summary = '## Task\nRead five files.\n## Open threads\nNone.';
      const answer = (stream: boolean) => (req: { body: string }) =>
        req.body.includes('Stop here: do not call any tool') ? fixtureReplyWithText(up.dialect, summary) : fixtureReply(up.dialect, stream ? up.streamText : up.text);
      h.mock.reply(answer(false));
      const compact = { edits: [{ type: 'compact_20260112' as const, trigger: { type: 'input_tokens' as const, value: 50 }, instructions: 'Keep file names.' }] };
      const msg = await client.beta.messages.create({ ...ask, context_management: compact });
      expect(h.mock.requests).toHaveLength(2);
      expect(JSON.stringify(h.mock.requests[0]!.json)).toContain('Keep file names.');
      expect(msg.content[0]).toMatchObject({ type: 'compaction', content: expect.stringContaining('Read five files.') });
      expect(msg.content.slice(1).some((b) => b.type === 'text')).toBe(true);
      const turn = JSON.stringify(h.mock.requests[1]!.json);
      expect(turn).toContain('Read five files.');
      expect(turn).not.toContain('contents of file 1');

      // Streamed: the compaction block first, its summary in a compaction_delta.
      h.mock.requests.length = 0;
      h.mock.reply(answer(true));
      const events: Anthropic.Beta.BetaRawMessageStreamEvent[] = [];
      for await (const e of client.beta.messages.stream({ ...ask, context_management: compact })) events.push(e);
      const first = events.find((e) => e.type === 'content_block_start') as Anthropic.Beta.BetaRawContentBlockStartEvent;
      expect(first).toMatchObject({ index: 0, content_block: { type: 'compaction' } });
      const delta = events.find((e) => e.type === 'content_block_delta' && e.index === 0) as Anthropic.Beta.BetaRawContentBlockDeltaEvent;
      expect(delta.delta).toMatchObject({ type: 'compaction_delta', content: expect.stringContaining('Read five files.') });

      // The next request brings the block back: everything before it is gone.
      h.mock.requests.length = 0;
      h.mock.reply(fixtureReply(up.dialect, up.text));
      const block = msg.content[0] as Anthropic.Beta.BetaCompactionBlock;
      await client.beta.messages.create({
        model: up.model,
        max_tokens: 256,
        betas: [BETA],
        messages: [...conversation(), { role: 'assistant', content: [block, { type: 'text', text: 'Done reading.' }] }, { role: 'user', content: 'Thanks. Next?' }],
      });
      const next = JSON.stringify(h.mock.requests[0]!.json);
      expect(next).toContain('Read five files.');
      expect(next).toContain('Done reading.');
      expect(next).toContain('Thanks. Next?');
      expect(next).not.toContain('contents of file');
      expect(next).not.toContain('/2lsM2');
    });

    it('below the trigger nothing is cleared and applied_edits is empty; a malformed edit is a 400, nothing sent', async () => {
      h.mock.reply(fixtureReply(up.dialect, up.text));
      const msg = await client.beta.messages.create({ ...ask, context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } });
      expect(msg.context_management?.applied_edits).toEqual([]);
      expect(JSON.stringify(h.mock.requests[0]!.json)).not.toContain(PLACEHOLDER);
      h.mock.requests.length = 0;
      const bad = client.beta.messages.create({ ...ask, context_management: { edits: [{ type: 'clear_everything' } as never] } });
      await expect(bad).rejects.toMatchObject({ status: 400 });
      expect(h.mock.requests).toHaveLength(0);
    });
  });

  it('→ Anthropic: context_management and the beta go as they are', async () => {
    const up = UPSTREAMS.find((u) => u.dialect === 'anthropic')!;
    h.mock.reply(fixtureReply(up.dialect, up.text));
    await client.beta.messages.create({ model: up.model, max_tokens: 256, messages: conversation(), tools, betas: [BETA], context_management: contextManagement });
    const got = h.mock.requests[0]!;
    expect(got.json.context_management).toEqual(contextManagement);
    expect(got.headers['anthropic-beta']).toContain(BETA);
    expect(JSON.stringify(got.json)).not.toContain(PLACEHOLDER);
  });
});
