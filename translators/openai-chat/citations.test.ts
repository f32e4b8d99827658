import { describe, expect, it } from 'vitest';
import { decodeAnnotation, encodeAnnotations } from './citations.ts';

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
