import { describe, expect, it } from 'vitest';
import { decodeCitation, encodeCitations } from './citations.ts';

describe('Anthropic citations ⇄ canonical', () => {
  it('reads each kind into neutral fields and keeps it whole for Anthropic', () => {
    const web = { type: 'web_search_result_location', url: 'https://a', title: 'A', cited_text: 'quoted', encrypted_index: 'e' };
    expect(decodeCitation(web)).toEqual({ url: 'https://a', title: 'A', quote: 'quoted', raw: { dialect: 'anthropic', value: web } });
    const doc = { type: 'char_location', cited_text: 'q', document_index: 0, document_title: 'Doc', start_char_index: 0, end_char_index: 1 };
    expect(decodeCitation(doc)).toEqual({ title: 'Doc', quote: 'q', raw: { dialect: 'anthropic', value: doc } });
    const result = { type: 'search_result_location', source: 'https://s', title: 'S', cited_text: 'c', search_result_index: 0 };
    expect(decodeCitation(result)).toMatchObject({ url: 'https://s', title: 'S', quote: 'c' });
    expect(decodeCitation(null)).toEqual({ raw: { dialect: 'anthropic', value: null } });
    expect(encodeCitations([decodeCitation(web), { url: 'https://b', raw: { dialect: 'openai-chat', value: {} } }])).toEqual([web]);
    expect(encodeCitations([{ url: 'https://b' }])).toBeNull();
  });

  it('what is not a citation object, or fields not of their type, keep only the raw value', () => {
    for (const c of ['x', 3, undefined]) expect(decodeCitation(c)).toStrictEqual({ raw: { dialect: 'anthropic', value: c } });
    const odd = { type: 'web_search_result_location', url: 1, title: 2, cited_text: 3 };
    expect(decodeCitation(odd)).toStrictEqual({ url: undefined, title: undefined, raw: { dialect: 'anthropic', value: odd } });
    const doc = { type: 'page_location', document_title: 4 };
    expect(decodeCitation(doc)).toStrictEqual({ title: undefined, raw: { dialect: 'anthropic', value: doc } });
  });
});
