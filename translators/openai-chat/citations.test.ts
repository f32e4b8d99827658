import { describe, expect, it } from 'vitest';
import { citedSearch, decodeAnnotation, encodeAnnotations } from './citations.ts';

describe('Chat Completions annotations ⇄ canonical citations', () => {
  it('a url_citation gives url, title and span, and comes back whole', () => {
    const a = { type: 'url_citation', url_citation: { url: 'https://a', title: 'A', start_index: 2, end_index: 9 } };
    const c = decodeAnnotation(a);
    expect(c).toEqual({ url: 'https://a', title: 'A', span: { start: 2, end: 9 }, raw: { dialect: 'openai-chat', value: a } });
    expect(encodeAnnotations([c])).toEqual([a]);
  });

  it('no span without both indexes; an annotation of another kind is kept, unread', () => {
    expect(decodeAnnotation({ type: 'url_citation', url_citation: { url: 'u', start_index: 1 } })).toEqual({ url: 'u', title: undefined, raw: expect.anything() });
    expect(decodeAnnotation({ type: 'other' })).toEqual({ raw: { dialect: 'openai-chat', value: { type: 'other' } } });
    // Another vendor's citation of a page: a url_citation, its span moved to where the part starts.
    expect(encodeAnnotations([{ url: 'u', span: { start: 1, end: 3 }, raw: { dialect: 'openai-responses', value: {} } }], 10, 5)).toEqual([
      { type: 'url_citation', url_citation: { start_index: 11, end_index: 13, url: 'u', title: 'u' } },
    ]);
    expect(encodeAnnotations([{ url: 'u', title: 'U' }], 4, 6)).toEqual([{ type: 'url_citation', url_citation: { start_index: 4, end_index: 10, url: 'u', title: 'U' } }]);
    expect(encodeAnnotations([{ title: 'no page' }])).toEqual([]);
  });
});

describe('annotations of the wrong shape', () => {
  const raw = (value: unknown) => ({ raw: { dialect: 'openai-chat', value } });

  it('null, a string, or a url_citation that is null or a string: kept raw, nothing read', () => {
    for (const a of [null, 'url_citation', { type: 'url_citation', url_citation: null }, { type: 'url_citation', url_citation: 'https://a' }]) {
      expect(decodeAnnotation(a)).toStrictEqual(raw(a));
    }
  });

  it('a url or title that is not a string, an index that is not an integer, or one index alone: not read', () => {
    const a = { type: 'url_citation', url_citation: { url: 7, title: ['A'], start_index: '1', end_index: 4 } };
    expect(decodeAnnotation(a)).toStrictEqual({ url: undefined, title: undefined, ...raw(a) });
    const b = { type: 'url_citation', url_citation: { url: 'u', start_index: 1.5, end_index: 4 } };
    expect(decodeAnnotation(b)).toStrictEqual({ url: 'u', title: undefined, ...raw(b) });
    const c = { type: 'url_citation', url_citation: { url: 'u', end_index: 4 } };
    expect(decodeAnnotation(c)).toStrictEqual({ url: 'u', title: undefined, ...raw(c) });
  });
});

describe('the search behind cited pages', () => {
  it('each page once, in order, with its title when it has one; citations without a page are not results', () => {
    const search = citedSearch([{ url: 'https://a', title: 'A' }, { title: 'no page' }, { url: 'https://b' }, { url: 'https://a', title: 'A again' }], 'ws_1');
    expect(search).toStrictEqual({ type: 'web-search', id: 'ws_1', kind: 'search', results: [{ url: 'https://a', title: 'A' }, { url: 'https://b' }] });
  });

  it('no search when no citation names a page', () => {
    expect(citedSearch([], 'ws_1')).toBeUndefined();
    expect(citedSearch([{ title: 'T' }], 'ws_1')).toBeUndefined();
  });
});
