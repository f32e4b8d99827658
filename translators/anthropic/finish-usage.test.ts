/** Stop reasons and token counts as a caller reads them, both directions. */
import { describe, expect, it } from 'vitest';
import type { FinishReason } from '../../src/canonical/index.ts';
import { decodeCache, encodeCache } from './cache.ts';
import { decodeStopReason, encodeStopReason } from './finish-reason.ts';
import { decodeUsage, encodeDeltaUsage, encodeUsage } from './usage.ts';

describe('anthropic stop_reason → canonical', () => {
  it.each([
    ['end_turn', { unified: 'stop', raw: 'end_turn' }],
    ['max_tokens', { unified: 'length', raw: 'max_tokens' }],
    ['model_context_window_exceeded', { unified: 'length', raw: 'model_context_window_exceeded' }],
    ['tool_use', { unified: 'tool-calls', raw: 'tool_use' }],
    ['pause_turn', { unified: 'pause', raw: 'pause_turn' }],
    ['refusal', { unified: 'refusal', raw: 'refusal' }],
    ['brand_new', { unified: 'other', raw: 'brand_new' }],
  ])('%s', (raw, expected) => {
    expect(decodeStopReason(raw)).toEqual(expected);
  });

  it('stop_sequence carries the sequence when there is one; null and undefined are "other" without raw', () => {
    expect(decodeStopReason('stop_sequence', 'END')).toEqual({ unified: 'stop-sequence', raw: 'stop_sequence', stopSequence: 'END' });
    expect(decodeStopReason('stop_sequence', null)).toEqual({ unified: 'stop-sequence', raw: 'stop_sequence' });
    expect(decodeStopReason(null)).toEqual({ unified: 'other' });
    expect(decodeStopReason(undefined)).toEqual({ unified: 'other' });
  });
});

describe('canonical → anthropic stop_reason', () => {
  const enc = (reason: FinishReason | undefined, tools = false) => encodeStopReason(reason, tools);
  it.each([
    [{ unified: 'stop' }, false, 'end_turn'],
    [{ unified: 'stop' }, true, 'tool_use'],
    [undefined, false, 'end_turn'],
    [undefined, true, 'tool_use'],
    [{ unified: 'length', raw: 'length' }, false, 'max_tokens'],
    [{ unified: 'length', raw: 'model_context_window_exceeded' }, false, 'model_context_window_exceeded'],
    [{ unified: 'tool-calls' }, false, 'tool_use'],
    [{ unified: 'content-filter', raw: 'SAFETY' }, false, 'refusal'],
    [{ unified: 'refusal' }, false, 'refusal'],
    [{ unified: 'pause' }, false, 'pause_turn'],
    [{ unified: 'other', raw: 'pause_turn' }, false, 'pause_turn'],
    [{ unified: 'other', raw: 'weird' }, false, 'end_turn'],
    [{ unified: 'other', raw: 'weird' }, true, 'tool_use'],
    [{ unified: 'error' }, false, 'end_turn'],
    [{ unified: 'error' }, true, 'tool_use'],
  ] as Array<[FinishReason | undefined, boolean, string]>)('%j (tool calls: %s) → %s', (reason, tools, stop_reason) => {
    expect(enc(reason, tools)).toEqual({ stop_reason, stop_sequence: null });
  });

  it('stop-sequence carries the sequence, or null', () => {
    expect(enc({ unified: 'stop-sequence', stopSequence: 'END' })).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(enc({ unified: 'stop-sequence' })).toEqual({ stop_reason: 'stop_sequence', stop_sequence: null });
  });
});

describe('anthropic usage', () => {
  it('decode: input includes cache reads and writes; cache and thinking counts only when reported', () => {
    expect(decodeUsage({ input_tokens: 10, output_tokens: 5 })).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(decodeUsage({ input_tokens: 10, cache_read_input_tokens: 20, cache_creation_input_tokens: 30, output_tokens: 5, output_tokens_details: { thinking_tokens: 3 } })).toEqual({
      inputTokens: 60,
      outputTokens: 5,
      totalTokens: 65,
      cachedInputTokens: 20,
      cacheWriteTokens: 30,
      reasoningTokens: 3,
    });
    expect(decodeUsage({})).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('decode: the cache writes by TTL, the 1-hour part kept; the split alone gives the total', () => {
    const split = { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 };
    expect(decodeUsage({ input_tokens: 1, cache_creation_input_tokens: 30, cache_creation: split, output_tokens: 2 })).toEqual({
      inputTokens: 31,
      outputTokens: 2,
      totalTokens: 33,
      cacheWriteTokens: 30,
      cacheWrite1hTokens: 20,
    });
    expect(decodeUsage({ input_tokens: 1, cache_creation: split })).toMatchObject({ inputTokens: 31, cacheWriteTokens: 30, cacheWrite1hTokens: 20 });
    expect(decodeUsage({ input_tokens: 1, cache_creation_input_tokens: 5, cache_creation: null })).not.toHaveProperty('cacheWrite1hTokens');
  });

  it('encode: the 1-hour writes go back as ephemeral_1h_input_tokens', () => {
    expect(encodeUsage({ inputTokens: 31, outputTokens: 2, totalTokens: 33, cacheWriteTokens: 30, cacheWrite1hTokens: 20 }).cache_creation).toEqual({
      ephemeral_5m_input_tokens: 10,
      ephemeral_1h_input_tokens: 20,
    });
  });

  it('encode: input excludes cache reads and writes, never negative; thinking tokens in output_tokens_details', () => {
    expect(encodeUsage({ inputTokens: 60, outputTokens: 5, totalTokens: 65, cachedInputTokens: 20, cacheWriteTokens: 30, reasoningTokens: 3 })).toEqual({
      input_tokens: 10,
      cache_creation_input_tokens: 30,
      cache_read_input_tokens: 20,
      cache_creation: { ephemeral_5m_input_tokens: 30, ephemeral_1h_input_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { thinking_tokens: 3 },
      server_tool_use: null,
      service_tier: null,
      inference_geo: null,
      speed: null,
    });
    expect(encodeUsage({ inputTokens: 5, outputTokens: 0, totalTokens: 5, cachedInputTokens: 9 }).input_tokens).toBe(0);
    expect(encodeUsage(undefined)).toMatchObject({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, output_tokens_details: null });
    expect(encodeDeltaUsage({ inputTokens: 12, outputTokens: 4, totalTokens: 16, cachedInputTokens: 2, reasoningTokens: 0 })).toEqual({
      input_tokens: 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 2,
      output_tokens: 4,
      output_tokens_details: { thinking_tokens: 0 },
      server_tool_use: null,
    });
  });
});

describe('anthropic cache_control', () => {
  it('keeps the 5m and 1h TTLs, drops unknown ones, none without cache_control', () => {
    expect(decodeCache({ type: 'ephemeral', ttl: '1h' })).toEqual({ cache: { ttl: '1h' } });
    expect(decodeCache({ type: 'ephemeral', ttl: '5m' })).toEqual({ cache: { ttl: '5m' } });
    expect(decodeCache({ type: 'ephemeral', ttl: '2h' })).toEqual({ cache: {} });
    expect(decodeCache(null)).toEqual({});
    expect(encodeCache({ ttl: '1h' })).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(encodeCache({})).toEqual({ type: 'ephemeral' });
    expect(encodeCache(undefined)).toBeUndefined();
  });
});
