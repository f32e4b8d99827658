/**
 * Citations in a stream: annotations at offsets of the whole message text ⇄ citations of the
 * open text block, for each choice apart.
 */
import { describe, expect, it } from 'vitest';
import type { Citation } from '../../src/canonical/index.ts';
import { ChatStreamAnnotations, ChatStreamCitations } from './citations-stream.ts';

const ann = (url: string, start: number, end: number) => ({ type: 'url_citation', url_citation: { start_index: start, end_index: end, url, title: url } });
const cite = (url: string, span?: { start: number; end: number }): Citation => ({ url, ...(span ? { span } : {}) });

describe('caller side: canonical citations → delta.annotations', () => {
  it('a spanned citation of the open block at once, moved past the earlier blocks and the paragraph break', () => {
    const a = new ChatStreamAnnotations();
    a.start(0);
    a.text(0, 'Hello');
    expect(a.end(0)).toEqual([]);
    a.start(0);
    a.text(0, '\n\nWorld', 2); // the block's own text starts at 7
    expect(a.cite(0, cite('s', { start: 0, end: 5 }))).toEqual([ann('s', 7, 12)]);
  });

  it('a citation without a span waits for the block to end and covers all of it', () => {
    const a = new ChatStreamAnnotations();
    a.start(0);
    a.text(0, 'Hi. ');
    a.end(0);
    a.start(0);
    a.text(0, 'World');
    expect(a.cite(0, cite('w'))).toEqual([]);
    a.text(0, '!!');
    expect(a.end(0)).toEqual([ann('w', 4, 11)]);
  });

  it('after a block ends, its citations are sent at once, at its place; a new block starts afresh', () => {
    const a = new ChatStreamAnnotations();
    a.start(0);
    a.text(0, 'abc');
    a.end(0);
    a.start(0);
    a.text(0, 'defgh');
    a.end(0);
    expect(a.cite(0, cite('late'))).toEqual([ann('late', 3, 8)]);
    expect(a.cite(0, cite('late', { start: 1, end: 2 }))).toEqual([ann('late', 4, 5)]);
    a.start(0);
    expect(a.cite(0, cite('next', { start: 0, end: 1 }))).toEqual([]);
    a.text(0, 'ij');
    expect(a.end(0)).toEqual([ann('next', 8, 9)]);
  });

  it('a block that said nothing sends none of its citations, and they do not wait for the next block', () => {
    const a = new ChatStreamAnnotations();
    a.start(0);
    expect(a.cite(0, cite('none'))).toEqual([]);
    expect(a.end(0)).toEqual([]);
    a.start(0);
    a.text(0, 'xy');
    expect(a.end(0)).toEqual([]);
    expect(a.cite(0, cite('after'))).toEqual([ann('after', 0, 2)]);
  });

  it('choices are apart', () => {
    const a = new ChatStreamAnnotations();
    a.start(0);
    a.text(0, 'long text');
    a.start(1);
    a.text(1, 'ab');
    expect(a.cite(1, cite('one', { start: 0, end: 2 }))).toEqual([ann('one', 0, 2)]);
  });
});

describe('upstream side: delta.annotations → citations of the open block', () => {
  it('spans moved to the open block, never before its start; before its first text, the block starts where the message is', () => {
    const c = new ChatStreamCitations();
    c.text(0, 'Hello');
    c.open(0);
    expect(c.cite(0, [ann('a', 5, 9)]).map((x) => x.span)).toEqual([{ start: 0, end: 4 }]);
    c.text(0, ' world');
    expect(c.cite(0, [ann('b', 6, 11), ann('c', 2, 4)]).map((x) => x.span)).toEqual([
      { start: 1, end: 6 },
      { start: 0, end: 0 },
    ]);
    expect(c.cite(0, [{ type: 'other' }])).toEqual([{ raw: { dialect: 'openai-chat', value: { type: 'other' } } }]);
  });

  it('the search behind a choice: its cited pages, once each; none for a choice that cited nothing', () => {
    const c = new ChatStreamCitations();
    c.text(0, 'abcdef');
    c.cite(0, [ann('https://a', 0, 2)]);
    c.cite(0, [ann('https://b', 2, 4), ann('https://a', 4, 6)]);
    expect(c.search(0, 'ws_1')).toEqual({
      type: 'web-search',
      id: 'ws_1',
      kind: 'search',
      results: [
        { url: 'https://a', title: 'https://a' },
        { url: 'https://b', title: 'https://b' },
      ],
    });
    expect(c.search(1, 'ws_2')).toBeUndefined();
  });
});
