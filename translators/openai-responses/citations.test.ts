import { describe, expect, it } from 'vitest';
import type { Citation } from '../../src/canonical/index.ts';
import { decodeAnnotation, encodeAnnotations } from './citations.ts';

const raw = (value: unknown) => ({ dialect: 'openai-responses' as const, value });

describe('Responses annotations → canonical citations', () => {
  it('url_citation: url, title, span; file citations: the file name as title', () => {
    const url = { type: 'url_citation', url: 'https://a', title: 'A', start_index: 0, end_index: 4 };
    expect(decodeAnnotation(url)).toEqual({ url: 'https://a', title: 'A', span: { start: 0, end: 4 }, raw: { dialect: 'openai-responses', value: url } });
    const file = { type: 'file_citation', file_id: 'f', filename: 'notes.pdf', index: 3 };
    expect(decodeAnnotation(file)).toEqual({ title: 'notes.pdf', raw: { dialect: 'openai-responses', value: file } });
    const container = { type: 'container_file_citation', container_id: 'c', file_id: 'f', filename: 'x.csv', start_index: 1, end_index: 2 };
    expect(decodeAnnotation(container)).toMatchObject({ title: 'x.csv', span: { start: 1, end: 2 } });
    expect(decodeAnnotation('x')).toEqual({ raw: { dialect: 'openai-responses', value: 'x' } });
  });

  it('no object: only the annotation as it was (no fields read from it)', () => {
    for (const a of [null, undefined, 0, 'x', 7]) expect(decodeAnnotation(a)).toStrictEqual({ raw: raw(a) });
  });

  it('a span needs both ends as whole numbers; fields of the wrong type are left out', () => {
    const cases = [
      { type: 'url_citation', url: 5, title: ['A'], start_index: '1', end_index: '2' },
      { type: 'url_citation', start_index: 1.5, end_index: 3 },
      { type: 'url_citation', start_index: 1 },
      { type: 'url_citation', end_index: 2 },
    ];
    for (const a of cases) expect(decodeAnnotation(a)).toStrictEqual({ url: undefined, title: undefined, raw: raw(a) });
    const file = { type: 'file_citation', filename: 3, start_index: 0, end_index: 2.5 };
    expect(decodeAnnotation(file)).toStrictEqual({ title: undefined, raw: raw(file) });
  });
});

describe('canonical citations → Responses annotations', () => {
  it('its own annotations as they were, before any other', () => {
    const own = { type: 'file_citation', file_id: 'f', filename: 'a.pdf', index: 0 };
    expect(encodeAnnotations([{ url: 'https://b', raw: raw(own) }, { url: 'https://c' }], 9)).toEqual([own]);
  });

  it('another vendor’s page citations as url_citation: title else the url, no span = the whole text; no url = none', () => {
    const citations: Citation[] = [
      { url: 'https://a', title: 'A', span: { start: 2, end: 5 } },
      { url: 'https://b' },
      { title: 'no page', span: { start: 0, end: 1 } },
      { url: 'https://c', title: 'C', raw: { dialect: 'anthropic', value: {} } },
    ];
    expect(encodeAnnotations(citations, 12)).toStrictEqual([
      { type: 'url_citation', start_index: 2, end_index: 5, url: 'https://a', title: 'A' },
      { type: 'url_citation', start_index: 0, end_index: 12, url: 'https://b', title: 'https://b' },
      { type: 'url_citation', start_index: 0, end_index: 12, url: 'https://c', title: 'C' },
    ]);
    expect(encodeAnnotations([{ url: 'https://b' }])).toStrictEqual([{ type: 'url_citation', start_index: 0, end_index: 0, url: 'https://b', title: 'https://b' }]);
    expect(encodeAnnotations(undefined, 3)).toStrictEqual([]);
  });
});
