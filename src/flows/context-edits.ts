/**
 * Context editing (Anthropic's `context-management-2025-06-27` beta: `clear_tool_uses_20250919`,
 * `clear_thinking_20251015`) applied by the proxy to the canonical history, toward an upstream
 * that has no such editing: pure transforms, in the order the caller listed them, each reported
 * as Anthropic reports it (`AppliedEdit`, the caller's `context_management.applied_edits`).
 * https://docs.claude.com/en/docs/build-with-claude/context-editing
 *
 * Token counts are the proxy's estimate (four characters a token, src/canonical/estimate.ts),
 * as no upstream counts them here.
 */
import {
  estimatePartTokens,
  estimateTokens,
  type AppliedEdit,
  type ChatRequest,
  type ContextEdit,
  type Message,
  type Part,
  type Warning,
} from '../canonical/index.ts';

/** Anthropic's defaults: clear from 100,000 input tokens, keep the last 3 tool uses, thinking of the last turn. */
export const DEFAULT_TRIGGER_TOKENS = 100_000;
export const DEFAULT_KEEP_TOOL_USES = 3;
export const DEFAULT_KEEP_THINKING_TURNS = 1;
/** Anthropic compacts from 150,000 input tokens unless told otherwise. */
export const DEFAULT_COMPACT_TOKENS = 150_000;

/** What a cleared tool result (or input) reads instead. */
export const CLEARED_RESULT = '[tool result cleared to save context]';
export const CLEARED_INPUT = '{}';

type Edited = { messages: Message[]; applied?: AppliedEdit };

/** Reasoning removed from every assistant turn but the last `keep`. */
export function clearThinking(messages: readonly Message[], keep: number | 'all' = DEFAULT_KEEP_THINKING_TURNS): Edited {
  if (keep === 'all') return { messages: [...messages] };
  const turns = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  const older = new Set(turns.slice(0, Math.max(0, turns.length - keep)));
  let cleared = 0;
  let tokens = 0;
  const out = messages.map((m, i) => {
    if (!older.has(i) || !m.content.some((p) => p.type === 'reasoning')) return m;
    cleared++;
    tokens += estimatePartTokens(m.content.filter((p) => p.type === 'reasoning'));
    return { ...m, content: m.content.filter((p) => p.type !== 'reasoning') };
  });
  return cleared > 0 ? { messages: out, applied: { type: 'clear-thinking', cleared, clearedInputTokens: tokens } } : { messages: out };
}

/** Where each tool use is: its call and, once answered, its result. */
interface Use {
  name: string;
  call: [number, number];
  result?: [number, number];
}

function usesOf(messages: readonly Message[]): Use[] {
  const uses: Use[] = [];
  const byId = new Map<string, Use>();
  messages.forEach((m, i) =>
    m.content.forEach((p, j) => {
      if (p.type === 'tool-call') {
        const use: Use = { name: p.name, call: [i, j] };
        uses.push(use);
        byId.set(p.id, use);
      } else if (p.type === 'tool-result') {
        const use = byId.get(p.callId);
        if (use) use.result = [i, j];
      }
    }),
  );
  return uses;
}

const isCleared = (p: Part) => p.type === 'tool-result' && p.content.length === 1 && p.content[0]!.type === 'text' && p.content[0]!.text === CLEARED_RESULT;

/**
 * The oldest tool results (and inputs, as asked) replaced by a placeholder once the request
 * reaches the trigger, keeping the last `keep` uses and those of `excludeTools`; nothing at all
 * when less than `clearAtLeast` tokens would go.
 */
export function clearToolUses(req: ChatRequest, edit: Extract<ContextEdit, { type: 'clear-tool-uses' }>): Edited {
  const messages = req.messages;
  const uses = usesOf(messages);
  const trigger = edit.trigger ?? { unit: 'input-tokens', value: DEFAULT_TRIGGER_TOKENS };
  const reached = trigger.unit === 'tool-uses' ? uses.length >= trigger.value : estimateTokens(req) >= trigger.value;
  if (!reached) return { messages: [...messages] };
  const keep = edit.keep ?? DEFAULT_KEEP_TOOL_USES;
  const excluded = new Set(edit.excludeTools ?? []);
  const inputs = edit.clearToolInputs;
  const clearsInput = (name: string) => inputs === true || (Array.isArray(inputs) && inputs.includes(name));
  const out = messages.map((m) => ({ ...m, content: [...m.content] }));
  let cleared = 0;
  let tokens = 0;
  for (const use of uses.slice(0, Math.max(0, uses.length - keep))) {
    if (excluded.has(use.name)) continue;
    let did = false;
    if (use.result) {
      const [i, j] = use.result;
      const p = out[i]!.content[j]!;
      if (p.type === 'tool-result' && !isCleared(p)) {
        tokens += estimatePartTokens(p.content);
        out[i]!.content[j] = { ...p, content: [{ type: 'text', text: CLEARED_RESULT }] };
        did = true;
      }
    }
    if (clearsInput(use.name)) {
      const [i, j] = use.call;
      const p = out[i]!.content[j]!;
      if (p.type === 'tool-call' && p.arguments !== CLEARED_INPUT) {
        tokens += Math.ceil(p.arguments.length / 4);
        out[i]!.content[j] = { ...p, arguments: CLEARED_INPUT };
        did = true;
      }
    }
    if (did) cleared++;
  }
  if (cleared === 0 || tokens < (edit.clearAtLeast ?? 0)) return { messages: [...messages] };
  return { messages: out, applied: { type: 'clear-tool-uses', cleared, clearedInputTokens: tokens } };
}

/**
 * The request with its context edits applied and reported (`appliedEdits`), its
 * `contextManagement` gone. A `compact` edit whose trigger the request reaches is not made here:
 * `compact` says so when the caller's dialect can show a compaction made before the turn
 * (`canCompact`: the flow then makes it); otherwise it is reported dropped (lossy), so strict mode
 * refuses it. Below its trigger there is nothing to do.
 */
export function applyContextEdits(req: ChatRequest, canCompact = false): { value: ChatRequest; warnings: Warning[]; compact?: { instructions?: string } } {
  const cm = req.contextManagement;
  if (!cm) return { value: req, warnings: [] };
  let compact: { instructions?: string } | undefined;
  const { contextManagement: _done, ...rest } = req;
  let current: ChatRequest = rest;
  const applied: AppliedEdit[] = [];
  const warnings: Warning[] = [];
  cm.edits.forEach((edit, i) => {
    if (edit.type === 'compact') {
      if (estimateTokens(current) < (edit.trigger ?? DEFAULT_COMPACT_TOKENS)) return;
      if (canCompact) {
        compact = edit.instructions ? { instructions: edit.instructions } : {};
        // The turn is answered after the compaction all the same (no pause).
        if (edit.pause) warnings.push({ code: 'approximated', path: `context_management.edits[${i}].pause_after_compaction` });
      }
      else warnings.push({ code: 'dropped', path: `context_management.edits[${i}]`, detail: 'compact', lossy: true });
      return;
    }
    const r = edit.type === 'clear-thinking' ? clearThinking(current.messages, edit.keep) : clearToolUses(current, edit);
    current = { ...current, messages: r.messages };
    if (r.applied) applied.push(r.applied);
  });
  const value = { ...current, appliedEdits: applied };
  return compact ? { value, warnings, compact } : { value, warnings };
}
