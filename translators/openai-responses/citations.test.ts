import { describe, expect, it } from 'vitest';
import { decodeAnnotation } from './citations.ts';

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
});
