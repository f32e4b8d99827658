/**
 * StreamGrounding: what a Gemini caller's stream says on its last chunk about searches and
 * citations, per choice, with each citation moved from its text block to the candidate's whole
 * text (and from there to UTF-8 byte segments, grounding.ts).
 */
import { describe, expect, it } from 'vitest';
import type { WebSearchPart } from '../../src/canonical/index.ts';
import { StreamGrounding } from './citations-stream.ts';

const search: WebSearchPart = { type: 'web-search', id: 's', kind: 'search', queries: ['q'], results: [{ url: 'https://a.example', title: 'A' }] };

describe('StreamGrounding', () => {
  it('a choice it never heard of has no metadata', () => {
    const g = new StreamGrounding();
    g.search(0, search);
    expect(g.metadata(1)).toEqual({});
  });

  it('searches alone: queries and pages, no supports', () => {
    const g = new StreamGrounding();
    g.search(0, search);
    g.search(0, { type: 'web-search', id: 'f', kind: 'fetch', url: 'https://c.example', results: [] });
    expect(g.metadata(0)).toEqual({
      groundingMetadata: { webSearchQueries: ['q'], groundingChunks: [{ web: { uri: 'https://a.example', title: 'A' } }] },
      urlContextMetadata: { urlMetadata: [{ retrievedUrl: 'https://c.example', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }] },
    });
  });

  it('a citation’s span in its block moves by where the block began in the whole text', () => {
    const g = new StreamGrounding();
    g.search(0, search);
    g.textStart(0);
    g.text(0, 'Héllo ');
    g.textEnd(0);
    g.textStart(0);
    g.text(0, 'wör');
    g.text(0, 'ld');
    g.cite(0, { url: 'https://a.example', span: { start: 1, end: 4 } });
    g.textEnd(0);
    // 'Héllo ' is 7 bytes; 'örl' is bytes 1..5 of the second block, so 8..12 of the whole text.
    expect(g.metadata(0).groundingMetadata).toEqual({
      webSearchQueries: ['q'],
      groundingChunks: [{ web: { uri: 'https://a.example', title: 'A' } }],
      groundingSupports: [{ segment: { startIndex: 8, endIndex: 12, text: 'örl' }, groundingChunkIndices: [0] }],
    });
  });

  it('a citation with no span covers its whole block, from where it began to where it ended, once', () => {
    const g = new StreamGrounding();
    g.textStart(0);
    g.text(0, 'ab');
    g.textEnd(0);
    g.textStart(0);
    g.cite(0, { url: 'https://b.example', title: 'B' });
    g.text(0, 'cdé');
    g.textEnd(0);
    g.textEnd(0);
    g.text(0, 'after');
    expect(g.metadata(0)).toEqual({
      groundingMetadata: {
        groundingChunks: [{ web: { uri: 'https://b.example', title: 'B' } }],
        groundingSupports: [{ segment: { startIndex: 2, endIndex: 6, text: 'cdé' }, groundingChunkIndices: [0] }],
      },
    });
  });

  it('a citation waiting for its block’s end says nothing before it', () => {
    const g = new StreamGrounding();
    g.textStart(0);
    g.text(0, 'ab');
    g.cite(0, { url: 'https://b.example' });
    expect(g.metadata(0)).toEqual({});
  });

  it('text said before any block counts in the segments (a refusal, say)', () => {
    const g = new StreamGrounding();
    g.text(0, 'xyz');
    g.textStart(0);
    g.text(0, 'ab');
    g.cite(0, { url: 'https://b.example', span: { start: 0, end: 1 } });
    expect(g.metadata(0).groundingMetadata).toMatchObject({ groundingSupports: [{ segment: { startIndex: 3, endIndex: 4, text: 'a' }, groundingChunkIndices: [0] }] });
  });

  it('choices keep their own text, searches and citations', () => {
    const g = new StreamGrounding();
    g.search(1, search);
    g.textStart(0);
    g.text(0, 'zero text');
    g.textStart(1);
    g.text(1, 'one');
    g.cite(1, { url: 'https://a.example', span: { start: 0, end: 3 } });
    g.textEnd(1);
    g.textEnd(0);
    expect(g.metadata(0)).toEqual({});
    expect(g.metadata(1)).toEqual({
      groundingMetadata: {
        webSearchQueries: ['q'],
        groundingChunks: [{ web: { uri: 'https://a.example', title: 'A' } }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: 3, text: 'one' }, groundingChunkIndices: [0] }],
      },
    });
  });
});
