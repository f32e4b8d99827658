/**
 * Context editing (the `context-management-2025-06-27` beta): the caller's
 * `context_management.edits` → canonical `ContextEdit`s, checked; and what the proxy cleared
 * (`AppliedEdit`s) → the answer's `context_management.applied_edits`.
 * https://docs.claude.com/en/docs/build-with-claude/context-editing
 */
import { decodeCompaction, encodeCompaction, type AppliedEdit, type Compaction, type ContextEdit } from '../../src/canonical/index.ts';
import { invalid } from './validate.ts';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `{type: 'input_tokens' | 'tool_uses' | 'thinking_turns', value: n}` → n, checked. */
function counted(v: unknown, path: string, types: readonly string[]): { type: string; value: number } | undefined {
  if (v == null) return undefined;
  // Number.isInteger is false for anything but a number.
  if (!isObject(v) || !types.includes(v.type as string) || !Number.isInteger(v.value) || (v.value as number) < 0) {
    throw invalid(path, `Input should be an object with 'type' ${types.map((t) => `'${t}'`).join(' or ')} and a non-negative integer 'value'`);
  }
  return { type: v.type as string, value: v.value as number };
}

/** `context_management.edits` (the context-management-2025-06-27 beta) → canonical edits. */
export function decodeContextEdits(raw: unknown): ContextEdit[] {
  if (!isObject(raw)) throw invalid('context_management', 'Input should be an object');
  const edits = raw.edits ?? [];
  if (!Array.isArray(edits)) throw invalid('context_management.edits', 'Input should be a valid list');
  return edits.map((e, i): ContextEdit => {
    const path = `context_management.edits.${i}`;
    if (!isObject(e)) throw invalid(path, 'Input should be an object');
    switch (e.type) {
      case 'clear_tool_uses_20250919': {
        const trigger = counted(e.trigger, `${path}.trigger`, ['input_tokens', 'tool_uses']);
        const keep = counted(e.keep, `${path}.keep`, ['tool_uses']);
        const atLeast = counted(e.clear_at_least, `${path}.clear_at_least`, ['input_tokens']);
        const inputs = e.clear_tool_inputs;
        if (inputs != null && typeof inputs !== 'boolean' && !(Array.isArray(inputs) && inputs.every((n) => typeof n === 'string'))) {
          throw invalid(`${path}.clear_tool_inputs`, 'Input should be a boolean or a list of tool names');
        }
        const exclude = e.exclude_tools;
        if (exclude != null && !(Array.isArray(exclude) && exclude.every((n) => typeof n === 'string'))) throw invalid(`${path}.exclude_tools`, 'Input should be a list of tool names');
        return {
          type: 'clear-tool-uses',
          ...(trigger && { trigger: { unit: trigger.type === 'tool_uses' ? 'tool-uses' : 'input-tokens', value: trigger.value } }),
          ...(keep && { keep: keep.value }),
          ...(atLeast && { clearAtLeast: atLeast.value }),
          ...(exclude != null && { excludeTools: exclude as string[] }),
          ...(inputs != null && { clearToolInputs: inputs as boolean | string[] }),
        };
      }
      case 'clear_thinking_20251015': {
        if (e.keep === 'all' || (isObject(e.keep) && e.keep.type === 'all')) return { type: 'clear-thinking', keep: 'all' };
        const keep = counted(e.keep, `${path}.keep`, ['thinking_turns']);
        return { type: 'clear-thinking', ...(keep && { keep: keep.value }) };
      }
      case 'compact_20260112': {
        const trigger = counted(e.trigger, `${path}.trigger`, ['input_tokens']);
        return {
          type: 'compact',
          ...(trigger && { trigger: trigger.value }),
          ...(typeof e.instructions === 'string' && e.instructions.trim() !== '' && { instructions: e.instructions }),
          ...(e.pause_after_compaction === true && { pause: true }),
        };
      }
      default:
        throw invalid(`${path}.type`, "Input should be 'clear_tool_uses_20250919', 'clear_thinking_20251015' or 'compact_20260112'");
    }
  });
}

/** `context_management` as Anthropic answers it, for edits the proxy applied. */
export function encodeAppliedEdits(applied: readonly AppliedEdit[]): { applied_edits: Array<Record<string, unknown>> } {
  return {
    applied_edits: applied.map((a) =>
      a.type === 'clear-tool-uses'
        ? { type: 'clear_tool_uses_20250919', cleared_tool_uses: a.cleared, cleared_input_tokens: a.clearedInputTokens }
        : { type: 'clear_thinking_20251015', cleared_thinking_turns: a.cleared, cleared_input_tokens: a.clearedInputTokens },
    ),
  };
}

/**
 * A conversation that brings back a `compaction` block (compact_20260112): what it summarises is
 * gone, as the API drops every block before the last one. `summary` is its summary (its `content`,
 * else ours from `encrypted_content`); `messages` what follows it, the blocks after it in its own
 * message first. A block with no summary (a failed compaction) is no compaction at all.
 */
export function fromLastCompaction<M extends { role: string; content: unknown }>(messages: readonly M[]): { summary?: string; messages: M[] } {
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i]!.content;
    // Stryker disable next-line ConditionalExpression: a string's characters are no compaction blocks either
    if (!Array.isArray(content)) continue;
    // Stryker disable next-line ArithmeticOperator: an index past the end is an undefined block, skipped
    for (let j = content.length - 1; j >= 0; j--) {
      // A primitive's `type` is undefined, as null's and undefined's (by `?.`).
      const b = content[j] as Record<string, unknown> | null | undefined;
      if (b?.type !== 'compaction') continue;
      const carried = typeof b.encrypted_content === 'string' ? decodeCompaction(b.encrypted_content) : undefined;
      const summary = typeof b.content === 'string' && b.content !== '' ? b.content : carried?.summary;
      if (summary === undefined) continue;
      const after = content.slice(j + 1).filter((x) => (x as { type?: unknown } | null | undefined)?.type !== 'compaction');
      const rest = after.length > 0 ? [{ ...messages[i]!, content: after }] : [];
      return { summary, messages: [...rest, ...messages.slice(i + 1)] };
    }
  }
  return { messages: [...messages] };
}

/** A compaction the proxy made, as a `compaction` block: the summary, and our carrier of it. */
export function compactionBlock(c: Compaction): Record<string, unknown> {
  return { type: 'compaction', content: c.summary, encrypted_content: encodeCompaction({ summary: c.summary, origin: c.origin }) };
}
