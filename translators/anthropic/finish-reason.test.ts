/** Stop reasons and token counts as a caller reads them, both directions. */
import { describe, expect, it } from 'vitest';
import type { FinishReason } from '../../src/canonical/index.ts';
import { decodeCache, encodeCache } from './cache.ts';
import { decodeStopReason, encodeStopReason } from './finish-reason.ts';

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
