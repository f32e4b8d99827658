/**
 * The inner events of an open Responses output item (stream-parts.ts): a content part's done
 * events with its citations, annotation frames, a web search's phases.
 */
import { describe, expect, it } from 'vitest';
import type { StreamFrame } from '../../src/canonical/index.ts';
import { annotationFrames, closePart, ResponseFrames, searchPhases, type OpenMessage, type PartCitations } from './stream-parts.ts';

const data = (out: StreamFrame[]) => out.map((f) => JSON.parse(f.data) as Record<string, unknown>);
const message = (over: Partial<OpenMessage> = {}): OpenMessage => ({ kind: 'message', id: 'msg_1', at: 0, content: [], ...over });

describe('Responses stream parts', () => {
  it('a text part closed without citations: its done events with no annotations', () => {
    const m = message({ part: { kind: 'text', text: 'Hi', logprobs: [] } });
    const out: StreamFrame[] = [];
    closePart(m, new ResponseFrames(), out);
    const part = { type: 'output_text', annotations: [], logprobs: [], text: 'Hi' };
    expect(data(out)).toEqual([
      { type: 'response.output_text.done', sequence_number: 0, item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Hi', logprobs: [] },
      { type: 'response.content_part.done', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, part },
    ]);
    expect(m.content).toEqual([part]);
    expect(m.part).toBeUndefined();
  });

  it('a refusal part asks no citations of its block', () => {
    const asked: number[] = [];
    const cites: PartCitations = { end: (n) => (asked.push(n), { added: [[0, { type: 'url_citation' }]], all: [{ type: 'url_citation' }] }) };
    const m = message({ part: { kind: 'refusal', text: 'No', logprobs: [] } });
    const out: StreamFrame[] = [];
    closePart(m, new ResponseFrames(), out, cites);
    expect(asked).toEqual([]);
    expect(data(out).map((d) => d['type'])).toEqual(['response.refusal.done', 'response.content_part.done']);
    expect(m.content).toEqual([{ type: 'refusal', refusal: 'No' }]);
  });

  it('annotations of the part just closed (shift -1) name its content index', () => {
    const out: StreamFrame[] = [];
    annotationFrames(message({ at: 3, content: [{}, {}] }), [[4, { type: 'url_citation' }]], new ResponseFrames(), out, -1);
    expect(data(out)).toEqual([{ type: 'response.output_text.annotation.added', sequence_number: 0, item_id: 'msg_1', output_index: 3, content_index: 1, annotation_index: 4, annotation: { type: 'url_citation' } }]);
  });

  it('a web search’s phases: in progress, searching, completed', () => {
    const out: StreamFrame[] = [];
    searchPhases('ws_1', 2, new ResponseFrames(), out);
    expect(out.map((f) => f.event)).toEqual(['response.web_search_call.in_progress', 'response.web_search_call.searching', 'response.web_search_call.completed']);
    expect(data(out)[1]).toEqual({ type: 'response.web_search_call.searching', sequence_number: 1, item_id: 'ws_1', output_index: 2 });
  });
});
