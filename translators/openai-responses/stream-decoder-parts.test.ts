/**
 * The Responses stream decoder on content parts, annotations and events that leave fields out:
 * a part's own added/done events frame its block, an annotation cites the open text block, and an
 * event without its delta, text or output index says only what it does say.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { OpenAIResponsesStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'caller', system: [], messages: [], stream: true };
const ev = (data: Record<string, unknown>): SseEvent => ({ event: String(data['type']), data: JSON.stringify(data) });
const head: StreamEvent = { type: 'message-start', id: 'resp_1', model: 'm', created: 5 };

/** The canonical events of a stream after its `response.created`, without the message-start. */
function run(...events: Array<Record<string, unknown>>): StreamEvent[] {
  const dec = new OpenAIResponsesStreamDecoder(req, testContext());
  const all = [{ type: 'response.created', response: { id: 'resp_1', model: 'm', created_at: 5 } }, ...events].flatMap((e) => dec.push(ev(e)));
  expect(all[0]).toEqual(head);
  return all.slice(1);
}
const added = (at: number, item: Record<string, unknown>) => ({ type: 'response.output_item.added', output_index: at, item });
const done = (at: number, item: Record<string, unknown>) => ({ type: 'response.output_item.done', output_index: at, item });
const partAdded = (at: number, part?: Record<string, unknown>) => ({ type: 'response.content_part.added', output_index: at, content_index: 0, ...(part ? { part } : {}) });
const partDone = (at: number) => ({ type: 'response.content_part.done', output_index: at, content_index: 0 });
const text = (at: number, delta: string) => ({ type: 'response.output_text.delta', output_index: at, content_index: 0, delta });
const annotation = (at: number, a: unknown) => ({ type: 'response.output_text.annotation.added', output_index: at, content_index: 0, annotation_index: 0, annotation: a });

describe('Responses stream decoder: content parts and annotations', () => {
  it('a text or refusal part opens its block before any delta, and its done event closes it', () => {
    expect(run(partAdded(0, { type: 'output_text', text: '' }), partDone(0), partAdded(0, { type: 'refusal', refusal: '' }), partDone(0))).toEqual([
      { type: 'text-start' },
      { type: 'text-end' },
      { type: 'refusal-start' },
      { type: 'refusal-end' },
    ]);
  });

  it('a text part after a closed text part is a new text block', () => {
    expect(run(partAdded(0, { type: 'output_text' }), text(0, 'A'), partDone(0), partAdded(0, { type: 'output_text' }), text(0, 'B'))).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'A' },
      { type: 'text-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'B' },
    ]);
  });

  it('a part of another type, or none, opens nothing', () => {
    expect(run(partAdded(0, { type: 'output_audio' }), partAdded(0), partDone(0))).toEqual([]);
  });

  it('an annotation cites the open text block, as the citation it decodes to', () => {
    const a = { type: 'url_citation', url: 'https://a', title: 'A', start_index: 0, end_index: 2 };
    expect(run(text(0, 'Hi'), annotation(0, a))).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'Hi' },
      { type: 'citation', citation: { url: 'https://a', title: 'A', span: { start: 0, end: 2 }, raw: { dialect: 'openai-responses', value: a } } },
    ]);
  });

  it('an annotation with no text block open, of a refusal, or of another item says nothing', () => {
    const a = { type: 'url_citation', url: 'https://a' };
    expect(run(annotation(0, a), { type: 'response.refusal.delta', output_index: 0, delta: 'No' }, annotation(0, a), added(1, { type: 'reasoning', id: 'rs' }), annotation(1, a))).toEqual([
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'No' },
      { type: 'refusal-end' },
      { type: 'reasoning-start' },
    ]);
  });

  it('a message only its parts and annotations touched still gives the finished item’s content', () => {
    const msg = { type: 'message', id: 'm', content: [{ type: 'output_text', text: 'Whole' }] };
    expect(run(partAdded(0, { type: 'output_audio' }), done(0, msg))).toEqual([{ type: 'text-start' }, { type: 'text-delta', text: 'Whole' }, { type: 'text-end' }]);
    expect(run(partDone(0), done(0, msg))).toEqual([{ type: 'text-start' }, { type: 'text-delta', text: 'Whole' }, { type: 'text-end' }]);
  });
});

