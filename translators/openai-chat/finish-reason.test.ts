import { expect, test } from 'vitest';
import type { FinishReason } from '../../src/canonical/index.ts';
import { decodeFinishReason, encodeFinishReason } from './finish-reason.ts';

test.each([
  ['stop', 'stop'],
  ['length', 'length'],
  ['tool_calls', 'tool-calls'],
  ['function_call', 'tool-calls'],
  ['content_filter', 'content-filter'],
  ['error', 'error'],
  ['weird', 'other'],
] as const)('decode %s → %s', (raw, unified) => {
  expect(decodeFinishReason(raw)).toEqual({ unified, raw });
});

test('decode: refusal-only stop is unified refusal; null is other', () => {
  expect(decodeFinishReason('stop', true)).toEqual({ unified: 'refusal', raw: 'stop' });
  expect(decodeFinishReason(null)).toEqual({ unified: 'other' });
});

test.each([
  [{ unified: 'stop' }, 'stop'],
  [{ unified: 'stop-sequence', stopSequence: 'x' }, 'stop'],
  [{ unified: 'refusal' }, 'stop'],
  [{ unified: 'pause', raw: 'pause_turn' }, 'stop'],
  [{ unified: 'length' }, 'length'],
  [{ unified: 'tool-calls' }, 'tool_calls'],
  [{ unified: 'content-filter' }, 'content_filter'],
  [{ unified: 'error' }, 'error'],
  [{ unified: 'other', raw: 'length' }, 'length'],
  [{ unified: 'other', raw: 'stop' }, 'stop'],
  [{ unified: 'other', raw: 'tool_calls' }, 'tool_calls'],
  [{ unified: 'other', raw: 'content_filter' }, 'content_filter'],
  [{ unified: 'other', raw: 'function_call' }, 'function_call'],
  [{ unified: 'other' }, 'stop'],
  [{ unified: 'other', raw: 'FINISH_REASON_UNSPECIFIED' }, 'stop'],
] as Array<[FinishReason, string]>)('encode %j → %s', (reason, wire) => {
  expect(encodeFinishReason(reason)).toBe(wire);
});

test('encode: legacy functions callers get function_call', () => {
  expect(encodeFinishReason({ unified: 'tool-calls' }, true)).toBe('function_call');
});

test('encode: a reason the dialect does not know is a programming error, not a silent stop', () => {
  expect(() => encodeFinishReason({ unified: 'mystery' } as unknown as FinishReason)).toThrow('unhandled finish reason: "mystery"');
});
