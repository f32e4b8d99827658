/**
 * `finish_reason` both ways. Values per the spec's Choice table
 * (/work/shared/spec/chat-completions.md): stop, length, tool_calls, content_filter,
 * function_call (deprecated). OpenRouter's normalized `error` is accepted as well.
 */
import { assertNever, type FinishReason } from '../../src/canonical/index.ts';

export type OpenAIChatFinishReason =
  | 'stop'
  | 'length'
  | 'tool_calls'
  | 'content_filter'
  | 'function_call'
  | 'error';

/** Wire → canonical. `refused` marks a choice whose only output is a refusal. */
export function decodeFinishReason(raw: string | null | undefined, refused = false): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: refused ? 'refusal' : 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case 'error':
      return { unified: 'error', raw };
    case null:
    case undefined:
      return { unified: 'other' };
    default:
      return { unified: 'other', raw };
  }
}

/**
 * Canonical → wire. Lossy cases:
 * - `refusal` → `stop`: OpenAI reports a refusal as `stop` with `message.refusal` set.
 * - `stop-sequence` → `stop` (OpenAI does not name the matched sequence).
 * - `pause` (Anthropic `pause_turn`) → `stop`: the turn ended, the caller may continue.
 * - `error` → `error`: OpenAI has no value for it; `stop` would claim a clean end. `error` is
 *   what OpenRouter's OpenAI-compatible API sends, and the official SDKs pass unknown strings on.
 * - `other` → the raw value when it is an OpenAI one, else `stop`.
 * `legacyFunctions`: the caller used deprecated `functions`, so tool calls end with `function_call`.
 */
export function encodeFinishReason(reason: FinishReason, legacyFunctions = false): OpenAIChatFinishReason {
  switch (reason.unified) {
    case 'stop':
    case 'stop-sequence':
    case 'refusal':
    case 'pause':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return legacyFunctions ? 'function_call' : 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    case 'error':
      return 'error';
    case 'other':
      switch (reason.raw) {
        case 'length':
        case 'tool_calls':
        case 'content_filter':
        case 'function_call':
          return reason.raw;
        default:
          return 'stop';
      }
    default:
      return assertNever(reason.unified, 'finish reason');
  }
}
