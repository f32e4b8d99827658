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

const created = ev({ event_type: 'interaction.created', interaction: { id: 'v1_up', status: 'in_progress', model: 'gemini-3-flash-preview', created: '2024-01-01T00:00:00Z' } });

const completed = ev({ event_type: 'interaction.completed', interaction: { id: 'v1_up', status: 'completed' } });

const delta = (index: number, d: Record<string, unknown>) => ev({ event_type: 'step.delta', index, delta: d });

const stepStart = (index: number, step: Record<string, unknown>) => ev({ event_type: 'step.start', index, step });

const stepStop = (index: number) => ev({ event_type: 'step.stop', index });

/** The canonical events after message-start and before the finish. */
function body(frames: SseEvent[]): StreamEvent[] {
  const dec = new InteractionsStreamDecoder(req, testContext());
  const events = [...[created, ...frames, completed].flatMap((f) => dec.push(f)), ...dec.finish()];
  expect(events[0]!.type).toBe('message-start');
  expect(events.at(-1)!.type).toBe('finish');
  return events.slice(1, -1);
}

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

describe('Interactions stream decoder: less common frames', () => {
  it('deltas for a step never started: the step is inferred from the delta kind', () => {
    expect(body([delta(0, { type: 'text', text: 'hi' }), stepStop(0)])).toEqual([{ type: 'text-start' }, { type: 'text-delta', text: 'hi' }, { type: 'text-end' }]);
    expect(body([delta(0, { type: 'thought_summary', content: { type: 'text', text: 'hmm' } }), stepStop(0)])).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'reasoning-end' },
    ]);
    expect(body([delta(0, { type: 'thought_signature', signature: 'EqS' }), stepStop(0)])).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning-end', signature: { origin: 'gemini', value: 'EqS' } },
    ]);
    expect(body([delta(0, { type: 'arguments_delta', arguments: '{"a":1}' }), delta(1, { type: 'image', data: 'AA==' }), stepStop(0)])).toEqual([]);
  });

  it('a thought signed in its step.start, with no deltas, still ends with its signature', () => {
    expect(body([stepStart(0, { type: 'thought', signature: 'EqStart' }), stepStop(0)])).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning-end', signature: { origin: 'gemini', value: 'EqStart' } },
    ]);
  });

  it('a step of a kind it does not map (a hosted tool call) keeps its deltas out of the text', () => {
    expect(body([stepStart(0, { type: 'code_execution_call', id: 'c1' }), delta(0, { type: 'text', text: 'leak' }), stepStop(0), stepStart(1, { type: 'model_output' }), delta(1, { type: 'text', text: 'ok' }), stepStop(1)])).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'ok' },
      { type: 'text-end' },
    ]);
  });

  it('a function_call step.start without its id gets a generated one; without a name, an empty name', () => {
    expect(body([stepStart(0, { type: 'function_call', name: 'f', arguments: {} }), stepStop(0), stepStart(1, { type: 'function_call', arguments: {} }), stepStop(1)])).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_test0001', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_test0002', name: '' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('a stream without interaction.created starts with a generated v1_ id and the caller’s model; done frames and empty data are nothing', () => {
    const dec = new InteractionsStreamDecoder(req, testContext());
    expect(dec.push({ event: 'message', data: '' })).toEqual([]);
    expect(dec.push({ event: 'message', data: '[DONE]' })).toEqual([]);
    expect(dec.push({ event: 'done', data: '{}' })).toEqual([]);
    expect(dec.push(delta(0, { type: 'text', text: 'x' }))).toEqual([
      { type: 'message-start', id: 'v1_test0001', model: 'caller', created: 1_700_000_000 },
      { type: 'text-start' },
      { type: 'text-delta', text: 'x' },
    ]);
  });
});

