import { describe, expect, it } from 'vitest';
import type { Part, TextPart } from '../../src/canonical/index.ts';
import { citationsIn, decodeGrounding, encodeGrounding, groundedStretches } from './grounding.ts';
import { BBC, bytes, CAFE, PAGES, SENTENCE, UEFA } from '../../test/support/gemini-grounding.ts';

const text = (t: string, extra: Partial<TextPart> = {}): TextPart => ({ type: 'text', text: t, ...extra });
const decoded = (candidate: Record<string, unknown>, content: Part[] = []) => {
  decodeGrounding(candidate, content, 'r_0');
  return content;
};

describe('groundedStretches: groundingSupports as byte stretches with their pages', () => {
  it('each support: its segment, the pages of its chunk indices with title and quote', () => {
    const meta = {
      groundingChunks: PAGES,
      groundingSupports: [
        { segment: { startIndex: 0, endIndex: 10, text: 'Spain won ' }, groundingChunkIndices: [1, 0] },
        { segment: { startIndex: 10, endIndex: 12 }, groundingChunkIndices: [0] },
      ],
    };
    expect(groundedStretches(meta)).toStrictEqual([
      {
        start: 0,
        end: 10,
        citations: [
          { url: BBC, title: 'bbc.com', quote: 'Spain won ' },
          { url: UEFA, title: 'uefa.com', quote: 'Spain won ' },
        ],
      },
      { start: 10, end: 12, citations: [{ url: UEFA, title: 'uefa.com' }] },
    ]);
  });

  it('startIndex omitted (protobuf JSON leaves out a 0) counts from 0; endIndex omitted, or not after the start, is no stretch', () => {
    const meta = {
      groundingChunks: PAGES,
      groundingSupports: [
        { segment: { endIndex: 5 }, groundingChunkIndices: [0] },
        { segment: { startIndex: 5 }, groundingChunkIndices: [0] },
        { segment: { startIndex: 7, endIndex: 7 }, groundingChunkIndices: [0] },
        { segment: { startIndex: 9, endIndex: 8 }, groundingChunkIndices: [0] },
        { segment: { startIndex: '1', endIndex: 3 }, groundingChunkIndices: [0] },
        { segment: { startIndex: 4, endIndex: '9' }, groundingChunkIndices: [0] },
      ],
    };
    expect(groundedStretches(meta)).toStrictEqual([
      { start: 0, end: 5, citations: [{ url: UEFA, title: 'uefa.com' }] },
      { start: 0, end: 3, citations: [{ url: UEFA, title: 'uefa.com' }] },
    ]);
  });

  it('supports that are no objects or have no segment are skipped; a support without chunk indices cites nothing', () => {
    const meta = { groundingChunks: PAGES, groundingSupports: [null, 'x', { groundingChunkIndices: [0] }, { segment: 'x', groundingChunkIndices: [0] }, { segment: { startIndex: 1, endIndex: 2 } }, { segment: { startIndex: 2, endIndex: 3 }, groundingChunkIndices: 'x' }] };
    expect(groundedStretches(meta)).toStrictEqual([
      { start: 1, end: 2, citations: [] },
      { start: 2, end: 3, citations: [] },
    ]);
  });

  it('indices that are no numbers, out of range, or name a chunk without a web uri cite nothing; a page without title has none', () => {
    const meta = {
      groundingChunks: [{ web: { uri: UEFA } }, { retrievedContext: { uri: 'gs://x' } }, { web: { title: 'no uri' } }, null, { web: { uri: BBC, title: '' } }, { web: 'x' }],
      groundingSupports: [{ segment: { startIndex: 0, endIndex: 4, text: '' }, groundingChunkIndices: ['0', 9, 1, 2, 3, 5, 0, 4] }],
    };
    expect(groundedStretches(meta)).toStrictEqual([{ start: 0, end: 4, citations: [{ url: UEFA }, { url: BBC }] }]);
  });

  it('a uri, title or segment text that is no string is none', () => {
    const meta = {
      groundingChunks: [{ web: { uri: 7 } }, { web: { uri: UEFA, title: 8 } }],
      groundingSupports: [{ segment: { startIndex: 0, endIndex: 4, text: 9 }, groundingChunkIndices: [0, 1] }],
    };
    expect(groundedStretches(meta)).toStrictEqual([{ start: 0, end: 4, citations: [{ url: UEFA }] }]);
  });

  it('no supports, or supports and chunks that are no arrays: nothing', () => {
    expect(groundedStretches({})).toEqual([]);
    expect(groundedStretches({ groundingSupports: 'x' })).toEqual([]);
    expect(groundedStretches({ groundingChunks: 'x', groundingSupports: [{ segment: { startIndex: 0, endIndex: 1 }, groundingChunkIndices: [0] }] })).toStrictEqual([{ start: 0, end: 1, citations: [] }]);
  });
});

