/** Streams both ways, event by event: ids, models, usage, thinking and the end of a stream. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent, StreamFrame } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { createStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'claude-x', system: [], messages: [], stream: true };
const sse = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });
const block = (content_block: Record<string, unknown>, index = 0) => sse({ type: 'content_block_start', index, content_block });
const delta = (d: Record<string, unknown>, index = 0) => sse({ type: 'content_block_delta', index, delta: d });
const stopAll = [sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }), sse({ type: 'message_stop' })];

function decode(events: SseEvent[]): StreamEvent[] {
  const d = createStreamDecoder(req, testContext());
  return [...events.flatMap((e) => d.push(e)), ...d.finish()];
}

describe('anthropic stream decoder: event details', () => {
  it('message_start: id and model of the first one only; usage of each merged, nulls not overwriting', () => {
    const events = decode([
      sse({ type: 'message_start', message: { id: 'msg_a', model: 'claude-a', usage: { input_tokens: 10, cache_read_input_tokens: 4, output_tokens: 1 } } }),
      sse({ type: 'message_start', message: { id: 'msg_b', model: 'claude-b', usage: { input_tokens: null, output_tokens: 2 } } }),
      sse({ type: 'ping' }),
      ...stopAll,
    ]);
    expect(events.filter((e) => e.type === 'message-start')).toEqual([{ type: 'message-start', id: 'msg_a', model: 'claude-a', created: 1_700_000_000 }]);
    expect(events.filter((e) => e.type === 'usage').map((e) => e.type === 'usage' && e.usage)).toEqual([
      { inputTokens: 14, outputTokens: 1, totalTokens: 15, cachedInputTokens: 4 },
      { inputTokens: 14, outputTokens: 2, totalTokens: 16, cachedInputTokens: 4 },
    ]);
  });

  it('a stream that starts with a block gets a message-start with a fresh id and no model', () => {
    const events = decode([block({ type: 'text', text: 'Hi' }), ...stopAll]);
    expect(events[0]).toEqual({ type: 'message-start', id: 'msg_test0001', model: '', created: 1_700_000_000 });
    expect(events.slice(1, 4)).toEqual([{ type: 'text-start' }, { type: 'text-delta', text: 'Hi' }, { type: 'text-end' }]);
    const m = decode([sse({ type: 'message_start', message: {} }), ...stopAll]);
    expect(m[0]).toEqual({ type: 'message-start', id: 'msg_test0001', model: '', created: 1_700_000_000 });
  });

  it('thinking: text at start and in deltas, signature from start or from signature_delta; empty deltas dropped', () => {
    const events = decode([
      sse({ type: 'message_start', message: { id: 'msg_1' } }),
      block({ type: 'thinking', thinking: 'a', signature: 'early' }),
      delta({ type: 'thinking_delta', thinking: '' }),
      delta({ type: 'thinking_delta', thinking: 'b' }),
      sse({ type: 'content_block_stop', index: 0 }),
      block({ type: 'thinking', thinking: '' }, 1),
      delta({ type: 'signature_delta', signature: 'late' }, 1),
      delta({ type: 'text_delta', text: 'stray' }, 1),
      sse({ type: 'content_block_stop', index: 1 }),
      block({ type: 'thinking', thinking: '', signature: '' }, 2),
      sse({ type: 'content_block_stop', index: 2 }),
      block({ type: 'redacted_thinking', data: 'opaque' }, 3),
      sse({ type: 'content_block_stop', index: 3 }),
      block({ type: 'text', text: '' }, 4),
      delta({ type: 'text_delta', text: '' }, 4),
      delta({ type: 'citations_delta', citation: {} }, 4),
      sse({ type: 'content_block_stop', index: 4 }),
      ...stopAll,
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'a' },
      { type: 'reasoning-delta', text: 'b' },
      { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'early' } },
      { type: 'reasoning-start' },
      { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'late' } },
      { type: 'reasoning-start' },
      { type: 'reasoning-end' },
      { type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'opaque' } },
      { type: 'reasoning-end' },
      { type: 'text-start' },
      { type: 'citation', citation: { raw: { dialect: 'anthropic', value: {} } } },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop', raw: 'end_turn' } },
    ]);
  });

  it('stop_sequence from message_delta; events after the end and a second finish() add nothing', () => {
    const d = createStreamDecoder(req, testContext());
    const out = [
      sse({ type: 'message_start', message: { id: 'msg_1' } }),
      sse({ type: 'message_delta', delta: { stop_reason: 'stop_sequence', stop_sequence: 'HALT' } }),
      sse({ type: 'message_stop' }),
    ].flatMap((e) => d.push(e));
    expect(out.find((e) => e.type === 'finish')).toEqual({ type: 'finish', reason: { unified: 'stop-sequence', raw: 'stop_sequence', stopSequence: 'HALT' } });
    expect(d.finish()).toEqual([]);
    expect(d.finish()).toEqual([]);
    expect(d.push(sse({ type: 'message_start', message: { id: 'msg_2' } }))).toEqual([]);
  });

  it('a message_delta without a stop reason finishes as "other"; after an error event nothing more comes', () => {
    const d = createStreamDecoder(req, testContext());
    expect(d.push(sse({ type: 'message_delta', delta: {} }))).toEqual([
      { type: 'message-start', id: 'msg_test0001', model: '', created: 1_700_000_000 },
      { type: 'finish', reason: { unified: 'other' } },
    ]);
    const errs = d.push(sse({ type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }));
    expect(errs).toMatchObject([{ type: 'error', error: { kind: 'rate-limit', status: 429, message: 'slow' } }]);
    expect(d.push(sse({ type: 'message_stop' }))).toEqual([]);
    expect(d.finish()).toEqual([]);
  });

  it('an unparsable frame names itself in the error, cut to 200 characters', () => {
    const d = createStreamDecoder(req, testContext());
    const bad = `{${'x'.repeat(300)}`;
    const [e] = d.push({ data: bad });
    expect(e).toMatchObject({ type: 'error', error: { kind: 'upstream', message: `Anthropic stream sent an unparsable event: ${bad.slice(0, 200)}` } });
    const w = createStreamDecoder(req, testContext());
    expect(w.push({ data: '[1]' })).toMatchObject([{ type: 'error', error: { message: 'Anthropic stream sent an unexpected event: [1]' } }]);
  });
});

describe('anthropic stream encoder: event details', () => {
  const payloads = (frames: StreamFrame[]) => frames.map((f) => JSON.parse(f.data) as Record<string, any>);
  function encode(events: StreamEvent[], r: ChatRequest = req) {
    const enc = createStreamEncoder(r, testContext());
    return payloads([...events.flatMap((e) => enc.push(e)), ...enc.finish()]);
  }

  it('message_start: a msg_ id kept, others replaced; the upstream’s model, else the request’s; usage known by then', () => {
    const a = encode([
      { type: 'message-start', id: 'msg_up', model: 'claude-up', created: 1 },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 0, totalTokens: 30, cachedInputTokens: 10 } },
      { type: 'text-delta', text: 'x' },
    ]);
    expect(a[0]!.message).toMatchObject({ id: 'msg_up', model: 'claude-up', usage: { input_tokens: 20, cache_read_input_tokens: 10 } });
    const b = encode([{ type: 'message-start', id: 'chatcmpl-9', model: '', created: 1 }, { type: 'text-delta', text: 'x' }]);
    expect(b[0]!.message.id).toBe('msg_test0001');
    expect(b[0]!.message.model).toBe('claude-x');
  });

  it('text and thinking switch blocks with rising indexes; empty deltas open nothing', () => {
    const data = encode([
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: '' },
      { type: 'reasoning-delta', text: 'r' },
      { type: 'text-delta', text: '' },
      { type: 'text-delta', text: 't' },
      { type: 'reasoning-delta', text: 'r2' },
      { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'sig' } },
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
    expect(data.filter((d) => d.type.startsWith('content_block'))).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'r' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 't' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'thinking_delta', thinking: 'r2' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 2 },
    ]);
  });

  it('a blocked prompt ends as refusal; the stop sequence and the usage go in message_delta', () => {
    expect(encode([{ type: 'prompt-blocked', reason: 'SAFETY' }]).at(-2)!.delta.stop_reason).toBe('refusal');
    const d = encode([
      { type: 'text-delta', text: 'a' },
      { type: 'finish', reason: { unified: 'stop-sequence', raw: 'stop', stopSequence: 'END' } },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } },
      { type: 'logprobs', content: [] } as unknown as StreamEvent,
    ]).at(-2)!;
    expect(d.delta).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(d.usage).toMatchObject({ input_tokens: 5, output_tokens: 6 });
  });

  it('a tool call whose deltas come for an unknown index loses nothing of the known ones', () => {
    const data = encode([
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 7, argumentsDelta: '{"zz":1}' },
      { type: 'tool-call-end', index: 7 },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
    ]);
    expect(data.filter((d) => d.type === 'content_block_delta').map((d) => d.delta.partial_json)).toEqual(['{}']);
    expect(data.filter((d) => d.type === 'content_block_stop')).toEqual([{ type: 'content_block_stop', index: 0 }]);
  });
});
