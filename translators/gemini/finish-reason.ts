/**
 * Gemini `finishReason` ⇄ canonical, by table.
 * Values: https://ai.google.dev/api/generate-content#FinishReason (plus the newer tool/image
 * values in @google/genai's `FinishReason` enum).
 */
import { assertNever, type FinishReason } from '../../src/canonical/index.ts';

/** Wire → canonical. `hasToolCalls`: Gemini ends a function-call reply with plain `STOP`. */
export function decodeFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'STOP':
      return { unified: hasToolCalls ? 'tool-calls' : 'stop', raw };
    case 'MAX_TOKENS':
      return { unified: 'length', raw };
    case 'SAFETY':
    case 'RECITATION':
    case 'LANGUAGE':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return { unified: 'content-filter', raw };
    // The model produced an unusable call: an error, never a clean stop.
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
      return { unified: 'error', raw };
    case undefined:
      return { unified: 'other' };
    default:
      // OTHER, FINISH_REASON_UNSPECIFIED, NO_IMAGE and values added later.
      return { unified: 'other', raw };
  }
}

const GEMINI_REASONS = new Set([
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'IMAGE_PROHIBITED_CONTENT',
  'NO_IMAGE',
  'IMAGE_RECITATION',
]);

/** Canonical → wire (for Gemini callers). A raw Gemini value is kept when it still fits. */
export function encodeFinishReason(reason: FinishReason): string {
  const raw = reason.raw && GEMINI_REASONS.has(reason.raw) ? reason.raw : undefined;
  switch (reason.unified) {
    case 'stop':
    case 'stop-sequence':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return raw && raw !== 'STOP' && raw !== 'MAX_TOKENS' ? raw : 'SAFETY';
    case 'refusal':
      return 'SAFETY';
    case 'error':
      return raw ?? 'OTHER';
    case 'pause':
    case 'other':
      return raw ?? 'OTHER';
    default:
      return assertNever(reason.unified, 'finish reason');
  }
}
