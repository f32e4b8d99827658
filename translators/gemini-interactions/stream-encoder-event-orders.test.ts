import { describe, expect, it } from 'vitest';
import { decodeReasoning, type ChatRequest, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { InteractionsStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'gemini-3-flash-preview', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true };
const summaries: ChatRequest = { ...req, reasoning: { includeThoughts: true } };
const start: StreamEvent = { type: 'message-start', id: 'msg_1', model: 'm', created: 1 };
const stop: StreamEvent = { type: 'finish', reason: { unified: 'stop' } };

/** Each push's frames as `event data` lines without event_type, so order and batching both show. */
function perPush(events: StreamEvent[], r = req): unknown[][] {
  const enc = new InteractionsStreamEncoder(r, testContext());
  const show = (frames: StreamFrame[]) =>
    frames.map((f) => {
      if (f.data === '[DONE]') return f.event;
      const { event_type: _t, ...rest } = JSON.parse(f.data) as Record<string, unknown>;
      return f.event === 'interaction.created' || f.event === 'interaction.completed' ? `${f.event} ${(rest['interaction'] as { status: string }).status}` : [f.event, rest];
    });
  return [...events.map((e) => show(enc.push(e))), show(enc.finish())];
}

describe('Interactions stream encoder: less common event orders', () => {
  it('a call that ends while an earlier call still streams: it is written, whole and stopped, as soon as the earlier call ends', () => {
    const out = perPush([
      start,
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'b' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"y":2}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]);
    expect(out).toEqual([
      ['interaction.created in_progress'],
      [['step.start', { index: 0, step: { type: 'function_call', id: 'c0', name: 'a', arguments: {} } }]],
      [],
      [],
      [],
      [['step.delta', { index: 0, delta: { type: 'arguments_delta', arguments: '{"x":1}' } }]],
      [
        ['step.stop', { index: 0 }],
        ['step.start', { index: 1, step: { type: 'function_call', id: 'c1', name: 'b', arguments: {} } }],
        ['step.delta', { index: 1, delta: { type: 'arguments_delta', arguments: '{"y":2}' } }],
        ['step.stop', { index: 1 }],
      ],
      [],
      ['interaction.completed requires_action', 'done'],
    ]);
  });

  it('the end of a call never started changes nothing', () => {
    const out = perPush([start, { type: 'tool-call-end', index: 7 }, { type: 'text-delta', text: 'a' }, stop]);
    expect(out.slice(1, 3)).toEqual([[], [['step.start', { index: 0, step: { type: 'model_output' } }], ['step.delta', { index: 0, delta: { type: 'text', text: 'a' } }]]]);
  });

  it('reasoning deltas without a reasoning-start open a thought step after the text (stopping the text step)', () => {
    const out = perPush([start, { type: 'text-delta', text: 'a' }, { type: 'reasoning-delta', text: 'b' }, { type: 'reasoning-delta', text: 'c' }, { type: 'reasoning-end' }, stop], summaries);
    expect(out.slice(2, 5)).toEqual([
      [
        ['step.stop', { index: 0 }],
        ['step.start', { index: 1, step: { type: 'thought' } }],
        ['step.delta', { index: 1, delta: { type: 'thought_summary', content: { type: 'text', text: 'b' } } }],
      ],
      [['step.delta', { index: 1, delta: { type: 'thought_summary', content: { type: 'text', text: 'c' } } }]],
      [['step.stop', { index: 1 }]],
    ]);
  });

  it('an unsummarised thought cut by text has no step to stop; a summarised one is stopped before the text', () => {
    const events: StreamEvent[] = [start, { type: 'reasoning-start' }, { type: 'reasoning-delta', text: 'r' }, { type: 'text-delta', text: 't' }, stop];
    expect(perPush(events)[3]).toEqual([['step.start', { index: 0, step: { type: 'model_output' } }], ['step.delta', { index: 0, delta: { type: 'text', text: 't' } }]]);
    expect(perPush(events, summaries)[3]).toEqual([
      ['step.stop', { index: 0 }],
      ['step.start', { index: 1, step: { type: 'model_output' } }],
      ['step.delta', { index: 1, delta: { type: 'text', text: 't' } }],
    ]);
  });

  it('a signed reasoning-end without its start is a thought step of its own; an unsigned one writes nothing', () => {
    const out = perPush([start, { type: 'reasoning-end', signature: { origin: 'gemini', value: 'EqSig' } }, { type: 'reasoning-end' }, stop]);
    expect(out[1]).toEqual([
      ['step.start', { index: 0, step: { type: 'thought' } }],
      ['step.delta', { index: 0, delta: { type: 'thought_signature', signature: 'EqSig' } }],
      ['step.stop', { index: 0 }],
    ]);
    expect(out[2]).toEqual([]);
  });

  it('redacted reasoning is a whole thought step whose signature carries the redacted data and no text', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    const frames = [...enc.push(start), ...enc.push({ type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'RED' } }), ...enc.push(stop), ...enc.finish()];
    expect(frames.map((f) => f.event)).toEqual(['interaction.created', 'step.start', 'step.delta', 'step.stop', 'interaction.completed', 'done']);
    const signature = (JSON.parse(frames[2]!.data) as { delta: { signature: string } }).delta.signature;
    expect(decodeReasoning(signature)).toEqual({ text: '', redacted: { origin: 'anthropic', value: 'RED' } });
  });

  it('nothing is written after the stream ended, whether by done or by an error', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    enc.push(start);
    enc.push(stop);
    expect(enc.finish().map((f) => f.event)).toEqual(['interaction.completed', 'done']);
    expect(enc.push({ type: 'text-delta', text: 'late' })).toEqual([]);
    expect(enc.finish()).toEqual([]);
  });

  it('an event type it does not know is a programming error, not a silent drop', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    expect(() => enc.push({ type: 'bogus' } as unknown as StreamEvent)).toThrow('unhandled stream event');
  });

  it('a Gemini signature on text ends its output step and is a thought step of its own; unsigned text-end and empty deltas write nothing', () => {
    const out = perPush([
      start,
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: '' },
      { type: 'text-end', signature: { origin: 'gemini', value: 'EqT' } },
      { type: 'text-end' },
      { type: 'refusal-delta', text: 'No.' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '' },
      { type: 'tool-call-delta', index: 5, argumentsDelta: '{}' },
      { type: 'logprobs', logprobs: [] } as unknown as StreamEvent,
      stop,
    ]);
    expect(out.slice(2, 10)).toEqual([
      [],
      [
        ['step.stop', { index: 0 }],
        ['step.start', { index: 1, step: { type: 'thought' } }],
        ['step.delta', { index: 1, delta: { type: 'thought_signature', signature: 'EqT' } }],
        ['step.stop', { index: 1 }],
      ],
      [],
      [['step.start', { index: 2, step: { type: 'model_output' } }], ['step.delta', { index: 2, delta: { type: 'text', text: 'No.' } }]],
      [['step.stop', { index: 2 }], ['step.start', { index: 3, step: { type: 'function_call', id: 'c', name: 'f', arguments: {} } }]],
      [],
      [],
      [],
    ]);
    expect(out.at(-1)).toEqual([['step.stop', { index: 3 }], 'interaction.completed requires_action', 'done']);
  });

  it('calls still queued at the end are written whole, in order, before the completion', () => {
    const out = perPush([
      start,
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'b' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"y":2}' },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]);
    expect(out.at(-1)).toEqual([
      ['step.stop', { index: 0 }],
      ['step.start', { index: 1, step: { type: 'function_call', id: 'c1', name: 'b', arguments: {} } }],
      ['step.delta', { index: 1, delta: { type: 'arguments_delta', arguments: '{"y":2}' } }],
      ['step.stop', { index: 1 }],
      'interaction.completed requires_action',
      'done',
    ]);
  });

  it('a blocked prompt is incomplete; no usage, no usage field; a message-start without a model names the request’s', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    const frames = [...enc.push({ type: 'message-start', id: '', model: '', created: 1 }), ...enc.push({ type: 'prompt-blocked', reason: 'SAFETY' }), ...enc.finish()];
    const interactions = frames.filter((f) => (f.event ?? '').startsWith('interaction.')).map((f) => (JSON.parse(f.data) as { interaction: Record<string, unknown> }).interaction);
    expect(interactions[0]).toEqual({ id: 'v1_test0001', status: 'in_progress', object: 'interaction', model: 'gemini-3-flash-preview' });
    expect(interactions[1]).toEqual({ id: 'v1_test0001', status: 'incomplete', created: '2023-11-14T22:13:20Z', updated: '2023-11-14T22:13:20Z', object: 'interaction', model: 'gemini-3-flash-preview' });
  });

  it('passthrough: a [DONE] data line ends the stream whatever its event name', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    enc.forwarded({ event: 'message', data: ' [DONE] ' });
    expect(enc.finish()).toEqual([]);
    expect(enc.push({ type: 'text-delta', text: 'x' })).toEqual([]);
  });

  it('calls keep their order when text comes between a call and the calls queued behind it', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    const frames = [
      start,
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'b' },
      { type: 'text-delta', text: 'x' },
      { type: 'tool-call-start', index: 2, id: 'c2', name: 'c' },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ].flatMap((e) => enc.push(e as StreamEvent)).concat(enc.finish());
    const starts = frames.filter((f) => f.event === 'step.start').map((f) => (JSON.parse(f.data) as { step: { type: string; id?: string } }).step);
    expect(starts.map((s) => s.id ?? s.type)).toEqual(['c0', 'model_output', 'c1', 'c2']);
  });

  it('an event that names no choice (choice undefined) is choice 0', () => {
    const out = perPush([start, { type: 'text-delta', text: 'a', choice: undefined } as StreamEvent, stop]);
    expect(out[1]).toEqual([['step.start', { index: 0, step: { type: 'model_output' } }], ['step.delta', { index: 0, delta: { type: 'text', text: 'a' } }]]);
  });

  it('an unsigned thought without summaries writes no frame at all, not even a stop', () => {
    const out = perPush([start, { type: 'reasoning-start' }, { type: 'reasoning-delta', text: 'r' }, { type: 'reasoning-end' }, stop]);
    expect(out.slice(1, 4)).toEqual([[], [], []]);
  });

  /** Events after `start` through a fresh encoder: its step frames as short lines (and, with `completed`, the final status). */
  function stepLines(events: unknown[], completed = false): string[] {
    const enc = new InteractionsStreamEncoder(req, testContext());
    const frames = [start, ...events].flatMap((e) => enc.push(e as StreamEvent)).concat(enc.finish());
    return frames.filter((f) => f.event?.startsWith('step.') || (completed && f.event === 'interaction.completed')).map((f) => {
      const d = JSON.parse(f.data) as { index: number; step?: { id: string }; delta?: { arguments: string }; interaction?: { status: string } };
      return d.interaction ? d.interaction.status : `${f.event} ${d.index}${d.step ? ` ${d.step.id}` : ''}${d.delta ? ` ${d.delta.arguments}` : ''}`;
    });
  }

  it('of two queued calls, the second waits while the first still streams (its later fragments are not lost)', () => {
    const shown = stepLines([
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'b' },
      { type: 'tool-call-start', index: 2, id: 'c2', name: 'c' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":1}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-end', index: 2 },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]);
    expect(shown).toEqual(['step.start 0 c0', 'step.stop 0', 'step.start 1 c1', 'step.delta 1 {"b":1}', 'step.stop 1', 'step.start 2 c2', 'step.stop 2']);
  });

  it('a delta reaches its own queued call, and ending a queued call ends that one only', () => {
    const shown = stepLines([
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'b' },
      { type: 'tool-call-start', index: 2, id: 'c2', name: 'c' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"c":3}' },
      { type: 'tool-call-end', index: 2 },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":2}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', reason: { unified: 'stop' } },
    ], true);
    // A plain stop after calls still waits for their results.
    expect(shown).toEqual(['step.start 0 c0', 'step.stop 0', 'step.start 1 c1', 'step.delta 1 {"b":2}', 'step.stop 1', 'step.start 2 c2', 'step.delta 2 {"c":3}', 'step.stop 2', 'requires_action']);
  });

  it('refusal start and end open nothing; empty reasoning deltas show nothing; reasoning without its start keeps its text for another vendor’s signature', () => {
    const out = perPush([start, { type: 'refusal-start' }, { type: 'refusal-end' }, { type: 'reasoning-delta', text: '' }, { type: 'reasoning-delta', text: 'why' }, { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'sig' } }, stop], summaries);
    expect(out.slice(1, 5)).toEqual([[], [], [], [['step.start', { index: 0, step: { type: 'thought' } }], ['step.delta', { index: 0, delta: { type: 'thought_summary', content: { type: 'text', text: 'why' } } }]]]);
    const sig = (out[5] as Array<[string, { delta: { signature: string } }]>)[0]![1].delta.signature;
    expect(decodeReasoning(sig)).toEqual({ text: 'why', signature: { origin: 'anthropic', value: 'sig' } });
  });

  it('another vendor’s signature on text rides in a carrier without text', () => {
    const out = perPush([start, { type: 'text-delta', text: 'a' }, { type: 'text-end', signature: { origin: 'openai', value: 'enc' } }, stop]);
    const sig = (out[2] as Array<[string, { delta?: { signature: string } }]>)[2]![1].delta!.signature;
    expect(decodeReasoning(sig)).toEqual({ text: '', signature: { origin: 'openai', value: 'enc' } });
  });

  it('a stream cut short says so in its error event; a forwarded done event ends the stream whatever its data', () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    enc.push(start);
    const frames = enc.finish();
    expect(JSON.parse(frames[0]!.data)).toEqual({ error: { code: 'internal', message: 'The upstream stream ended before the interaction was complete.' }, event_type: 'error' });
    const fwd = new InteractionsStreamEncoder(req, testContext());
    fwd.forwarded({ event: 'done', data: '' });
    expect(fwd.finish()).toEqual([]);
  });
});

