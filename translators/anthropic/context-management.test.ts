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
