/**
 * Citations in a Responses stream (StreamAnnotations): which are announced at once, which wait for
 * the part's end, and a late one added to the part that just ended.
 */
import { describe, expect, it } from 'vitest';
import type { Citation } from '../../src/canonical/index.ts';
import { StreamAnnotations } from './citations-stream.ts';

const spanned: Citation = { url: 'https://a', title: 'A', span: { start: 1, end: 3 } };
const whole: Citation = { url: 'https://w', title: 'W' };
const url = (c: Citation, start: number, end: number) => ({ type: 'url_citation', start_index: start, end_index: end, url: c.url, title: c.title });

describe('Responses stream annotations', () => {
  it('a citation with a span of a part with text: announced at once, numbered within the part', () => {
    const s = new StreamAnnotations();
    s.start();
    expect(s.inBlock).toBe(true);
    expect(s.cite(spanned, 4)).toEqual([[0, url(spanned, 1, 3)]]);
    expect(s.cite({ ...spanned, span: { start: 0, end: 2 } }, 5)).toEqual([[1, url(spanned, 0, 2)]]);
    expect(s.end(6)).toEqual({ added: [], all: [url(spanned, 1, 3), url(spanned, 0, 2)] });
    expect(s.inBlock).toBe(false);
  });

  it('one without a span, or before the part’s first text, waits for the part’s end (the whole text for no span)', () => {
    const s = new StreamAnnotations();
    s.start();
    expect(s.cite(whole, 4)).toEqual([]);
    expect(s.cite(spanned, undefined)).toEqual([]);
    expect(s.end(9)).toEqual({ added: [[0, url(whole, 0, 9)], [1, url(spanned, 1, 3)]], all: [url(whole, 0, 9), url(spanned, 1, 3)] });
    // The next part starts afresh: nothing waits, nothing written, numbering from 0.
    s.start();
    expect(s.end(2)).toEqual({ added: [], all: [] });
    expect(s.cite(spanned, 3)).toEqual([[0, url(spanned, 1, 3)]]);
  });

  it('a part whose length is not known announces none of its waiting citations, and drops them', () => {
    const s = new StreamAnnotations();
    s.start();
    s.cite(whole, undefined);
    expect(s.end(undefined)).toEqual({ added: [], all: [] });
    expect(s.inBlock).toBe(false);
    expect(s.end(5)).toEqual({ added: [], all: [] });
  });

  it('a late citation is added to the part that ended, after its annotations, spanning its text when it has no span', () => {
    const s = new StreamAnnotations();
    const earlier = url(spanned, 1, 3);
    const part: Record<string, unknown> = { type: 'output_text', text: 'Hello', annotations: [earlier] };
    expect(s.late(whole, part)).toEqual([[1, url(whole, 0, 5)]]);
    expect(part['annotations']).toEqual([earlier, url(whole, 0, 5)]);
    expect(s.late(spanned, part)).toEqual([[2, earlier]]);
    // A part without annotations or text: the first, covering nothing.
    expect(s.late(whole, { type: 'output_text' })).toEqual([[0, url(whole, 0, 0)]]);
    expect(s.late(whole, { type: 'output_text', text: ['ab', 'c'], annotations: {} })).toEqual([[0, url(whole, 0, 0)]]);
    // None when the citation names no page.
    expect(s.late({ title: 'T' }, part)).toEqual([]);
  });
});