describe('Interactions stream encoder: a call signed like the thought just before it', () => {
  const gem = (value: string) => ({ origin: 'gemini' as const, value });
  /** The steps written, as `type` or `thought:<signature>`. */
  const steps = (events: StreamEvent[]): string[] => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    const frames = [...events.flatMap((e) => enc.push(e)), ...enc.finish()].filter((f) => f.event === 'step.start' || f.event === 'step.delta').map((f) => JSON.parse(f.data));
    return frames.flatMap((f) => (f.step ? [f.step.type] : f.delta.type === 'thought_signature' ? [`signature:${f.delta.signature}`] : []));
  };
  const thought = (sig: string): StreamEvent[] => [{ type: 'reasoning-start' }, { type: 'reasoning-end', signature: gem(sig) }];
  const call = (sig?: string): StreamEvent => ({ type: 'tool-call-start', index: 0, id: 'c', name: 'f', ...(sig ? { signature: gem(sig) } : {}) });

  it('right after that thought step: no second thought step', () => {
    expect(steps([start, ...thought('S'), call('S'), stop])).toEqual(['thought', 'signature:S', 'function_call']);
  });

  it('another signature, or the same one after another step came between: a thought step of its own', () => {
    expect(steps([start, ...thought('S'), call('T'), stop])).toEqual(['thought', 'signature:S', 'thought', 'signature:T', 'function_call']);
    expect(steps([start, ...thought('S'), { type: 'text-delta', text: 'x' }, call('S'), stop])).toEqual(['thought', 'signature:S', 'model_output', 'thought', 'signature:S', 'function_call']);
  });

  it('after an unsigned thought, or with no signature of its own: as its signature says', () => {
    expect(steps([start, { type: 'reasoning-start' }, { type: 'reasoning-end' }, call('S'), stop])).toEqual(['thought', 'signature:S', 'function_call']);
    expect(steps([start, ...thought('S'), call(), stop])).toEqual(['thought', 'signature:S', 'function_call']);
  });
});
