import { describe, expect, it } from 'vitest';
import { decodeStatus, encodeStatus } from './status.ts';
import { decodeUsage, encodeUsage, hasUsage } from './usage.ts';

describe('Interactions usage', () => {
  it('decodes: output includes thoughts canonically, cached kept (the thinking guide: 11 + 90 + 245 = 346)', () => {
    expect(decodeUsage({ total_input_tokens: 11, total_output_tokens: 90, total_thought_tokens: 245, total_cached_tokens: 0, total_tokens: 346 })).toEqual({
      inputTokens: 11,
      outputTokens: 335,
      totalTokens: 346,
      reasoningTokens: 245,
    });
    expect(decodeUsage({ total_input_tokens: 80, total_output_tokens: 30, total_cached_tokens: 48, total_tool_use_tokens: 5 })).toEqual({
      inputTokens: 85,
      outputTokens: 30,
      totalTokens: 115,
      cachedInputTokens: 48,
    });
  });

  it('encodes: visible output without thoughts, total = input + output + thought', () => {
    expect(encodeUsage({ inputTokens: 11, outputTokens: 335, totalTokens: 346, reasoningTokens: 245, cachedInputTokens: 4 })).toEqual({
      total_input_tokens: 11,
      total_output_tokens: 90,
      total_thought_tokens: 245,
      total_cached_tokens: 4,
      total_tokens: 346,
    });
    expect(encodeUsage({ inputTokens: 5, outputTokens: 7, totalTokens: 12 })).toMatchObject({ total_output_tokens: 7, total_thought_tokens: 0, total_tokens: 12 });
  });
});

describe('Interactions status', () => {
  it('decodes every status', () => {
    expect(decodeStatus('completed', false)).toEqual({ unified: 'stop', raw: 'completed' });
    expect(decodeStatus('completed', true)).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(decodeStatus('requires_action', true)).toEqual({ unified: 'tool-calls', raw: 'requires_action' });
    expect(decodeStatus('incomplete', false)).toEqual({ unified: 'length', raw: 'incomplete' });
    expect(decodeStatus('failed', false).unified).toBe('error');
    expect(decodeStatus('cancelled', false)).toEqual({ unified: 'other', raw: 'cancelled' });
  });

  it('encodes: requires_action for function calls, incomplete for length and content filters, failed for errors', () => {
    expect(encodeStatus({ unified: 'tool-calls' }, true)).toBe('requires_action');
    expect(encodeStatus({ unified: 'stop' }, true)).toBe('requires_action');
    expect(encodeStatus({ unified: 'stop' }, false)).toBe('completed');
    expect(encodeStatus({ unified: 'stop-sequence' }, false)).toBe('completed');
    expect(encodeStatus({ unified: 'length' }, false)).toBe('incomplete');
    expect(encodeStatus({ unified: 'content-filter' }, false)).toBe('incomplete');
    expect(encodeStatus({ unified: 'error' }, false)).toBe('failed');
    expect(encodeStatus({ unified: 'refusal' }, false)).toBe('completed');
  });
});

describe('Interactions usage and status: the edges', () => {
  it('any one total is enough to count as a usage', () => {
    expect(hasUsage({ total_output_tokens: 3 })).toBe(true);
    expect(hasUsage({ total_tokens: 3 })).toBe(true);
    expect(hasUsage({ total_input_tokens: 0 })).toBe(true);
    expect(hasUsage({ total_thought_tokens: 3, total_output_tokens: null })).toBe(false);
    expect(hasUsage(null)).toBe(false);
  });

  it('a usage with only a total keeps that total (nothing to split it into); any split is summed', () => {
    expect(decodeUsage({ total_tokens: 42 })).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 42 });
    expect(decodeUsage({ total_tokens: 42, total_input_tokens: 10 }).totalTokens).toBe(10);
    expect(decodeUsage({ total_tokens: 42, total_output_tokens: 5 }).totalTokens).toBe(5);
    expect(decodeUsage({ total_tokens: 42, total_thought_tokens: 7 }).totalTokens).toBe(7);
  });

  it('no finish reason at all: requires_action after calls, otherwise completed; an unknown reason is a programming error', () => {
    expect(encodeStatus(undefined, true)).toBe('requires_action');
    expect(encodeStatus(undefined, false)).toBe('completed');
    expect(() => encodeStatus({ unified: 'bogus' } as never, false)).toThrow('unhandled finish reason');
  });

  it('decodes the rest: no status is a completed one; budget and continuation stops are length; encodes: output never below zero, other and pause', () => {
    expect(decodeStatus(null, false)).toEqual({ unified: 'stop', raw: 'completed' });
    expect(decodeStatus(undefined, true)).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(decodeStatus('budget_exceeded', false)).toEqual({ unified: 'length', raw: 'budget_exceeded' });
    expect(decodeStatus('requires_continuation', false)).toEqual({ unified: 'length', raw: 'requires_continuation' });
    expect(decodeStatus('failed', false)).toEqual({ unified: 'error', raw: 'failed' });
    expect(encodeStatus({ unified: 'other' }, true)).toBe('requires_action');
    expect(encodeStatus({ unified: 'other' }, false)).toBe('completed');
    expect(encodeStatus({ unified: 'pause' }, true)).toBe('completed');
    expect(encodeStatus({ unified: 'refusal' }, true)).toBe('completed');
    expect(encodeStatus({ unified: 'length' }, true)).toBe('incomplete');
    expect(encodeUsage({ inputTokens: 1, outputTokens: 2, totalTokens: 3, reasoningTokens: 5 })).toEqual({
      total_input_tokens: 1,
      total_output_tokens: 0,
      total_thought_tokens: 5,
      total_cached_tokens: 0,
      total_tokens: 6,
    });
    expect(decodeUsage({ total_input_tokens: 3, total_output_tokens: 4, total_thought_tokens: 0, total_cached_tokens: null })).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7, reasoningTokens: 0 });
  });
});
