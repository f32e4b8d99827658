import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StreamEvent, SseEvent, ChatRequest } from '../../src/canonical/index.ts';
import { createParser } from 'eventsource-parser';
import { fixtureSse, fixtureText, parseSse, testContext } from '../../test/support/fixtures.ts';
import { createStreamDecoder } from './stream-decoder.ts';

/** SSE events of `text` fed to the parser in two chunks split at `cut`. */
function parseSplit(text: string, cut: number): SseEvent[] {
  const out: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => out.push({ event: e.event, data: e.data }) });
  parser.feed(text.slice(0, cut));
  parser.feed(text.slice(cut));
  return out;
}

const dir = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

const sseFixtures = readdirSync(dir).filter((f) => f.endsWith('.sse'));

const req = { model: 'claude', system: [], messages: [], stream: true };

export function decodeAll(events: ReturnType<typeof fixtureSse>): StreamEvent[] {
  const d = createStreamDecoder(req, testContext());
  return [...events.flatMap((e) => d.push(e)), ...d.finish()];
}

/** Asserts the canonical framing rules of src/canonical/stream.ts. */
export function expectWellFramed(events: StreamEvent[]): void {
  expect(events[0]?.type === 'message-start' || events[0]?.type === 'error').toBe(true);
  let open: string | null = null;
  const tools = new Set<number>();
  let errored = false;
  for (const e of events) {
    expect(errored).toBe(false);
    switch (e.type) {
      case 'text-start':
      case 'reasoning-start':
      case 'refusal-start':
        expect(open).toBeNull();
        open = e.type.split('-')[0]!;
        break;
      case 'text-delta':
      case 'reasoning-delta':
      case 'refusal-delta':
        expect(open).toBe(e.type.split('-')[0]);
        break;
      case 'text-end':
      case 'reasoning-end':
      case 'refusal-end':
        expect(open).toBe(e.type.split('-')[0]);
        open = null;
        break;
      case 'tool-call-start':
        expect(open).toBeNull();
        tools.add(e.index);
        break;
      case 'tool-call-delta':
        expect(tools.has(e.index)).toBe(true);
        break;
      case 'tool-call-end':
        expect(tools.delete(e.index)).toBe(true);
        break;
      case 'finish':
        expect(open).toBeNull();
        expect(tools.size).toBe(0);
        break;
      case 'error':
        errored = true;
        break;
      default:
        break;
    }
  }
}

function textOf(events: StreamEvent[]): string {
  return events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
}

describe('anthropic stream decoder: every fixture', () => {
  it.each(sseFixtures)('%s is well framed and split-independent', (name) => {
    const events = decodeAll(fixtureSse('anthropic', name));
    expectWellFramed(events);
    // Any byte split decodes to the same events.
    const text = fixtureText('anthropic', name);
    for (const cut of [1, 7, 33, Math.floor(text.length / 2), text.length - 3]) {
      expect(decodeAll(parseSplit(text, cut))).toEqual(events);
    }
    expect(decodeAll(parseSse(text))).toEqual(events);
  });
});

