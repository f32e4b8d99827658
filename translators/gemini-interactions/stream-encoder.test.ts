import { describe, expect, it } from 'vitest';
import { decodeReasoning, ProxyError, type ChatRequest, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { InteractionsStreamDecoder } from './stream-decoder.ts';
import { InteractionsStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'gemini-3-flash-preview', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true };
const summaries: ChatRequest = { ...req, reasoning: { includeThoughts: true } };

function encode(events: StreamEvent[], r = req): StreamFrame[] {
  const enc = new InteractionsStreamEncoder(r, testContext());
  return [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
}
const data = (f: StreamFrame) => (f.data === '[DONE]' ? f.data : JSON.parse(f.data));
const types = (frames: StreamFrame[]) => frames.map((f) => f.event);
const start: StreamEvent = { type: 'message-start', id: 'msg_1', model: 'claude-sonnet-4-5', created: 1 };
const usage: StreamEvent = { type: 'usage', usage: { inputTokens: 10, outputTokens: 30, totalTokens: 40, reasoningTokens: 12 } };

describe('Interactions stream encoder', () => {
  it('text: created, one model_output step, completed with usage and times, then done; event_type in every frame', () => {
    const frames = encode([start, { type: 'text-start' }, { type: 'text-delta', text: 'Hel' }, { type: 'text-delta', text: 'lo' }, { type: 'text-end' }, usage, { type: 'finish', reason: { unified: 'stop' } }]);
    expect(types(frames)).toEqual(['interaction.created', 'step.start', 'step.delta', 'step.delta', 'step.stop', 'interaction.completed', 'done']);
    for (const f of frames.slice(0, -1)) expect(data(f).event_type).toBe(f.event);
    expect(data(frames[0]!)).toEqual({ interaction: { id: 'v1_test0001', status: 'in_progress', object: 'interaction', model: 'claude-sonnet-4-5' }, event_type: 'interaction.created' });
    expect(data(frames[1]!)).toEqual({ index: 0, step: { type: 'model_output' }, event_type: 'step.start' });
    expect(data(frames[2]!)).toMatchObject({ index: 0, delta: { type: 'text', text: 'Hel' } });
    expect(data(frames[5]!)).toEqual({
      interaction: {
        id: 'v1_test0001',
        status: 'completed',
        usage: { total_input_tokens: 10, total_output_tokens: 18, total_thought_tokens: 12, total_cached_tokens: 0, total_tokens: 40 },
        created: '2023-11-14T22:13:20Z',
        updated: '2023-11-14T22:13:20Z',
        object: 'interaction',
        model: 'claude-sonnet-4-5',
      },
      event_type: 'interaction.completed',
    });
    expect(frames.at(-1)).toEqual({ event: 'done', data: '[DONE]' });
  });

  it('frames leave as events arrive: a delta is written before the step ends', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    enc.push(start);
    expect(types(enc.push({ type: 'text-delta', text: 'a' }))).toEqual(['step.start', 'step.delta']);
    expect(types(enc.push({ type: 'tool-call-start', index: 0, id: 'c1', name: 'f' }))).toEqual(['step.stop', 'step.start']);
    expect(types(enc.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"a"' }))).toEqual(['step.delta']);
  });

  it('reasoning: summaries only when asked, the signature last (raw for Gemini, the carrier for others)', () => {
    const events: StreamEvent[] = [
      start,
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'Pondering.' },
      { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'ErUBsig' } },
      { type: 'reasoning-start' },
      { type: 'reasoning-end', signature: { origin: 'gemini', value: 'EqYDraw' } },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'Unsigned.' },
      { type: 'reasoning-end' },
      { type: 'finish', reason: { unified: 'stop' } },
    ];
    const hidden = encode(events).map(data);
    const deltas = hidden.filter((d) => d.event_type === 'step.delta').map((d) => d.delta);
    expect(deltas).toHaveLength(2); // the unsigned block shows nothing without summaries
    expect(decodeReasoning(deltas[0].signature)).toEqual({ text: 'Pondering.', signature: { origin: 'anthropic', value: 'ErUBsig' } });
    expect(deltas[1]).toEqual({ type: 'thought_signature', signature: 'EqYDraw' });
    expect(hidden.filter((d) => d.event_type === 'step.start').map((d) => d.step)).toEqual([{ type: 'thought' }, { type: 'thought' }]);

    const shown = encode(events, summaries).map(data).filter((d) => d.event_type === 'step.delta');
    expect(shown.map((d) => [d.index, d.delta.type])).toEqual([[0, 'thought_summary'], [0, 'thought_signature'], [1, 'thought_signature'], [2, 'thought_summary']]);
    expect(shown[0].delta).toEqual({ type: 'thought_summary', content: { type: 'text', text: 'Pondering.' } });
  });

  it('function calls: start with arguments {}, argument fragments, requires_action; overlapping calls one after the other', () => {
    const frames = encode([
      start,
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'a', signature: { origin: 'gemini', value: 'CtQBraw' } },
      { type: 'tool-call-start', index: 1, id: 'c2', name: 'b' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"y":2}' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]).map(data);
    const steps = frames.filter((d) => d.event_type !== 'step.delta' || true).map((d) => [d.event_type, d.index, d.step?.type ?? d.delta?.type]);
    expect(steps).toEqual([
      ['interaction.created', undefined, undefined],
      ['step.start', 0, 'thought'],
      ['step.delta', 0, 'thought_signature'],
      ['step.stop', 0, undefined],
      ['step.start', 1, 'function_call'],
      ['step.delta', 1, 'arguments_delta'],
      ['step.delta', 1, 'arguments_delta'],
      ['step.stop', 1, undefined],
      ['step.start', 2, 'function_call'],
      ['step.delta', 2, 'arguments_delta'],
      ['step.stop', 2, undefined],
      ['interaction.completed', undefined, undefined],
      [undefined, undefined, undefined],
    ]);
    expect(frames[4].step).toEqual({ type: 'function_call', id: 'c1', name: 'a', arguments: {} });
    expect(frames[2].delta).toEqual({ type: 'thought_signature', signature: 'CtQBraw' });
    expect(frames.at(-2).interaction.status).toBe('requires_action');
  });

  it('an error mid-stream: the error event, then done; the cut step is never stopped', () => {
    const frames = encode([start, { type: 'tool-call-start', index: 0, id: 'c1', name: 'f' }, { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a' }, { type: 'error', error: new ProxyError('timeout', 'Upstream idle.') }]);
    expect(types(frames)).toEqual(['interaction.created', 'step.start', 'step.delta', 'error', 'done']);
    expect(data(frames[3]!)).toEqual({ error: { code: 'gateway_timeout', message: 'Upstream idle.' }, event_type: 'error' });
  });

  it('a stream cut short (no finish) ends as a failure; nothing at all still opens and closes', () => {
    const cut = encode([start, { type: 'text-delta', text: 'par' }]);
    expect(types(cut)).toEqual(['interaction.created', 'step.start', 'step.delta', 'error', 'done']);
    expect(types(encode([]))).toEqual(['interaction.created', 'error', 'done']);
  });

  it('length is incomplete; an upstream Interactions id is kept; other choices are ignored', () => {
    const frames = encode([{ ...start, id: 'v1_up' }, { type: 'text-delta', text: 'x' }, { type: 'text-delta', choice: 1, text: 'other' }, { type: 'finish', reason: { unified: 'length' } }]).map(data);
    expect(frames[0].interaction.id).toBe('v1_up');
    expect(frames.filter((d) => d.delta).map((d) => d.delta.text)).toEqual(['x']);
    expect(frames.at(-2).interaction).toMatchObject({ id: 'v1_up', status: 'incomplete' });
  });

  it('passthrough: after forwarded frames an error ending adds only the error and done', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    for (const f of fixtureSse('gemini-interactions', 'stream-text.sse').slice(0, 4)) enc.forwarded(f);
    const frames = [...enc.push({ type: 'error', error: new ProxyError('upstream', 'Cut.') }), ...enc.finish()];
    expect(types(frames)).toEqual(['error', 'done']);
    const after = new InteractionsStreamEncoder(req, testContext());
    for (const f of fixtureSse('gemini-interactions', 'stream-text.sse')) after.forwarded(f);
    expect(after.finish()).toEqual([]);
  });

  it('decode → encode of every fixture keeps text, summaries, signatures, arguments and status', () => {
    for (const name of ['stream-thinking.sse', 'stream-function-call.sse', 'stream-parallel-function-calls.sse']) {
      const upstream = fixtureSse('gemini-interactions', name);
      const dec = new InteractionsStreamDecoder(req, testContext());
      const events = [...upstream.flatMap((e) => dec.push(e)), ...dec.finish()];
      const again = encode(events, summaries);
      const dec2 = new InteractionsStreamDecoder(req, testContext());
      const back = [...again.flatMap((f) => dec2.push({ event: f.event, data: f.data })), ...dec2.finish()];
      const strip = (list: StreamEvent[]) => list.filter((e) => e.type !== 'message-start');
      expect(strip(back), name).toEqual(strip(events));
      const status = (frames: { event?: string; data: string }[]) => JSON.parse(frames.find((f) => f.event === 'interaction.completed')!.data).interaction.status;
      expect(status(again)).toBe(status(upstream));
    }
  });
});
