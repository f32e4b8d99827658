import { describe, expect, it } from 'vitest';
import type { ChatRequest, ContextEdit, Message } from '../canonical/index.ts';
import { CLEARED_INPUT, CLEARED_RESULT, applyContextEdits, clearThinking, clearToolUses } from './context-edits.ts';

const big = 'x'.repeat(4000); // ~1000 tokens
/** n tool uses, each a call (with reasoning) then its result; names cycle through `names`. */
function history(n: number, names = ['read']): Message[] {
  const out: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
  for (let i = 1; i <= n; i++) {
    out.push({ role: 'assistant', content: [{ type: 'reasoning', text: `think ${i}`, signature: { origin: 'anthropic', value: `s${i}` } }, { type: 'tool-call', id: `t${i}`, name: names[(i - 1) % names.length]!, arguments: `{"path":"f${i}"}` }] });
    out.push({ role: 'user', content: [{ type: 'tool-result', callId: `t${i}`, content: [{ type: 'text', text: big }] }] });
  }
  return out;
}
const req = (messages: Message[], edits: ContextEdit[] = []): ChatRequest => ({ model: 'm', system: [], messages, stream: false, contextManagement: { dialect: 'anthropic', edits, raw: {} } });
const results = (ms: Message[]) => ms.flatMap((m) => m.content.flatMap((p) => (p.type === 'tool-result' ? [p.content[0]!.type === 'text' ? p.content[0]!.text : ''] : [])));
const args = (ms: Message[]) => ms.flatMap((m) => m.content.flatMap((p) => (p.type === 'tool-call' ? [p.arguments] : [])));

describe('clear_tool_uses', () => {
  it('below the trigger nothing changes; at it the oldest results go, the last `keep` stay', () => {
    const ms = history(6);
    expect(clearToolUses(req(ms), { type: 'clear-tool-uses' }).applied).toBeUndefined(); // ~6000 tokens < 100,000
    const r = clearToolUses(req(ms), { type: 'clear-tool-uses', trigger: { unit: 'input-tokens', value: 5000 } });
    expect(results(r.messages)).toEqual([CLEARED_RESULT, CLEARED_RESULT, CLEARED_RESULT, big, big, big]);
    expect(r.applied).toEqual({ type: 'clear-tool-uses', cleared: 3, clearedInputTokens: 3000 });
    expect(args(r.messages)).toEqual(args(ms)); // inputs kept unless asked
    expect(results(ms)).toEqual(Array(6).fill(big)); // the input is not changed
  });

  it('keep, a tool-uses trigger, exclude_tools and clear_tool_inputs (all, or by name)', () => {
    const ms = history(5, ['read', 'bash']);
    const r = clearToolUses(req(ms), { type: 'clear-tool-uses', trigger: { unit: 'tool-uses', value: 5 }, keep: 1, excludeTools: ['bash'], clearToolInputs: true });
    // read(1) bash(2) read(3) bash(4) | read(5) kept: 1 and 3 cleared, bash never.
    expect(results(r.messages)).toEqual([CLEARED_RESULT, big, CLEARED_RESULT, big, big]);
    expect(args(r.messages)).toEqual([CLEARED_INPUT, '{"path":"f2"}', CLEARED_INPUT, '{"path":"f4"}', '{"path":"f5"}']);
    expect(r.applied?.cleared).toBe(2);
    const named = clearToolUses(req(ms), { type: 'clear-tool-uses', trigger: { unit: 'tool-uses', value: 1 }, keep: 0, clearToolInputs: ['bash'] });
    expect(args(named.messages)).toEqual(['{"path":"f1"}', CLEARED_INPUT, '{"path":"f3"}', CLEARED_INPUT, '{"path":"f5"}']);
    expect(clearToolUses(req(ms), { type: 'clear-tool-uses', trigger: { unit: 'tool-uses', value: 6 } }).applied).toBeUndefined();
  });

  it('clear_at_least: nothing when less would go', () => {
    const ms = history(4);
    const edit = { type: 'clear-tool-uses', trigger: { unit: 'tool-uses', value: 1 } } as const;
    expect(clearToolUses(req(ms), { ...edit, clearAtLeast: 1001 }).applied).toBeUndefined(); // one result, ~1000 tokens
    expect(clearToolUses(req(ms), { ...edit, clearAtLeast: 1000 }).applied?.cleared).toBe(1);
  });
});

describe('clear_thinking', () => {
  it('keeps the reasoning of the last `keep` assistant turns (1 by default), or all', () => {
    const ms = history(3);
    const r = clearThinking(ms);
    const thoughts = (x: Message[]) => x.filter((m) => m.role === 'assistant').map((m) => m.content.filter((p) => p.type === 'reasoning').length);
    expect(thoughts(r.messages)).toEqual([0, 0, 1]);
    expect(r.applied).toEqual({ type: 'clear-thinking', cleared: 2, clearedInputTokens: 4 });
    expect(thoughts(clearThinking(ms, 2).messages)).toEqual([0, 1, 1]);
    expect(clearThinking(ms, 'all').applied).toBeUndefined();
  });
});

describe('applyContextEdits', () => {
  it('applies the edits in order, reports each that cleared something, and leaves no context_management', () => {
    const r = applyContextEdits(req(history(4), [{ type: 'clear-thinking', keep: 'all' }, { type: 'clear-thinking' }, { type: 'clear-tool-uses', trigger: { unit: 'tool-uses', value: 4 }, keep: 2 }]));
    expect(r.value.contextManagement).toBeUndefined();
    expect(r.value.appliedEdits?.map((a) => [a.type, a.cleared])).toEqual([['clear-thinking', 3], ['clear-tool-uses', 2]]);
    expect(r.warnings).toEqual([]);
    expect(applyContextEdits(req(history(1), [])).value.appliedEdits).toEqual([]);
  });

  it('a compact edit is not made here: reported lossy when its trigger is reached, nothing below it', () => {
    expect(applyContextEdits(req(history(1), [{ type: 'compact' }])).warnings).toEqual([]);
    expect(applyContextEdits(req(history(3), [{ type: 'compact', trigger: 1000 }])).warnings).toEqual([{ code: 'dropped', path: 'context_management.edits[0]', detail: 'compact', lossy: true }]);
  });
});

describe('a compact edit the caller can show', () => {
  it('past its trigger: asked of the flow (`compact`), not reported dropped', () => {
    const r = applyContextEdits(req(history(3), [{ type: 'compact', trigger: 1000 }]), true);
    expect(r.compact).toEqual({});
    expect(r.warnings).toEqual([]);
    expect(applyContextEdits(req(history(1), [{ type: 'compact', trigger: 100_000 }]), true).compact).toBeUndefined();
  });
});
