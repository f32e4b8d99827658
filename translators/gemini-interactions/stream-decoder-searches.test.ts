import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { InteractionsStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'caller', system: [], messages: [], stream: true };
const ev = (data: Record<string, unknown>): SseEvent => ({ event: String(data['event_type']), data: JSON.stringify(data) });
const created = ev({ event_type: 'interaction.created', interaction: { id: 'v1_up', status: 'in_progress', model: 'g' } });
const completed = ev({ event_type: 'interaction.completed', interaction: { id: 'v1_up', status: 'completed' } });
const delta = (index: number, d: Record<string, unknown>) => ev({ event_type: 'step.delta', index, delta: d });
const stepStart = (index: number, step: Record<string, unknown>) => ev({ event_type: 'step.start', index, step });
const stepStop = (index: number) => ev({ event_type: 'step.stop', index });
const bytes = (s: string) => new TextEncoder().encode(s).length;
const cite = (url: string, start: number, end: number) => ({ type: 'url_citation', url, start_index: start, end_index: end });

/** The canonical events after message-start and before the finish. */
function body(frames: SseEvent[], end: SseEvent[] = [completed]): StreamEvent[] {
  const dec = new InteractionsStreamDecoder(req, testContext());
  const events = [...[created, ...frames, ...end].flatMap((f) => dec.push(f)), ...dec.finish()];
  expect(events[0]!.type).toBe('message-start');
  return events.slice(1).filter((e) => e.type !== 'finish');
}
const searchOf = (events: StreamEvent[]) => events.flatMap((e) => (e.type === 'web-search' ? [e.part] : []));

const call = (id: string) => [stepStart(0, { type: 'google_search_call', id, arguments: { queries: ['q'] } }), stepStop(0)];
const result = (id: string, index = 1) => [stepStart(index, { type: 'google_search_result', call_id: id, result: [] }), stepStop(index)];

describe('Interactions stream decoder: citations in model_output steps', () => {
  it('annotations of text contents already in step.start: each span moved by the text before it in the step', () => {
    const events = body([
      stepStart(0, { type: 'model_output', content: [
        { type: 'text', text: 'Café ' },
        { type: 'text', text: '' },
        { type: 'text', text: 'ab', annotations: [cite('https://a.org', 0, 1), { type: 'url_citation', url: 'https://b.org' }] },
      ] }),
      stepStop(0),
    ]);
    expect(events.filter((e) => e.type === 'citation')).toStrictEqual([
      { type: 'citation', citation: { url: 'https://a.org', span: { start: 5, end: 6 }, raw: { dialect: 'gemini-interactions', value: cite('https://a.org', 0, 1) } } },
      { type: 'citation', citation: { url: 'https://b.org', raw: { dialect: 'gemini-interactions', value: { type: 'url_citation', url: 'https://b.org' } } } },
    ]);
    expect(events.map((e) => e.type)).toEqual(['text-start', 'text-delta', 'text-delta', 'citation', 'citation', 'text-end']);
  });

  it('a text_annotation_delta before any text, or on a step that is not text, cites nothing', () => {
    const events = body([
      stepStart(0, { type: 'model_output', content: [] }),
      delta(0, { type: 'text_annotation_delta', annotations: [cite('https://a.org', 0, 1)] }),
      delta(0, { type: 'text', text: 'hi' }),
      delta(0, { type: 'text_annotation_delta', annotations: [cite('https://b.org', bytes('h'), bytes('hi'))] }),
      stepStop(0),
      stepStart(1, { type: 'thought', summary: [{ type: 'text', text: 't' }] }),
      delta(1, { type: 'text_annotation_delta', annotations: [cite('https://c.org', 0, 1)] }),
      stepStop(1),
    ]);
    expect(events.flatMap((e) => (e.type === 'citation' ? [e.citation.url] : []))).toEqual(['https://b.org']);
    expect(events.find((e) => e.type === 'citation')).toMatchObject({ citation: { span: { start: 1, end: 2 } } });
  });
});

