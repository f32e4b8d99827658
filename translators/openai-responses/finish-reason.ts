/**
 * A Response's `status` + `incomplete_details.reason` ↔ canonical finish reason.
 * https://platform.openai.com/docs/api-reference/responses/object: status `completed`,
 * `incomplete` (reason `max_output_tokens` or `content_filter`), `failed` (an error, decoded as
 * one), `cancelled`, `queued`, `in_progress`. A completed response has no reason of its own: tool
 * calls or a lone refusal among its output say why it ended.
 */
import { assertNever, type FinishReason } from '../../src/canonical/index.ts';

export function decodeFinishReason(
  status: string | null | undefined,
  incompleteReason: string | null | undefined,
  out: { toolCalls: boolean; refusedOnly: boolean },
): FinishReason {
  switch (status) {
    case 'completed':
    case null:
    case undefined:
      if (out.toolCalls) return { unified: 'tool-calls', raw: 'completed' };
      return { unified: out.refusedOnly ? 'refusal' : 'stop', raw: 'completed' };
    case 'incomplete':
      if (incompleteReason === 'max_output_tokens') return { unified: 'length', raw: incompleteReason };
      if (incompleteReason === 'content_filter') return { unified: 'content-filter', raw: incompleteReason };
      return { unified: 'other', raw: incompleteReason ?? status };
    default:
      return { unified: 'other', raw: status };
  }
}

export type ResponseEnd =
  | { status: 'completed' }
  | { status: 'incomplete'; reason: 'max_output_tokens' | 'content_filter' }
  | { status: 'failed'; code: string; message: string };

/**
 * Canonical → how the Response ends. `stop`, `stop-sequence`, `tool-calls`, `refusal`, `pause`
 * and `other` complete (the Responses API names no further reason); `length` and
 * `content-filter` are incomplete; `error` (e.g. Gemini's MALFORMED_FUNCTION_CALL) fails.
 */
export function encodeFinishReason(reason: FinishReason | undefined): ResponseEnd {
  if (!reason) return { status: 'completed' };
  switch (reason.unified) {
    case 'stop':
    case 'stop-sequence':
    case 'tool-calls':
    case 'refusal':
    case 'pause':
    case 'other':
      return { status: 'completed' };
    case 'length':
      return { status: 'incomplete', reason: 'max_output_tokens' };
    case 'content-filter':
      return { status: 'incomplete', reason: 'content_filter' };
    case 'error':
      return { status: 'failed', code: 'server_error', message: `The model's output ended in an error${reason.raw ? ` (${reason.raw})` : ''}.` };
    default:
      return assertNever(reason.unified, 'finish reason');
  }
}