describe('Responses stream decoder: .done events against what was said', () => {
  it('a text .done after a refusal says the whole text, even when it starts like the refusal', () => {
    expect(run({ type: 'response.refusal.delta', output_index: 0, delta: 'No' }, { type: 'response.output_text.done', output_index: 0, text: 'Not quite' })).toEqual([
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'No' },
      { type: 'refusal-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'Not quite' },
    ]);
  });

  it('a text .done that disagrees with a shorter start says nothing', () => {
    expect(run(text(0, 'Hi'), { type: 'response.output_text.done', output_index: 0, text: 'Other words' })).toEqual([{ type: 'text-start' }, { type: 'text-delta', text: 'Hi' }]);
  });

  it('arguments from their deltas alone, and from their .done alone, with no done item', () => {
    expect(
      run(
        added(0, { type: 'function_call', call_id: 'c0', name: 'f' }),
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":' },
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: '1}' },
        added(1, { type: 'function_call', call_id: 'c1', name: 'g' }),
        { type: 'response.function_call_arguments.done', output_index: 1, arguments: '{"b":2}' },
        added(2, { type: 'custom_tool_call', call_id: 'c2', name: 'h' }),
        { type: 'response.custom_tool_call_input.done', output_index: 2, input: 'raw' },
      ),
    ).toEqual([
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":2}' },
      { type: 'tool-call-start', index: 2, id: 'c2', name: 'h', custom: true },
      { type: 'tool-call-delta', index: 2, argumentsDelta: 'raw' },
    ]);
  });

  it('a done freeform call gives its input, a done function call its arguments', () => {
    expect(run(added(0, { type: 'custom_tool_call', call_id: 'c', name: 'h' }), done(0, { type: 'custom_tool_call', call_id: 'c', name: 'h', input: 'patch', arguments: 'nope' }), added(1, { type: 'function_call', call_id: 'd', name: 'f' }), done(1, { type: 'function_call', call_id: 'd', name: 'f', input: 'nope', arguments: '{}' }))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'c', name: 'h', custom: true },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'patch' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'd', name: 'f' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('a done item of a kind the decoder does not read says nothing', () => {
    expect(run(added(0, { type: 'file_search_call', id: 'fs', status: 'in_progress' }), done(0, { type: 'file_search_call', id: 'fs', status: 'completed' }), done(1, { type: 'image_generation_call', id: 'ig' }))).toEqual([]);
  });
});

describe('Responses stream decoder: events that leave fields out', () => {
  it('a delta without its text opens the block and says nothing; so do the .done events without theirs', () => {
    expect(
      run(
        { type: 'response.output_text.delta', output_index: 0 },
        added(1, { type: 'function_call', call_id: 'c', name: 'f' }),
        { type: 'response.function_call_arguments.delta', output_index: 1 },
        { type: 'response.function_call_arguments.done', output_index: 1 },
        added(2, { type: 'custom_tool_call', call_id: 'd', name: 'h' }),
        { type: 'response.custom_tool_call_input.done', output_index: 2 },
        added(3, { type: 'reasoning', id: 'rs' }),
        { type: 'response.reasoning_summary_text.delta', output_index: 3 },
        { type: 'response.reasoning_text.delta', output_index: 3 },
        { type: 'response.reasoning_summary_text.done', output_index: 3 },
      ),
    ).toEqual([
      { type: 'text-start' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'd', name: 'h', custom: true },
      { type: 'reasoning-start' },
    ]);
  });

  it('finished items without their texts: empty blocks, no arguments', () => {
    expect(
      run(
        done(0, { type: 'message', id: 'm', content: [{ type: 'output_text' }, { type: 'refusal' }] }),
        done(1, { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text' }] }),
        done(2, { type: 'function_call', call_id: 'c', name: 'f' }),
        done(3, { type: 'custom_tool_call', call_id: 'd', name: 'h' }),
        done(4, { type: 'message', id: 'm2' }),
        done(5, { type: 'reasoning', id: 'rs2' }),
      ),
    ).toEqual([
      { type: 'text-start' },
      { type: 'text-end' },
      { type: 'refusal-start' },
      { type: 'refusal-end' },
      { type: 'reasoning-start' },
      { type: 'reasoning-end' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'd', name: 'h', custom: true },
      { type: 'tool-call-end', index: 1 },
      { type: 'reasoning-start' },
      { type: 'reasoning-end' },
    ]);
  });

  it('response.failed without a response is still the error', () => {
    const dec = new OpenAIResponsesStreamDecoder(req, testContext());
    expect(dec.push(ev({ type: 'response.failed' }))).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream' }), upstreamFrame: true }]);
  });
});

describe('Responses stream decoder: output indexes', () => {
  it('events without an output index are one message of their own, apart from the item at 1', () => {
    expect(run(text(-1, 'a'), { type: 'response.output_text.delta', content_index: 0, delta: 'b' }, text(1, 'c'))).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'c' },
    ]);
  });

  it('reasoning and tool events reach the item at their index, past 0, and none without one', () => {
    expect(
      run(
        added(1, { type: 'reasoning', id: 'rs' }),
        { type: 'response.reasoning_summary_text.delta', output_index: 1, delta: 'r' },
        { type: 'response.reasoning_summary_text.delta', delta: 'lost' },
        { type: 'response.reasoning_summary_part.added', part: { type: 'summary_text', text: '' } },
        { type: 'response.reasoning_summary_text.done', text: 'lost' },
        added(2, { type: 'function_call', call_id: 'c', name: 'f' }),
        { type: 'response.function_call_arguments.delta', output_index: 2, delta: '{' },
        { type: 'response.function_call_arguments.delta', delta: 'lost' },
        { type: 'response.function_call_arguments.done', arguments: '{lost' },
        { type: 'response.function_call_arguments.done', output_index: 2, arguments: '{}' },
      ),
    ).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'r' },
      { type: 'reasoning-end' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
    ]);
  });

  it('tool events without an output index reach no call, not even the one at 1', () => {
    expect(
      run(
        added(1, { type: 'function_call', call_id: 'c', name: 'f' }),
        { type: 'response.function_call_arguments.done', arguments: 'lost' },
        { type: 'response.function_call_arguments.delta', delta: 'lost' },
        { type: 'response.function_call_arguments.delta', output_index: 1, delta: '{}' },
      ),
    ).toEqual([
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
    ]);
  });

  it('reasoning and tool events aimed at an item of another kind say nothing', () => {
    expect(
      run(
        text(0, 'Hi'),
        { type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'no' },
        { type: 'response.reasoning_summary_part.added', output_index: 0, part: { type: 'summary_text', text: '' } },
        { type: 'response.reasoning_summary_text.done', output_index: 0, text: 'no' },
        added(1, { type: 'function_call', call_id: 'c', name: 'f' }),
        { type: 'response.reasoning_text.delta', output_index: 1, delta: 'no' },
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: 'no' },
        { type: 'response.custom_tool_call_input.done', output_index: 0, input: 'no' },
      ),
    ).toEqual([{ type: 'text-start' }, { type: 'text-delta', text: 'Hi' }, { type: 'text-end' }, { type: 'tool-call-start', index: 0, id: 'c', name: 'f' }]);
  });
});
