import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent, WebSearchPart } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { InteractionsStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };
const start: StreamEvent = { type: 'message-start', id: 'm1', model: 'x', created: 1 };
const finish: StreamEvent = { type: 'finish', reason: { unified: 'stop' } };
const part: WebSearchPart = { type: 'web-search', id: 'srvtoolu_1', kind: 'search', queries: ['q'], results: [], raw: { dialect: 'anthropic', value: [] } };
const search: StreamEvent = { type: 'web-search', part };
const bytes = (s: string) => new TextEncoder().encode(s).length;

/** Each frame as `event index step-or-delta-type`, the created/completed/done frames left out. */
function steps(events: StreamEvent[]): string[] {
  const enc = new InteractionsStreamEncoder(req, testContext());
  const frames = [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
  return frames
    .filter((f) => f.event?.startsWith('step.'))
    .map((f) => {
      const d = JSON.parse(f.data);
      return [f.event, d.index, d.step?.type ?? d.delta?.type].filter((x) => x !== undefined).join(' ');
    });
}
function deltas(events: StreamEvent[]): Array<Record<string, any>> {
  const enc = new InteractionsStreamEncoder(req, testContext());
  return [...events.flatMap((e) => enc.push(e)), ...enc.finish()].filter((f) => f.event === 'step.delta').map((f) => JSON.parse(f.data).delta);
}

describe('Interactions stream encoder: searches between the other steps', () => {
  it('a search during text stops the output step; text after it opens another', () => {
    expect(steps([start, { type: 'text-start' }, { type: 'text-delta', text: 'a' }, search, { type: 'text-delta', text: 'b' }, { type: 'text-end' }, finish])).toStrictEqual([
      'step.start 0 model_output',
      'step.delta 0 text',
      'step.stop 0',
      'step.start 1 google_search_call',
      'step.stop 1',
      'step.start 2 google_search_result',
      'step.stop 2',
      'step.start 3 model_output',
      'step.delta 3 text',
      'step.stop 3',
    ]);
  });

  it('a search waits for the streaming call, and for the call queued behind it, then goes out whole', () => {
    expect(steps([
      start,
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
      search,
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
      finish,
    ])).toStrictEqual([
      'step.start 0 function_call',
      'step.delta 0 arguments_delta',
      'step.stop 0',
      'step.start 1 function_call',
      'step.delta 1 arguments_delta',
      'step.stop 1',
      'step.start 2 google_search_call',
      'step.stop 2',
      'step.start 3 google_search_result',
      'step.stop 3',
    ]);
  });

  it('the end of a call not open leaves a waiting search waiting; a call that never ends has the search after it at the finish', () => {
    expect(steps([start, { type: 'tool-call-start', index: 0, id: 'a', name: 'f' }, search, { type: 'tool-call-end', index: 5 }, finish])).toStrictEqual([
      'step.start 0 function_call',
      'step.stop 0',
      'step.start 1 google_search_call',
      'step.stop 1',
      'step.start 2 google_search_result',
      'step.stop 2',
    ]);
  });
});

describe('Interactions stream encoder: citations', () => {
  it('a citation with a span in the open block goes out at once, moved to the step’s text; one of no open output step is dropped', () => {
    const out = deltas([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'Hi. ' },
      { type: 'text-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'Café' },
      { type: 'citation', citation: { url: 'https://a.org', span: { start: 0, end: 4 } } },
      { type: 'text-end' },
      search,
      { type: 'citation', citation: { url: 'https://b.org' } },
      finish,
    ]);
    expect(out.map((d) => d.type)).toStrictEqual(['text', 'text', 'text_annotation_delta']);
    expect(out[2]!.annotations).toStrictEqual([{ type: 'url_citation', url: 'https://a.org', title: 'https://a.org', start_index: bytes('Hi. '), end_index: bytes('Hi. Café') }]);
  });

  it('a new output step counts its text from zero', () => {
    const out = deltas([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'first' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-end', index: 0 },
      { type: 'text-start' },
      { type: 'text-delta', text: 'ab' },
      { type: 'citation', citation: { url: 'https://a.org', span: { start: 1, end: 2 } } },
      { type: 'text-end' },
      finish,
    ]);
    expect(out.at(-1)).toStrictEqual({ type: 'text_annotation_delta', annotations: [{ type: 'url_citation', url: 'https://a.org', title: 'https://a.org', start_index: 1, end_index: 2 }] });
  });

  it('a whole-block citation after a signed text-end: its output step already stopped, it is dropped', () => {
    const out = deltas([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'ab' },
      { type: 'text-end', signature: { origin: 'gemini', value: 'S' } },
      { type: 'citation', citation: { url: 'https://a.org' } },
      finish,
    ]);
    expect(out.map((d) => d.type)).toStrictEqual(['text', 'thought_signature']);
  });

  it('a refusal written in the same output step counts in the offsets of the citations after it', () => {
    const out = deltas([
      start,
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'No. ' },
      { type: 'refusal-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'ab' },
      { type: 'citation', citation: { url: 'https://a.org', span: { start: 0, end: 1 } } },
      { type: 'text-end' },
      finish,
    ]);
    expect(out.map((d) => d.type)).toStrictEqual(['text', 'text', 'text_annotation_delta']);
    expect(out[2]!.annotations[0]).toMatchObject({ start_index: 4, end_index: 5 });
  });
});
