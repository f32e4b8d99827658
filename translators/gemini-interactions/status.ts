/**
 * An Interaction's `status` ⇄ canonical finish reason (SDK `InteractionStatus_2`; spec
 * /work/shared/spec/interactions-api.md). `completed`; `requires_action` when it stopped for
 * function calls; `incomplete` (max_output_tokens — the wire names no reason, so a content
 * filter is written the same way); `failed` (decoded as an error, never as a finish);
 * `cancelled`, `budget_exceeded`, `requires_continuation`, `in_progress`, `queued` are kept raw.
 */
import { assertNever, type FinishReason } from '../../src/canonical/index.ts';
import type { InteractionStatus } from './wire-events.ts';

export function decodeStatus(status: string | null | undefined, toolCalls: boolean): FinishReason {
  switch (status) {
    case 'completed':
    case null:
    case undefined:
      return { unified: toolCalls ? 'tool-calls' : 'stop', raw: 'completed' };
    case 'requires_action':
      return { unified: 'tool-calls', raw: status };
    case 'incomplete':
    case 'budget_exceeded':
    case 'requires_continuation':
      return { unified: 'length', raw: status };
    case 'failed':
      return { unified: 'error', raw: status };
    default:
      return { unified: 'other', raw: status };
  }
}

/** How an Interaction that ended so reports it; `toolCalls` whether this turn called functions. */
export function encodeStatus(reason: FinishReason | undefined, toolCalls: boolean): InteractionStatus {
  if (!reason) return toolCalls ? 'requires_action' : 'completed';
  switch (reason.unified) {
    case 'tool-calls':
      return 'requires_action';
    case 'stop':
    case 'stop-sequence':
    case 'other':
      // A Gemini STOP with function calls still waits for their results.
      return toolCalls ? 'requires_action' : 'completed';
    case 'refusal':
    case 'pause':
      return 'completed';
    case 'length':
    case 'content-filter':
      return 'incomplete';
    case 'error':
      return 'failed';
    default:
      return assertNever(reason.unified, 'finish reason');
  }
}