describe('anthropic stream decoder: details', () => {
  it('stream-text-basic: old-style usage merges message_start input with message_delta output', () => {
    const events = decodeAll(fixtureSse('anthropic', 'stream-text-basic.sse'));
    expect(events[0]).toEqual({ type: 'message-start', id: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK', model: 'claude-3-opus-latest', created: 1_700_000_000 });
    expect(textOf(events)).toBe('Hello there!');
    const usages = events.filter((e) => e.type === 'usage');
    expect(usages.at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 11, outputTokens: 6, totalTokens: 17 } });
    expect(events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', reason: { unified: 'stop', raw: 'end_turn' } });
  });

  it('stream-tool-use: arguments accumulate; no empty deltas', () => {
    const events = decodeAll(fixtureSse('anthropic', 'stream-tool-use.sse'));
    expect(events.find((e) => e.type === 'tool-call-start')).toEqual({ type: 'tool-call-start', index: 0, id: 'toolu_018acGYLtfR52q9yDbWaEdQZ', name: 'get_weather' });
    const deltas = events.filter((e) => e.type === 'tool-call-delta');
    expect(deltas.every((d) => d.argumentsDelta !== '')).toBe(true);
    expect(JSON.parse(deltas.map((d) => d.argumentsDelta).join(''))).toEqual({ location: 'San Francisco, CA', units: 'f' });
    expect(events.find((e) => e.type === 'finish')).toMatchObject({ reason: { unified: 'tool-calls' } });
  });

  it('stream-tool-use-no-args: a tool with no arguments yields "{}"', () => {
    const events = decodeAll(fixtureSse('anthropic', 'stream-tool-use-no-args.sse'));
    const deltas = events.filter((e) => e.type === 'tool-call-delta');
    expect(deltas).toEqual([{ type: 'tool-call-delta', index: 0, argumentsDelta: '{}' }]);
    expect(textOf(events)).toBe("I'll update the issue list for you.");
  });

  it('stream-thinking-signature: reasoning-end carries the signature', () => {
    const events = decodeAll(fixtureSse('anthropic', 'stream-thinking-signature.sse'));
    const end = events.find((e) => e.type === 'reasoning-end');
    expect(end).toMatchObject({ signature: { origin: 'anthropic' } });
    expect((end as { signature: { value: string } }).signature.value.startsWith('EvQBCkYICxgCKkAxhD4N')).toBe(true);
    const thought = events.map((e) => (e.type === 'reasoning-delta' ? e.text : '')).join('');
    expect(thought).toBe('The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185');
    expect(textOf(events)).toBe('925 ÷ 5 = 185');
  });

  it('stream-max-tokens-partial-tool-input: the open tool block is closed at message_delta', () => {
    const events = decodeAll(fixtureSse('anthropic', 'stream-max-tokens-partial-tool-input.sse'));
    const types = events.map((e) => e.type);
    expect(types.indexOf('tool-call-end')).toBeLessThan(types.indexOf('finish'));
    expect(events.find((e) => e.type === 'finish')).toMatchObject({ reason: { unified: 'length', raw: 'max_tokens' } });
    expect(events.filter((e) => e.type === 'usage').at(-1)).toMatchObject({ usage: { inputTokens: 450, outputTokens: 124, cachedInputTokens: 0, cacheWriteTokens: 0 } });
  });

  it('stream-prompt-cache-write-server-tool: server tool blocks skipped, cache usage converted', () => {
    const events = decodeAll(fixtureSse('anthropic', 'stream-prompt-cache-write-server-tool.sse'));
    expect(events.some((e) => e.type === 'tool-call-start')).toBe(false);
    expect(textOf(events)).toBe('The sum of the squares of the numbers 1 through 12 is **650**.');
    expect(events.filter((e) => e.type === 'usage').at(-1)).toEqual({
      type: 'usage',
      usage: { inputTokens: 6 + 3337 + 6289, outputTokens: 198, totalTokens: 6 + 3337 + 6289 + 198, cachedInputTokens: 6289, cacheWriteTokens: 3337, cacheWrite1hTokens: 0, reasoningTokens: 0 },
    });
  });

  it('stream-stop-sequence, stream-pause-turn, stream-refusal-stop-details', () => {
    const finish = (name: string) => decodeAll(fixtureSse('anthropic', name)).find((e) => e.type === 'finish');
    expect(finish('stream-stop-sequence.sse')).toEqual({ type: 'finish', reason: { unified: 'stop-sequence', raw: 'stop_sequence', stopSequence: 'STOP' } });
    expect(finish('stream-pause-turn.sse')).toEqual({ type: 'finish', reason: { unified: 'pause', raw: 'pause_turn' } });
    expect(finish('stream-refusal-stop-details.sse')).toEqual({ type: 'finish', reason: { unified: 'refusal', raw: 'refusal' } });
  });

  it('mid-stream errors: overloaded_error → overloaded 529, api_error → upstream 500', () => {
    const a = decodeAll(fixtureSse('anthropic', 'stream-error-overloaded-midstream.sse'));
    expect(textOf(a)).toBe('Hello');
    const errA = a.at(-1);
    expect(errA?.type).toBe('error');
    if (errA?.type === 'error') {
      expect(errA.error.kind).toBe('overloaded');
      expect(errA.error.status).toBe(529);
      expect(errA.error.message).toBe('Overloaded');
    }
    const b = decodeAll(fixtureSse('anthropic', 'stream-error-event-api-error.sse'));
    expect(b).toHaveLength(1);
    expect(b[0]).toMatchObject({ type: 'error', error: { kind: 'upstream', status: 500, message: 'Internal server error' } });
  });

  it('garbage and truncated streams become error events, never throws', () => {
    const d = createStreamDecoder(req, testContext());
    expect(d.push({ event: 'message_start', data: '{"type":' })).toMatchObject([{ type: 'error', error: { kind: 'upstream' } }]);
    expect(d.push({ data: '{}' })).toEqual([]);
    const t = createStreamDecoder(req, testContext());
    const events = [...fixtureSse('anthropic', 'stream-text-basic.sse').slice(0, 4).flatMap((e) => t.push(e)), ...t.finish()];
    expectWellFramed(events);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(events.at(-2)).toEqual({ type: 'text-end' });
  });

  it('a stream that stops after message_delta but before message_stop is incomplete', () => {
    const all = fixtureSse('anthropic', 'stream-text-basic.sse');
    const delta = all.findIndex((e) => JSON.parse(e.data).type === 'message_delta');
    const d = createStreamDecoder(req, testContext());
    const events = [...all.slice(0, delta + 1).flatMap((e) => d.push(e)), ...d.finish()];
    expect(events.some((e) => e.type === 'finish')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', message: expect.stringContaining('no message_stop') } });
  });

  it.each(['{"hello":"world"}', '[]', '5', '{"type":"content_block_delta","delta":5}', '{"type":"message_start","message":"x"}'])(
    'a frame of the wrong shape (%s) is an error event',
    (bad) => {
      const d = createStreamDecoder(req, testContext());
      expect(d.push({ data: bad })).toMatchObject([{ type: 'error', error: { kind: 'upstream' } }]);
      expect(d.finish()).toEqual([]);
    },
  );
});

describe('anthropic stream decoder: event details', () => {
  const req: ChatRequest = { model: 'claude-x', system: [], messages: [], stream: true };

  const sse = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });

  const block = (content_block: Record<string, unknown>, index = 0) => sse({ type: 'content_block_start', index, content_block });

  const delta = (d: Record<string, unknown>, index = 0) => sse({ type: 'content_block_delta', index, delta: d });

  const stopAll = [sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }), sse({ type: 'message_stop' })];

  function decode(events: SseEvent[]): StreamEvent[] {
    const d = createStreamDecoder(req, testContext());
    return [...events.flatMap((e) => d.push(e)), ...d.finish()];
  }

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