describe('Interactions stream decoder: search steps', () => {
  it('a search is given after the text that follows it ends, its pages the cited ones', () => {
    const events = body([
      ...call('g'),
      ...result('g'),
      stepStart(2, { type: 'model_output', content: [{ type: 'text', text: 'ab', annotations: [{ type: 'url_citation', url: 'https://a.org', title: 'A' }] }] }),
      delta(2, { type: 'text', text: 'c' }),
      stepStop(2),
      stepStart(3, { type: 'model_output', content: [] }),
      delta(3, { type: 'text', text: 'later' }),
      stepStop(3),
    ]);
    expect(events.map((e) => e.type)).toEqual(['text-start', 'text-delta', 'citation', 'text-delta', 'text-end', 'web-search', 'text-start', 'text-delta', 'text-end']);
    expect(searchOf(events)).toMatchObject([{ id: 'g', queries: ['q'], results: [{ url: 'https://a.org', title: 'A' }] }]);
  });

  it('a search with no text after it, and a call whose result never came, are given at the completion, before the usage', () => {
    const events = body(
      [stepStart(0, { type: 'google_search_call', id: 'a' }), stepStop(0), stepStart(1, { type: 'url_context_call', id: 'b', arguments: { urls: ['https://b.org'] } }), stepStop(1), ...result('a', 2)],
      [ev({ event_type: 'interaction.completed', interaction: { status: 'completed', usage: { total_input_tokens: 1, total_output_tokens: 2 } } })],
    );
    expect(events.map((e) => e.type)).toEqual(['web-search', 'web-search', 'usage']);
    expect(searchOf(events)).toMatchObject([{ id: 'a', kind: 'search' }, { id: 'b', kind: 'fetch', url: 'https://b.org', results: [] }]);
  });

  it('only search deltas fold into a search step: the step keeps what came in step.start and adds what its deltas carry', () => {
    const events = body([
      stepStart(0, { type: 'url_context_call', id: 'u', arguments: {} }),
      delta(0, { type: 'url_context_call', arguments: { urls: ['https://a.org'] }, signature: 'EqU' }),
      delta(0, { type: 'text', text: 'not the text' }),
      delta(0, { type: 'arguments_delta', arguments: { urls: ['https://wrong.org'] } }),
      stepStop(0),
      stepStart(1, { type: 'url_context_result', call_id: 'u', result: [{ url: 'https://a.org', status: 'success' }] }),
      delta(1, { type: 'url_context_result', result: [{ url: 'https://b.org' }], is_error: false }),
      stepStop(1),
    ]);
    expect(events.map((e) => e.type)).toEqual(['web-search']);
    expect(searchOf(events)[0]).toStrictEqual({
      type: 'web-search',
      id: 'u',
      kind: 'fetch',
      url: 'https://a.org',
      results: [{ url: 'https://a.org' }, { url: 'https://b.org' }],
      raw: { dialect: 'gemini-interactions', value: [
        { type: 'url_context_call', id: 'u', arguments: { urls: ['https://a.org'] }, signature: 'EqU' },
        { type: 'url_context_result', call_id: 'u', result: [{ url: 'https://a.org', status: 'success' }, { url: 'https://b.org' }], is_error: false },
      ] },
    });
  });

  it('a search delta on a step of another kind changes nothing', () => {
    const events = body([
      stepStart(0, { type: 'code_execution_call', id: 'x' }),
      delta(0, { type: 'google_search_call', arguments: { queries: ['q'] } }),
      stepStop(0),
    ]);
    expect(events).toEqual([]);
  });

  it('a server giving its steps only on interaction.completed: the search pairs and takes the text’s cited pages', () => {
    const events = body([], [ev({ event_type: 'interaction.completed', interaction: { status: 'completed', steps: [
      { type: 'google_search_call', id: 'g', arguments: { queries: ['q'] } },
      { type: 'google_search_result', call_id: 'g', result: [] },
      { type: 'model_output', content: [{ type: 'text', text: 'x', annotations: [{ type: 'url_citation', url: 'https://a.org' }] }] },
    ] } })]);
    expect(events.map((e) => e.type)).toEqual(['text-start', 'text-delta', 'citation', 'text-end', 'web-search']);
    expect(searchOf(events)).toMatchObject([{ id: 'g', results: [{ url: 'https://a.org' }] }]);
  });

  it('a stream cut after a search result gives no search (nothing after it cited it) but its error', () => {
    const events = body([...call('g'), ...result('g')], []);
    expect(events.map((e) => e.type)).toEqual(['error']);
  });
});
