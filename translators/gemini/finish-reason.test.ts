/** Gemini finishReason ↔ canonical finish reasons, both ways. */
import { describe, expect, it } from 'vitest';
import type { FinishReason } from '../../src/canonical/index.ts';
import { decodeFinishReason, encodeFinishReason } from './finish-reason.ts';

describe('decodeFinishReason', () => {
  it.each([
    ['STOP', false, { unified: 'stop', raw: 'STOP' }],
    ['STOP', true, { unified: 'tool-calls', raw: 'STOP' }],
    ['MAX_TOKENS', false, { unified: 'length', raw: 'MAX_TOKENS' }],
    ...['SAFETY', 'RECITATION', 'LANGUAGE', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION'].map((raw) => [raw, false, { unified: 'content-filter', raw }] as const),
    ...['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS'].map((raw) => [raw, true, { unified: 'error', raw }] as const),
    [undefined, false, { unified: 'other' }],
    ['NO_IMAGE', false, { unified: 'other', raw: 'NO_IMAGE' }],
  ] as const)('%s (tool calls: %s) → %j', (raw, calls, expected) => {
    expect(decodeFinishReason(raw, calls)).toEqual(expected);
  });
});

describe('encodeFinishReason', () => {
  it.each([
    [{ unified: 'stop-sequence' }, 'STOP'],
    [{ unified: 'tool-calls', raw: 'tool_use' }, 'STOP'],
    [{ unified: 'length', raw: 'max_tokens' }, 'MAX_TOKENS'],
    [{ unified: 'content-filter', raw: 'PROHIBITED_CONTENT' }, 'PROHIBITED_CONTENT'],
    [{ unified: 'content-filter', raw: 'STOP' }, 'SAFETY'],
    [{ unified: 'content-filter', raw: 'MAX_TOKENS' }, 'SAFETY'],
    [{ unified: 'content-filter' }, 'SAFETY'],
    [{ unified: 'refusal', raw: 'refusal' }, 'SAFETY'],
    [{ unified: 'error', raw: 'UNEXPECTED_TOOL_CALL' }, 'UNEXPECTED_TOOL_CALL'],
    [{ unified: 'error', raw: 'server_error' }, 'OTHER'],
    [{ unified: 'pause', raw: 'pause_turn' }, 'OTHER'],
    [{ unified: 'other', raw: 'NO_IMAGE' }, 'NO_IMAGE'],
    [{ unified: 'other' }, 'OTHER'],
  ] as const)('%j → %s', (reason, wire) => {
    expect(encodeFinishReason(reason as FinishReason)).toBe(wire);
  });
});
