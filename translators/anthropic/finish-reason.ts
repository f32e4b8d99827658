/**
 * Anthropic `stop_reason` ↔ canonical finish reasons.
 * https://docs.claude.com/en/api/handling-stop-reasons
 */
import { assertNever, type FinishReason } from '../../src/canonical/index.ts';

/** Every stop reason the API documents. */
export type AnthropicStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

const KNOWN: ReadonlySet<string> = new Set<AnthropicStopReason>([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
]);

/** Upstream `stop_reason` (+ `stop_sequence`) → canonical. Unknown values → `other`. */
export function decodeStopReason(raw: string | null | undefined, stopSequence?: string | null): FinishReason {
  switch (raw) {
    case 'end_turn':
      return { unified: 'stop', raw };
    case 'stop_sequence':
      return { unified: 'stop-sequence', raw, ...(stopSequence != null ? { stopSequence } : {}) };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'pause_turn':
      return { unified: 'pause', raw };
    case 'refusal':
      return { unified: 'refusal', raw };
    case null:
    case undefined:
      return { unified: 'other' };
    default:
      return { unified: 'other', raw };
  }
}

/**
 * Canonical → Anthropic `stop_reason` for a caller.
 *
 * | unified        | stop_reason |
 * |----------------|-------------|
 * | stop           | end_turn (tool_use when the choice holds tool calls: Gemini says STOP for them) |
 * | stop-sequence  | stop_sequence (+ `stop_sequence`) |
 * | length         | max_tokens (or the raw `model_context_window_exceeded`) |
 * | tool-calls     | tool_use |
 * | content-filter | refusal |
 * | refusal        | refusal |
 * | pause          | pause_turn |
 * | error, other   | end_turn (the API has no error stop reason; errors travel as `error` events) |
 */
export function encodeStopReason(
  reason: FinishReason | undefined,
  hasToolCalls: boolean,
): { stop_reason: AnthropicStopReason; stop_sequence: string | null } {
  const stop = (stop_reason: AnthropicStopReason) => ({ stop_reason, stop_sequence: null });
  if (!reason) return stop(hasToolCalls ? 'tool_use' : 'end_turn');
  switch (reason.unified) {
    case 'stop':
      return stop(hasToolCalls ? 'tool_use' : 'end_turn');
    case 'stop-sequence':
      return { stop_reason: 'stop_sequence', stop_sequence: reason.stopSequence ?? null };
    case 'length':
      return stop(reason.raw === 'model_context_window_exceeded' ? reason.raw : 'max_tokens');
    case 'tool-calls':
      return stop('tool_use');
    case 'content-filter':
    case 'refusal':
      return stop('refusal');
    case 'pause':
      return stop('pause_turn');
    case 'error':
    case 'other':
      return stop(reason.raw && KNOWN.has(reason.raw) ? (reason.raw as AnthropicStopReason) : hasToolCalls ? 'tool_use' : 'end_turn');
    default:
      return assertNever(reason.unified, 'finish reason');
  }
}
