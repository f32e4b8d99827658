import { describe, expect, it } from 'vitest';
import { decodeContextEdits, encodeAppliedEdits } from './context-management.ts';

describe('context_management edits', () => {
  it('decodes every edit with its parameters', () => {
    expect(
      decodeContextEdits({
        edits: [
          { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
          { type: 'clear_thinking_20251015', keep: 'all' },
          {
            type: 'clear_tool_uses_20250919',
            trigger: { type: 'input_tokens', value: 30000 },
            keep: { type: 'tool_uses', value: 3 },
            clear_at_least: { type: 'input_tokens', value: 5000 },
            exclude_tools: ['web_search'],
            clear_tool_inputs: ['bash'],
          },
          { type: 'clear_tool_uses_20250919', trigger: { type: 'tool_uses', value: 4 } },
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 150000 }, instructions: 'Keep file names.' },
        ],
      }),
    ).toEqual([
      { type: 'clear-thinking', keep: 2 },
      { type: 'clear-thinking', keep: 'all' },
      { type: 'clear-tool-uses', trigger: { unit: 'input-tokens', value: 30000 }, keep: 3, clearAtLeast: 5000, excludeTools: ['web_search'], clearToolInputs: ['bash'] },
      { type: 'clear-tool-uses', trigger: { unit: 'tool-uses', value: 4 } },
      { type: 'compact', trigger: 150000, instructions: 'Keep file names.' },
    ]);
    expect(decodeContextEdits({})).toEqual([]);
  });

  it('a malformed edit is a 400 naming it', () => {
    expect(() => decodeContextEdits({ edits: [{ type: 'clear_everything' }] })).toThrow(/context_management\.edits\.0\.type/);
    expect(() => decodeContextEdits({ edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: -1 } }] })).toThrow(/edits\.0\.keep/);
    expect(() => decodeContextEdits({ edits: [{ type: 'clear_tool_uses_20250919', exclude_tools: 'bash' }] })).toThrow(/exclude_tools/);
    expect(() => decodeContextEdits({ edits: 'x' })).toThrow(/context_management\.edits/);
  });

  it('answers applied edits as Anthropic does', () => {
    expect(encodeAppliedEdits([{ type: 'clear-thinking', cleared: 2, clearedInputTokens: 40 }, { type: 'clear-tool-uses', cleared: 3, clearedInputTokens: 3000 }])).toEqual({
      applied_edits: [
        { type: 'clear_thinking_20251015', cleared_thinking_turns: 2, cleared_input_tokens: 40 },
        { type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 3000 },
      ],
    });
  });
});

describe('a compaction block brought back', () => {
  it('stands for every message before it; the blocks after it stay; a failed one is nothing', async () => {
    const { fromLastCompaction } = await import('./context-management.ts');
    const { encodeCompaction } = await import('../../src/canonical/index.ts');
    const msgs = [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: [{ type: 'compaction', content: 'S1' }, { type: 'text', text: 'after 1' }] },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'compaction', content: null }, { type: 'compaction', content: null, encrypted_content: encodeCompaction({ summary: 'S2', origin: 'gemini' }) }, { type: 'text', text: 'after 2' }] },
      { role: 'user', content: 'q3' },
    ];
    expect(fromLastCompaction(msgs)).toEqual({ summary: 'S2', messages: [{ role: 'assistant', content: [{ type: 'text', text: 'after 2' }] }, { role: 'user', content: 'q3' }] });
    expect(fromLastCompaction(msgs.slice(0, 3))).toEqual({ summary: 'S1', messages: [{ role: 'assistant', content: [{ type: 'text', text: 'after 1' }] }, { role: 'user', content: 'q2' }] });
    const failed = [{ role: 'assistant', content: [{ type: 'compaction', content: null }] }];
    expect(fromLastCompaction(failed)).toEqual({ messages: failed });
  });
});