describe('citationsIn: a stretch on a text that starts at a byte of the whole', () => {
  it('the span in UTF-16 units of that text, every citation with it', () => {
    const stretch = { start: 100 + bytes('café '), end: 100 + bytes('café ☕'), citations: [{ url: UEFA }, { url: BBC, title: 'b' }] };
    const span = { start: 5, end: 6 };
    expect(citationsIn(stretch, 'café ☕ x', 100)).toStrictEqual([
      { url: UEFA, span },
      { url: BBC, title: 'b', span },
    ]);
  });
});

describe('decodeGrounding: groundingMetadata and urlContextMetadata as web search parts and citations', () => {
  it('one search part with every query and page, before the answer; citations on the text parts with UTF-16 spans', () => {
    const content = decoded(
      {
        groundingMetadata: {
          webSearchQueries: ['who won euro 2024', 7, 'euro 2024 final score'],
          groundingChunks: PAGES,
          groundingSupports: [
            { segment: { startIndex: 0, endIndex: bytes(SENTENCE), text: SENTENCE }, groundingChunkIndices: [0, 1] },
            { segment: { startIndex: bytes(SENTENCE), endIndex: bytes(SENTENCE + CAFE), text: CAFE }, groundingChunkIndices: [1] },
          ],
        },
      },
      [text(SENTENCE), { type: 'reasoning', text: 'hidden thought that counts no bytes' }, text(CAFE)],
    );
    expect(content[0]).toStrictEqual({ type: 'web-search', id: 'r_0_search', kind: 'search', queries: ['who won euro 2024', 'euro 2024 final score'], results: [{ url: UEFA, title: 'uefa.com' }, { url: BBC, title: 'bbc.com' }] });
    expect(content).toHaveLength(4);
    expect((content[1] as TextPart).citations).toStrictEqual([
      { url: UEFA, title: 'uefa.com', quote: SENTENCE, span: { start: 0, end: SENTENCE.length } },
      { url: BBC, title: 'bbc.com', quote: SENTENCE, span: { start: 0, end: SENTENCE.length } },
    ]);
    expect((content[3] as TextPart).citations).toStrictEqual([{ url: BBC, title: 'bbc.com', quote: CAFE, span: { start: 0, end: CAFE.length } }]);
  });

  it('a stretch goes to the text part it starts in (one starting on a boundary to the next part), kept citations stay', () => {
    const kept = { url: 'https://kept.example' };
    const content = decoded(
      {
        groundingMetadata: {
          groundingChunks: PAGES,
          groundingSupports: [
            { segment: { startIndex: 3, endIndex: 5 }, groundingChunkIndices: [1] },
            { segment: { startIndex: 2, endIndex: 3 }, groundingChunkIndices: [0] },
            { segment: { startIndex: 6, endIndex: 7 }, groundingChunkIndices: [0] },
          ],
        },
      },
      [text('abc'), text('déf', { citations: [kept] })],
    );
    expect((content[1] as TextPart).citations).toStrictEqual([{ url: UEFA, title: 'uefa.com', span: { start: 2, end: 3 } }]);
    expect((content[2] as TextPart).citations).toStrictEqual([
      kept,
      { url: BBC, title: 'bbc.com', span: { start: 0, end: 2 } },
      { url: UEFA, title: 'uefa.com', span: { start: 2, end: 3 } },
    ]);
  });

  it('with no text part, citations go nowhere; the search part still comes', () => {
    const content = decoded({ groundingMetadata: { groundingChunks: PAGES, groundingSupports: [{ segment: { startIndex: 0, endIndex: 1 }, groundingChunkIndices: [0] }] } });
    expect(content).toHaveLength(1);
    expect(content[0]).toMatchObject({ kind: 'search', results: [{ url: UEFA }, { url: BBC }] });
  });

  it('only queries: results empty; only pages: no queries key; pages without uri are no results', () => {
    expect(decoded({ groundingMetadata: { webSearchQueries: ['q'] } })).toStrictEqual([{ type: 'web-search', id: 'r_0_search', kind: 'search', queries: ['q'], results: [] }]);
    expect(decoded({ groundingMetadata: { webSearchQueries: [1], groundingChunks: [{ web: { title: 't' } }, { web: { uri: BBC } }] } })).toStrictEqual([{ type: 'web-search', id: 'r_0_search', kind: 'search', results: [{ url: BBC }] }]);
  });

  it('metadata with neither queries nor pages, or that is no object: no search part, text untouched', () => {
    const t = text('abc');
    expect(decoded({ groundingMetadata: { webSearchQueries: 'q', searchEntryPoint: { renderedContent: '<div/>' } } }, [t])).toStrictEqual([text('abc')]);
    expect(decoded({ groundingMetadata: [PAGES] }, [t])).toStrictEqual([text('abc')]);
    expect(decoded({ groundingMetadata: 'x', urlContextMetadata: 'x' }, [])).toEqual([]);
  });

  it('URL context: one fetch part per page read (ids by position), a failed one with its status as the error', () => {
    const content = decoded(
      {
        groundingMetadata: { webSearchQueries: ['q'] },
        urlContextMetadata: {
          urlMetadata: [
            { retrievedUrl: 'https://a.example', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' },
            { urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' },
            null,
            { retrievedUrl: 'https://b.example', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_PAYWALL' },
            { retrievedUrl: 'https://c.example' },
            { retrievedUrl: 5 },
          ],
        },
      },
      [text('x')],
    );
    expect(content).toStrictEqual([
      { type: 'web-search', id: 'r_0_search', kind: 'search', queries: ['q'], results: [] },
      { type: 'web-search', id: 'r_0_fetch0', kind: 'fetch', url: 'https://a.example', results: [{ url: 'https://a.example' }] },
      { type: 'web-search', id: 'r_0_fetch3', kind: 'fetch', url: 'https://b.example', results: [], error: 'URL_RETRIEVAL_STATUS_PAYWALL' },
      { type: 'web-search', id: 'r_0_fetch4', kind: 'fetch', url: 'https://c.example', results: [{ url: 'https://c.example' }] },
      text('x'),
    ]);
  });

  it('urlMetadata that is no array, or urlContextMetadata no object: no fetch part', () => {
    expect(decoded({ urlContextMetadata: { urlMetadata: { retrievedUrl: 'https://a.example' } } })).toEqual([]);
    expect(decoded({ urlContextMetadata: [{ urlMetadata: [{ retrievedUrl: 'https://a.example' }] }] })).toEqual([]);
  });
});

describe('encodeGrounding: another vendor’s searches and citations as Gemini metadata', () => {
  it('queries in order, pages once each (title defaults to the url), supports as byte segments of the whole text', () => {
    const content: Part[] = [
      { type: 'web-search', id: 's1', kind: 'search', queries: ['a', 'b'], results: [{ url: UEFA, title: 'uefa.com' }, { url: BBC }] },
      { type: 'web-search', id: 's2', kind: 'search', results: [{ url: UEFA, title: 'again' }] },
      { type: 'web-search', id: 's3', kind: 'search', queries: ['c'], results: [] },
      text(SENTENCE, { citations: [{ url: BBC, span: { start: 10, end: SENTENCE.length } }] }),
      { type: 'reasoning', text: 'no bytes of the answer' },
      text(CAFE, { citations: [{ url: 'https://new.example', title: 'New', span: { start: 19, end: 24 } }, { url: UEFA }] }),
    ];
    const cafe = CAFE.slice(19, 24);
    expect(cafe).toBe('café ');
    const start2 = bytes(SENTENCE) + bytes(CAFE.slice(0, 19));
    expect(encodeGrounding(content)).toStrictEqual({
      groundingMetadata: {
        webSearchQueries: ['a', 'b', 'c'],
        groundingChunks: [{ web: { uri: UEFA, title: 'uefa.com' } }, { web: { uri: BBC, title: BBC } }, { web: { uri: 'https://new.example', title: 'New' } }],
        groundingSupports: [
          { segment: { startIndex: 10, endIndex: bytes(SENTENCE), text: SENTENCE.slice(10) }, groundingChunkIndices: [1] },
          { segment: { startIndex: start2, endIndex: start2 + bytes(cafe), text: cafe }, groundingChunkIndices: [2] },
          { segment: { startIndex: bytes(SENTENCE), endIndex: bytes(SENTENCE + CAFE), text: CAFE }, groundingChunkIndices: [0] },
        ],
      },
    });
  });

  it('citations without a url, or Gemini’s own (they ride in the extras), make no support', () => {
    const content: Part[] = [text('abc', { citations: [{ title: 'no url', span: { start: 0, end: 1 } }, { url: UEFA, raw: { dialect: 'gemini', value: {} } }, { url: BBC, raw: { dialect: 'anthropic', value: {} }, span: { start: 1, end: 2 } }] })];
    expect(encodeGrounding(content)).toStrictEqual({
      groundingMetadata: { groundingChunks: [{ web: { uri: BBC, title: BBC } }], groundingSupports: [{ segment: { startIndex: 1, endIndex: 2, text: 'b' }, groundingChunkIndices: [0] }] },
    });
  });

  it('only a search: no supports key; only pages read: urlContextMetadata alone, a failed read as an error', () => {
    expect(encodeGrounding([{ type: 'web-search', id: 's', kind: 'search', queries: ['q'], results: [] }, text('x')])).toStrictEqual({ groundingMetadata: { webSearchQueries: ['q'], groundingChunks: [] } });
    expect(
      encodeGrounding([
        { type: 'web-search', id: 'f1', kind: 'fetch', url: 'https://a.example', results: [] },
        { type: 'web-search', id: 'f2', kind: 'fetch', results: [{ url: 'https://b.example' }], error: 'unavailable' },
        { type: 'web-search', id: 'f3', kind: 'fetch', results: [] },
        text('x'),
      ]),
    ).toStrictEqual({
      urlContextMetadata: {
        urlMetadata: [
          { retrievedUrl: 'https://a.example', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' },
          { retrievedUrl: 'https://b.example', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_ERROR' },
          { retrievedUrl: '', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' },
        ],
      },
    });
  });

  it('nothing searched or cited: nothing', () => {
    expect(encodeGrounding([text('abc'), text('d', { citations: [] })])).toStrictEqual({});
    expect(encodeGrounding([])).toStrictEqual({});
  });

  it('a decoded answer encodes back to the same metadata', () => {
    const meta = {
      webSearchQueries: ['who won euro 2024'],
      groundingChunks: PAGES,
      groundingSupports: [{ segment: { startIndex: bytes(SENTENCE), endIndex: bytes(SENTENCE + CAFE), text: CAFE }, groundingChunkIndices: [1] }],
    };
    const content = decoded({ groundingMetadata: meta }, [text(SENTENCE), text(CAFE)]);
    expect(encodeGrounding(content)).toStrictEqual({ groundingMetadata: meta });
  });
});
