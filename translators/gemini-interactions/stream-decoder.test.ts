import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { fixtureSse, fixtureText, testContext } from '../../test/support/fixtures.ts';
import { InteractionsStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'caller', system: [], messages: [], stream: true };

function run(events: SseEvent[]): StreamEvent[] {
  const dec = new InteractionsStreamDecoder(req, testContext());
  return [...events.flatMap((e) => dec.push(e)), ...dec.finish()];
}
const fixture = (name: string) => run(fixtureSse('gemini-interactions', name));
const joined = (events: StreamEvent[], type: 'text-delta' | 'reasoning-delta') => events.flatMap((e) => (e.type === type ? [e.text] : [])).join('');
const args = (events: StreamEvent[], index: number) => events.flatMap((e) => (e.type === 'tool-call-delta' && e.index === index ? [e.argumentsDelta] : [])).join('');
const ev = (data: Record<string, unknown>): SseEvent => ({ event: String(data['event_type']), data: JSON.stringify(data) });

describe('Interactions stream decoder', () => {
  it('text: message-start from interaction.created, one text block, usage and finish from interaction.completed', () => {
    const events = fixture('stream-text.sse');
    expect(events[0]).toEqual({ type: 'message-start', id: 'v1_ChdTdHJlYW1UZXh0Q291bnRpbmdFeGFtcGxl', model: 'gemini-3-flash-preview', created: 1_700_000_000 });
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-delta', 'text-delta', 'text-end', 'usage', 'finish']);
    expect(joined(events, 'text-delta')).toBe('1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25');
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 73, totalTokens: 83, reasoningTokens: 0 } },
      { type: 'finish', reason: { unified: 'stop', raw: 'completed' } },
    ]);
  });

  it('thinking: content already in step.start is read, the signature delta ends the reasoning', () => {
    const events = fixture('stream-thinking.sse');
    expect(joined(events, 'reasoning-delta')).toBe('**Framing the comparison**\n\nA heat pump moves heat; a furnace makes it by burning fuel.\n\n**Deciding on the answer**\n\nRunning cost matters most to the asker.');
    expect(events.find((e) => e.type === 'reasoning-end')).toEqual({ type: 'reasoning-end', signature: { origin: 'gemini', value: expect.stringMatching(/^EqYD/) } });
    expect(joined(events, 'text-delta')).toBe('A heat pump moves heat from outside air into the house; a furnace burns fuel. The heat pump is usually cheaper to run — über efficient in mild climates. 🌡️');
    expect(events.find((e) => e.type === 'usage')).toEqual({ type: 'usage', usage: { inputTokens: 11, outputTokens: 335, totalTokens: 346, reasoningTokens: 245 } });
  });

  it('a function call: the signature of the thought before it on the call, its argument fragments, finish tool-calls', () => {
    const events = fixture('stream-function-call.sse');
    expect(events.map((e) => e.type)).toEqual(['message-start', 'tool-call-start', 'tool-call-delta', 'tool-call-delta', 'tool-call-delta', 'tool-call-end', 'usage', 'finish']);
    expect(events.find((e) => e.type === 'tool-call-start')).toEqual({ type: 'tool-call-start', index: 0, id: 'fc_9d2c41e7', name: 'get_weather', signature: { origin: 'gemini', value: expect.stringMatching(/^CtQB/) } });
    expect(JSON.parse(args(events, 0))).toEqual({ location: 'Paris, France', unit: 'celsius' });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: { unified: 'tool-calls', raw: 'requires_action' } });
  });

  it('two calls numbered in order; a call with no argument deltas gets {}', () => {
    const events = fixture('stream-parallel-function-calls.sse');
    expect(events.filter((e) => e.type === 'tool-call-start').map((e) => (e as { id: string }).id)).toEqual(['fc_1a', 'fc_2b']);
    expect(args(events, 0)).toBe('{"location":"Paris"}');
    expect(args(events, 1)).toBe('{}');
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { cachedInputTokens: 48 } });
  });

  it('incomplete is length; an error event is one canonical error and nothing after it', () => {
    expect(fixture('stream-incomplete-max-output-tokens.sse').at(-1)).toEqual({ type: 'finish', reason: { unified: 'length', raw: 'incomplete' } });
    const failed = fixture('stream-error-gateway-timeout.sse');
    expect(failed.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(failed.at(-1)).toMatchObject({ type: 'error', error: { kind: 'timeout', code: 'gateway_timeout', message: 'The request timed out. Please try again.' } });
    expect(failed.some((e) => e.type === 'finish')).toBe(false);
  });

  it('a stream cut before interaction.completed closes its blocks and ends in an error', () => {
    const all = fixtureSse('gemini-interactions', 'stream-function-call.sse');
    const cut = run(all.slice(0, 7));
    expect(cut.map((e) => e.type).slice(-3)).toEqual(['tool-call-delta', 'tool-call-end', 'error']);
    expect(cut.at(-1)).toMatchObject({ error: { kind: 'upstream', message: expect.stringContaining('interaction.completed') } });
  });

  it('the same events whatever the byte boundaries (every cut of every fixture)', () => {
    for (const name of ['stream-thinking.sse', 'stream-function-call.sse', 'stream-error-gateway-timeout.sse']) {
      const bytes = new TextEncoder().encode(fixtureText('gemini-interactions', name));
      const whole = fixture(name);
      for (let cut = 1; cut < bytes.length; cut++) {
        const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: e.data }) });
        const events: SseEvent[] = [];
        const decoder = new TextDecoder();
        parser.feed(decoder.decode(bytes.subarray(0, cut), { stream: true }));
        parser.feed(decoder.decode(bytes.subarray(cut)));
        expect(run(events), `${name} cut at ${cut}`).toEqual(whole);
      }
    }
  });

  it('skips status updates, unknown events and unknown deltas; a wrong frame is one error', () => {
    const events = run([
      ev({ event_type: 'interaction.created', interaction: { id: 'v1_a', status: 'in_progress' } }),
      ev({ event_type: 'interaction.status_update', interaction_id: 'v1_a', status: 'in_progress' }),
      ev({ event_type: 'something.new', whatever: 1 }),
      ev({ event_type: 'step.start', index: 0, step: { type: 'model_output' } }),
      ev({ event_type: 'step.delta', index: 0, delta: { type: 'text_annotation_delta', annotations: [] } }),
      ev({ event_type: 'step.delta', index: 0, delta: { type: 'text', text: 'ok' } }),
      ev({ event_type: 'step.stop', index: 0 }),
      ev({ event_type: 'interaction.completed', interaction: { id: 'v1_a', status: 'completed' } }),
      { event: 'done', data: '[DONE]' },
    ]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'finish']);
    for (const bad of ['{"hello":"world"}', 'not json', '[1]', JSON.stringify({ event_type: 'step.start', step: 'x' })]) {
      const out = run([{ data: bad }]);
      expect(out).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream' }) }]);
    }
  });

  it('a summarised, signed thought before a call: the summary stays reasoning, the signature goes on the call; before text it ends the reasoning', () => {
    const head = [ev({ event_type: 'interaction.created', interaction: { id: 'v1_t', status: 'in_progress' } })];
    const thought = [
      ev({ event_type: 'step.start', index: 0, step: { type: 'thought', signature: '' } }),
      ev({ event_type: 'step.delta', index: 0, delta: { type: 'thought_summary', content: { type: 'text', text: 'Plan.' } } }),
      ev({ event_type: 'step.delta', index: 0, delta: { type: 'thought_signature', signature: 'EqSig' } }),
      ev({ event_type: 'step.stop', index: 0 }),
    ];
    const end = ev({ event_type: 'interaction.completed', interaction: { id: 'v1_t', status: 'completed' } });
    const call = run([...head, ...thought, ev({ event_type: 'step.start', index: 1, step: { type: 'function_call', id: 'c', name: 'f', arguments: {} } }), ev({ event_type: 'step.stop', index: 1 }), end]);
    expect(call.slice(1, 5)).toEqual([{ type: 'reasoning-start' }, { type: 'reasoning-delta', text: 'Plan.' }, { type: 'reasoning-end' }, { type: 'tool-call-start', index: 0, id: 'c', name: 'f', signature: { origin: 'gemini', value: 'EqSig' } }]);
    const text = run([...head, ...thought, ev({ event_type: 'step.start', index: 1, step: { type: 'model_output', content: [{ type: 'text', text: 'Hi' }] } }), ev({ event_type: 'step.stop', index: 1 }), end]);
    expect(text.slice(3, 5)).toEqual([{ type: 'reasoning-end', signature: { origin: 'gemini', value: 'EqSig' } }, { type: 'text-start' }]);
    const cut = run([...head, ...thought]);
    expect(cut.slice(-2)).toEqual([{ type: 'reasoning-end', signature: { origin: 'gemini', value: 'EqSig' } }, { type: 'error', error: expect.anything() }]);
  });

  it('a server that gives the steps only on interaction.completed; a failed completion is an error', () => {
    const events = run([ev({ event_type: 'interaction.completed', interaction: { id: 'v1_b', status: 'requires_action', steps: [
      { type: 'user_input', content: [{ type: 'text', text: 'hi' }] },
      { type: 'function_call', id: 'c9', name: 'f', arguments: { a: 1 } },
    ] } })]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish']);
    expect(args(events, 0)).toBe('{"a":1}');
    expect(run([ev({ event_type: 'interaction.completed', interaction: { id: 'v1_c', status: 'failed' } })]).at(-1)).toMatchObject({ type: 'error' });
  });
});