describe('context_management edits: each check', () => {
  const one = (edit: unknown) => decodeContextEdits({ edits: [edit] });
  const COUNT = "Input should be an object with 'type'";

  it('context_management itself must be an object, edits a list', () => {
    for (const raw of [null, 'x', [], 3]) expect(() => decodeContextEdits(raw)).toThrow('context_management: Input should be an object');
    expect(() => decodeContextEdits({ edits: {} })).toThrow('context_management.edits: Input should be a valid list');
    expect(decodeContextEdits({ edits: null })).toEqual([]);
    expect(() => decodeContextEdits({ edits: [{ type: 'clear_thinking_20251015' }, 'x'] })).toThrow('context_management.edits.1: Input should be an object');
    expect(() => one(['x'])).toThrow('context_management.edits.0: Input should be an object');
    expect(() => one({ type: 'x' })).toThrow("context_management.edits.0.type: Input should be 'clear_tool_uses_20250919', 'clear_thinking_20251015' or 'compact_20260112'");
  });

  it('a count is an object of an allowed type with a non-negative integer value; the message names the types', () => {
    expect(() => one({ type: 'clear_tool_uses_20250919', trigger: { type: 'thinking_turns', value: 1 } })).toThrow(
      "context_management.edits.0.trigger: Input should be an object with 'type' 'input_tokens' or 'tool_uses' and a non-negative integer 'value'",
    );
    for (const trigger of [5, [], { type: 'input_tokens' }, { type: 'input_tokens', value: '5' }, { type: 'input_tokens', value: 1.5 }, { type: 'input_tokens', value: -1 }]) {
      expect(() => one({ type: 'clear_tool_uses_20250919', trigger })).toThrow(`context_management.edits.0.trigger: ${COUNT}`);
    }
    expect(() => one({ type: 'clear_tool_uses_20250919', keep: { type: 'input_tokens', value: 1 } })).toThrow(/edits\.0\.keep: Input should be an object with 'type' 'tool_uses' and/);
    expect(() => one({ type: 'clear_tool_uses_20250919', clear_at_least: { type: 'tool_uses', value: 1 } })).toThrow(/edits\.0\.clear_at_least: Input should be an object with 'type' 'input_tokens' and/);
    expect(() => one({ type: 'clear_thinking_20251015', keep: { type: 'tool_uses', value: 1 } })).toThrow(/edits\.0\.keep: Input should be an object with 'type' 'thinking_turns' and/);
    expect(() => one({ type: 'compact_20260112', trigger: { type: 'tool_uses', value: 1 } })).toThrow(/edits\.0\.trigger: /);
    expect(one({ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 0 }, keep: null })).toStrictEqual([{ type: 'clear-tool-uses', trigger: { unit: 'input-tokens', value: 0 } }]);
    expect(one({ type: 'clear_tool_uses_20250919', clear_tool_inputs: null, exclude_tools: null })).toStrictEqual([{ type: 'clear-tool-uses' }]);
  });

  it('clear_tool_inputs: a boolean or a list of names; exclude_tools: a list of names', () => {
    expect(one({ type: 'clear_tool_uses_20250919', clear_tool_inputs: true, exclude_tools: [] })).toEqual([{ type: 'clear-tool-uses', clearToolInputs: true, excludeTools: [] }]);
    expect(one({ type: 'clear_tool_uses_20250919', clear_tool_inputs: false })).toEqual([{ type: 'clear-tool-uses', clearToolInputs: false }]);
    for (const bad of ['bash', [1], ['a', 2], {}]) {
      expect(() => one({ type: 'clear_tool_uses_20250919', clear_tool_inputs: bad })).toThrow('context_management.edits.0.clear_tool_inputs: Input should be a boolean or a list of tool names');
    }
    for (const bad of [true, ['a', 2], {}]) {
      expect(() => one({ type: 'clear_tool_uses_20250919', exclude_tools: bad })).toThrow('context_management.edits.0.exclude_tools: Input should be a list of tool names');
    }
  });

  it('clear_thinking keeps all (either spelling), a count, or its default', () => {
    expect(one({ type: 'clear_thinking_20251015', keep: { type: 'all' } })).toEqual([{ type: 'clear-thinking', keep: 'all' }]);
    expect(one({ type: 'clear_thinking_20251015' })).toEqual([{ type: 'clear-thinking' }]);
    expect(() => one({ type: 'clear_thinking_20251015', keep: 'some' })).toThrow(/edits\.0\.keep/);
  });

  it('compact: blank instructions are none; pause only when true', () => {
    expect(one({ type: 'compact_20260112', instructions: '  ', pause_after_compaction: true })).toEqual([{ type: 'compact', pause: true }]);
    expect(one({ type: 'compact_20260112', instructions: 7, pause_after_compaction: 'yes' })).toEqual([{ type: 'compact' }]);
  });
});

describe('compaction blocks', () => {
  it('the block the proxy writes: its summary, and our carrier of it', async () => {
    const { compactionBlock } = await import('./context-management.ts');
    const { decodeCompaction } = await import('../../src/canonical/index.ts');
    const block = compactionBlock({ summary: 'S', origin: 'gemini', model: 'g', created: 0 });
    expect(block).toMatchObject({ type: 'compaction', content: 'S' });
    expect(decodeCompaction(block.encrypted_content as string)).toMatchObject({ summary: 'S', origin: 'gemini' });
  });

  it('the last compaction in its message wins; an empty content falls back to the carrier; no compaction, all messages', async () => {
    const { fromLastCompaction } = await import('./context-management.ts');
    const { encodeCompaction } = await import('../../src/canonical/index.ts');
    const msgs = [
      { role: 'assistant', content: [{ type: 'compaction', content: 'A' }, null, { type: 'compaction', content: '', encrypted_content: encodeCompaction({ summary: 'B', origin: 'openai' }) }] },
    ];
    expect(fromLastCompaction(msgs)).toEqual({ summary: 'B', messages: [] });
    const plain = [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'text', text: 'a' }, null] }];
    const out = fromLastCompaction(plain);
    expect(out).toEqual({ messages: plain });
    expect(out.messages).not.toBe(plain);
    const junk = [{ role: 'assistant', content: [{ type: 'compaction', content: 3, encrypted_content: 'not ours' }] }];
    expect(fromLastCompaction(junk)).toEqual({ messages: junk });
    const later = [{ role: 'assistant', content: [{ type: 'compaction', content: 'A' }, 'x', null, { type: 'compaction', content: null }, { type: 'text', text: 't' }] }];
    expect(fromLastCompaction(later)).toEqual({ summary: 'A', messages: [{ role: 'assistant', content: ['x', null, { type: 'text', text: 't' }] }] });
  });
});