describe('Interactions stream decoder: order, usage and endings', () => {
  const run = (frames: SseEvent[]) => {
    const dec = new InteractionsStreamDecoder(req, testContext());
    return [...frames.flatMap((f) => dec.push(f)), ...dec.finish()];
  };

  it('a step started again at the same index ends the first; a new step ends an open text block', () => {
    expect(body([stepStart(0, { type: 'model_output', content: [{ type: 'text', text: 'a' }] }), stepStart(0, { type: 'model_output', content: [{ type: 'text', text: 'b' }] }), stepStop(0)])).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-end' },
    ]);
    expect(body([delta(0, { type: 'text', text: 'a' }), delta(1, { type: 'thought_summary', content: { type: 'text', text: 't' } }), stepStop(1), stepStop(0)])).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-end' },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 't' },
      { type: 'reasoning-end' },
    ]);
  });

  it('a call started again at the same index ends the first call', () => {
    expect(body([stepStart(0, { type: 'function_call', id: 'a', name: 'f', arguments: {} }), stepStart(0, { type: 'function_call', id: 'b', name: 'g', arguments: {} }), stepStop(0)])).toEqual([
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('a thought still open when text starts elsewhere is ended first', () => {
    expect(body([delta(0, { type: 'thought_summary', content: { type: 'text', text: 't' } }), delta(1, { type: 'text', text: 'a' }), stepStop(1), stepStop(0)])).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 't' },
      { type: 'reasoning-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-end' },
    ]);
  });

  it('arguments whole in step.start are one delta and later fragments are ignored; empty deltas are nothing', () => {
    expect(body([stepStart(0, { type: 'function_call', id: 'c', name: 'f', arguments: { a: 1 } }), delta(0, { type: 'arguments_delta', arguments: '{"b":2}' }), stepStop(0), delta(1, { type: 'text', text: '' }), delta(2, { type: 'thought_summary', content: { type: 'text', text: '' } })])).toEqual([
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 0 },
    ]);
  });

  it('the usage of the last step.stop counts when interaction.completed gives none; the created time is read', () => {
    const events = run([
      created,
      ev({ event_type: 'step.stop', index: 0, usage: { total_input_tokens: 4, total_output_tokens: 2 } }),
      ev({ event_type: 'interaction.completed', interaction: { id: 'v1_up', status: 'completed', usage: {} } }),
    ]);
    expect(events).toEqual([
      { type: 'message-start', id: 'v1_up', model: 'gemini-3-flash-preview', created: 1_704_067_200 },
      { type: 'usage', usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 } },
      { type: 'finish', reason: { unified: 'stop', raw: 'completed' } },
    ]);
  });

  it('the event name is read from the event line when the data names none; nothing is decoded after the end', () => {
    const dec = new InteractionsStreamDecoder(req, testContext());
    expect(dec.push({ event: 'interaction.created', data: JSON.stringify({ interaction: { id: 'v1_e', status: 'in_progress' } }) })).toEqual([
      { type: 'message-start', id: 'v1_e', model: 'caller', created: 1_700_000_000 },
    ]);
    expect(dec.push(completed).map((e) => e.type)).toEqual(['finish']);
    expect(dec.push(delta(0, { type: 'text', text: 'late' }))).toEqual([]);
    expect(dec.finish()).toEqual([]);
  });

  it('an error event without a readable error still fails, in general words; nothing after it', () => {
    const dec = new InteractionsStreamDecoder(req, testContext());
    const out = dec.push(ev({ event_type: 'error', error: 'boom' }));
    expect(out).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'The upstream interaction failed.' }), upstreamFrame: true }]);
    expect(dec.push(created)).toEqual([]);
    expect(dec.finish()).toEqual([]);
  });

  it('a failed completion is the error its errors name', () => {
    const events = run([created, ev({ event_type: 'interaction.completed', interaction: { id: 'v1_up', status: 'failed', errors: [{ code: 'resource_exhausted', message: 'Quota exceeded.' }] } })]);
    expect(events.at(-1)).toEqual({ type: 'error', error: expect.objectContaining({ kind: 'rate-limit', message: 'Quota exceeded.' }), upstreamFrame: true });
    expect(events.some((e) => e.type === 'finish')).toBe(false);
  });

  it('steps already streamed are not read again from interaction.completed', () => {
    const events = run([
      created,
      delta(0, { type: 'text', text: 'a' }),
      stepStop(0),
      ev({ event_type: 'interaction.completed', interaction: { id: 'v1_up', status: 'completed', steps: [{ type: 'model_output', content: [{ type: 'text', text: 'a' }] }] } }),
    ]);
    expect(events.filter((e) => e.type === 'text-delta')).toEqual([{ type: 'text-delta', text: 'a' }]);
  });

  it('a frame that is not an Interactions event is an error saying why, with the frame (cut) as raw', () => {
    const why = (frame: SseEvent) => {
      const [e] = run([frame]);
      expect(e!.type).toBe('error');
      const err = (e as { error: { message: string; raw?: string } }).error;
      return [err.message, err.raw?.length];
    };
    expect(why({ data: '{"a":1}' })).toEqual(['The upstream sent a stream frame that is not an Interactions event (no event_type).', 7]);
    expect(why({ data: 'x'.repeat(3000) })).toEqual(['The upstream sent a stream frame that is not an Interactions event (not JSON).', 2000]);
    expect(why({ data: '[1]' })).toEqual(['The upstream sent a stream frame that is not an Interactions event (not an object).', 3]);
    expect(why(ev({ event_type: 'step.delta', index: 'x' }))[0]).toBe('The upstream sent a stream frame that is not an Interactions event (step.delta).');
  });
});
