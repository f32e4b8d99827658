import { describe, expect, it } from 'vitest';
import { decodeSignature, type ChatRequest, type StreamEvent } from '../../src/canonical/index.ts';
import { parseSse, testContext } from '../../test/support/fixtures.ts';
import { InteractionsStreamDecoder } from './stream-decoder.ts';
import { InteractionsStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };
const frames = (events: Array<Record<string, unknown>>) => events.map((e) => `event: ${e['event_type']}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const bytes = (s: string) => new TextEncoder().encode(s).length;
const SAID = 'Café ☕ Spain won.';

const upstream = frames([
  { event_type: 'interaction.created', interaction: { id: 'v1_1', status: 'in_progress', model: 'gemini-3-flash-preview' } },
  { event_type: 'step.start', index: 0, step: { type: 'google_search_call', id: 'gs1', arguments: {} } },
  { event_type: 'step.delta', index: 0, delta: { type: 'google_search_call', arguments: { queries: ['euro 2024'] }, signature: 'EqCall' } },
  { event_type: 'step.stop', index: 0 },
  { event_type: 'step.start', index: 1, step: { type: 'google_search_result', call_id: 'gs1', result: [] } },
  { event_type: 'step.delta', index: 1, delta: { type: 'google_search_result', result: [{ search_suggestions: '<div/>' }], signature: 'EqResult' } },
  { event_type: 'step.stop', index: 1 },
  { event_type: 'step.start', index: 2, step: { type: 'model_output', content: [] } },
  { event_type: 'step.delta', index: 2, delta: { type: 'text', text: 'Café ☕ ' } },
  { event_type: 'step.delta', index: 2, delta: { type: 'text', text: 'Spain won.' } },
  { event_type: 'step.delta', index: 2, delta: { type: 'text_annotation_delta', annotations: [{ type: 'url_citation', url: 'https://uefa.com/x', title: 'uefa', start_index: bytes('Café ☕ '), end_index: bytes(SAID) }] } },
  { event_type: 'step.stop', index: 2 },
  { event_type: 'interaction.completed', interaction: { id: 'v1_1', status: 'completed', usage: { total_input_tokens: 3, total_output_tokens: 5 } } },
]);

describe('Interactions upstream stream: search steps and text annotations', () => {
  // Decoded inside each test: Stryker credits a test only with the code run inside it.
  const decode = (): StreamEvent[] => {
    const dec = new InteractionsStreamDecoder(req, testContext());
    return [...parseSse(upstream).flatMap((e) => dec.push(e)), ...dec.finish()];
  };

  it('the annotation a citation of the open text block at UTF-16 offsets; the search (its deltas folded in) after the text, its pages the cited ones', () => {
    const events = decode();
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-delta', 'citation', 'text-end', 'web-search', 'usage', 'finish']);
    expect(events[4]).toMatchObject({ citation: { url: 'https://uefa.com/x', span: { start: 'Café ☕ '.length, end: SAID.length } } });
    const search = events[6] as Extract<StreamEvent, { type: 'web-search' }>;
    expect(search.part).toMatchObject({ id: 'gs1', kind: 'search', queries: ['euro 2024'], results: [{ url: 'https://uefa.com/x', title: 'uefa' }] });
    expect(search.part.raw).toEqual({ dialect: 'gemini-interactions', value: [
      { type: 'google_search_call', id: 'gs1', arguments: { queries: ['euro 2024'] }, signature: 'EqCall' },
      { type: 'google_search_result', call_id: 'gs1', result: [{ search_suggestions: '<div/>' }], signature: 'EqResult' },
    ] });
  });
});

describe('an Interactions caller\'s stream of another vendor\'s search', () => {
  const part = { type: 'web-search' as const, id: 'srvtoolu_1', kind: 'search' as const, queries: ['euro 2024'], results: [{ url: 'https://uefa.com/x' }], raw: { dialect: 'anthropic' as const, value: [] } };
  const events: StreamEvent[] = [
    { type: 'message-start', id: 'm1', model: 'x', created: 1 },
    { type: 'web-search', part },
    { type: 'text-start' },
    { type: 'text-delta', text: 'Hi. ' },
    { type: 'text-end' },
    { type: 'text-start' },
    { type: 'citation', citation: { url: 'https://uefa.com/x', title: 'UEFA' } },
    { type: 'text-delta', text: 'Café won.' },
    { type: 'text-end' },
    { type: 'finish', reason: { unified: 'stop' } },
  ];
  const encode = () => {
    const enc = new InteractionsStreamEncoder(req, testContext());
    return [...events.flatMap((e) => enc.push(e)), ...enc.finish()].filter((f) => f.data !== '[DONE]').map((f) => JSON.parse(f.data));
  };

  it('its call and result steps whole, with our carrier as the signature', () => {
    const out = encode();
    const starts = out.filter((f) => f.event_type === 'step.start').map((f) => f.step);
    expect(starts.map((s) => s.type)).toEqual(['google_search_call', 'google_search_result', 'model_output']);
    expect(decodeSignature(starts[0].signature)).toEqual({ origin: 'anthropic', value: 'srvtoolu_1' });
  });

  it('a citation of the whole second block: a text_annotation_delta at byte offsets of the step\'s text, after the block', () => {
    const out = encode();
    const deltas = out.filter((f) => f.event_type === 'step.delta').map((f) => f.delta);
    expect(deltas.map((d) => d.type)).toEqual(['text', 'text', 'text_annotation_delta']);
    expect(deltas[2].annotations).toEqual([{ type: 'url_citation', url: 'https://uefa.com/x', title: 'UEFA', start_index: bytes('Hi. '), end_index: bytes('Hi. Café won.') }]);
  });
});
