/**
 * How a Response's status (and incomplete reason) reads as a canonical finish reason, and back.
 */
import { describe, expect, it } from 'vitest';
import type { FinishReason } from '../../src/canonical/index.ts';
import { decodeFinishReason, encodeFinishReason } from './finish-reason.ts';

describe('decodeFinishReason', () => {
  const plain = { toolCalls: false, refusedOnly: false };
  it.each([
    ['completed', undefined, plain, { unified: 'stop', raw: 'completed' }],
    [null, undefined, plain, { unified: 'stop', raw: 'completed' }],
    [undefined, undefined, { toolCalls: true, refusedOnly: false }, { unified: 'tool-calls', raw: 'completed' }],
    ['completed', undefined, { toolCalls: false, refusedOnly: true }, { unified: 'refusal', raw: 'completed' }],
    ['incomplete', 'max_output_tokens', plain, { unified: 'length', raw: 'max_output_tokens' }],
    ['incomplete', 'content_filter', plain, { unified: 'content-filter', raw: 'content_filter' }],
    ['incomplete', 'something_new', plain, { unified: 'other', raw: 'something_new' }],
    ['incomplete', null, plain, { unified: 'other', raw: 'incomplete' }],
    ['cancelled', undefined, plain, { unified: 'other', raw: 'cancelled' }],
  ] as const)('%s / %s → %j', (status, reason, out, expected) => {
    expect(decodeFinishReason(status, reason, out)).toEqual(expected);
  });
});

describe('encodeFinishReason', () => {
  it.each([
    [undefined, { status: 'completed' }],
    ...(['stop', 'stop-sequence', 'tool-calls', 'refusal', 'pause', 'other'] as const).map((unified) => [{ unified }, { status: 'completed' }] as const),
    [{ unified: 'length' }, { status: 'incomplete', reason: 'max_output_tokens' }],
    [{ unified: 'content-filter' }, { status: 'incomplete', reason: 'content_filter' }],
    [{ unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' }, { status: 'failed', code: 'server_error', message: "The model's output ended in an error (MALFORMED_FUNCTION_CALL)." }],
    [{ unified: 'error' }, { status: 'failed', code: 'server_error', message: "The model's output ended in an error." }],
  ] as const)('%j → %j', (reason, expected) => {
    expect(encodeFinishReason(reason as FinishReason | undefined)).toEqual(expected);
  });

  it('a reason of no known kind is a programming error, named', () => {
    expect(() => encodeFinishReason({ unified: 'novel' } as never)).toThrow('unhandled finish reason: "novel"');
  });
});
