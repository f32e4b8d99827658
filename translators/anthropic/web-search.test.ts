/** Hosted web searches and fetches ⇄ Anthropic's server_tool_use and result blocks, and text citing them. */
import { describe, expect, it } from 'vitest';
import { decodeSignature, encodeSignature, type WebSearchPart } from '../../src/canonical/index.ts';
import { citedTextBlocks, decodeWebSearch, encodeWebSearch, isWebToolUse, serverToolUse } from './web-search.ts';

const DIRECT = { type: 'direct' };

describe('isWebToolUse', () => {
  it('a server tool use named web_search or web_fetch', () => {
    expect(isWebToolUse({ type: 'server_tool_use', name: 'web_search' })).toBe(true);
    expect(isWebToolUse({ type: 'server_tool_use', name: 'web_fetch' })).toBe(true);
    expect(isWebToolUse({ type: 'server_tool_use', name: 'code_execution' })).toBe(false);
    expect(isWebToolUse({ type: 'tool_use', name: 'web_search' })).toBe(false);
  });
});

describe('decodeWebSearch', () => {
  const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'weather oslo' } };

  it('Anthropic’s own search: query, results, and both blocks kept raw', () => {
    const result = {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: [
        { type: 'web_search_result', url: 'https://a', title: 'A', encrypted_content: 'EqAnthropic', page_age: '2 days ago' },
        { type: 'web_search_result', url: 'https://b', title: '', encrypted_content: 'Eq2' },
        { type: 'web_search_result', title: 'no url' },
        'junk',
      ],
    };
    expect(decodeWebSearch(use, result)).toEqual({
      type: 'web-search',
      id: 'srvtoolu_1',
      kind: 'search',
      queries: ['weather oslo'],
      results: [{ url: 'https://a', title: 'A', pageAge: '2 days ago' }, { url: 'https://b' }],
      raw: { dialect: 'anthropic', value: [use, result] },
    });
  });

  it('fields not of their type are left out; a result with no encrypted_content is not ours', () => {
    const odd = { type: 'server_tool_use', id: 7, name: 'web_search', input: { query: 5, url: 6 } };
    const result = { type: 'web_search_tool_result', content: [{ type: 'web_search_result', url: 'https://a', title: 7, page_age: 3 }] };
    expect(decodeWebSearch(odd, result)).toStrictEqual({ type: 'web-search', id: '', kind: 'search', results: [{ url: 'https://a' }], raw: { dialect: 'anthropic', value: [odd, result] } });
  });

  it('a use with no result yet, no id and no input', () => {
    expect(decodeWebSearch({ type: 'server_tool_use', name: 'web_search' }, undefined)).toEqual({
      type: 'web-search',
      id: '',
      kind: 'search',
      results: [],
      raw: { dialect: 'anthropic', value: [{ type: 'server_tool_use', name: 'web_search' }] },
    });
  });

  it('our own carrier in a result: another vendor’s search, not kept raw', () => {
    const result = { type: 'web_search_tool_result', content: [{ type: 'web_search_result', url: 'https://a', title: 'A', encrypted_content: encodeSignature({ origin: 'openai', value: 'https://a' }) }] };
    const part = decodeWebSearch(use, result);
    expect(part).not.toHaveProperty('raw');
    expect(part.results).toEqual([{ url: 'https://a', title: 'A' }]);
  });

  it('an error result', () => {
    const part = decodeWebSearch(use, { type: 'web_search_tool_result', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } });
    expect(part).toMatchObject({ error: 'max_uses_exceeded', results: [] });
  });

  it('a fetch: its url, the page read and its title', () => {
    const fetchUse = { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_fetch', input: { url: 'https://p' } };
    const result = { type: 'web_fetch_tool_result', content: { type: 'web_fetch_result', url: 'https://p/', content: { type: 'document', title: 'P' } } };
    expect(decodeWebSearch(fetchUse, result)).toEqual({
      type: 'web-search',
      id: 'srvtoolu_2',
      kind: 'fetch',
      url: 'https://p',
      results: [{ url: 'https://p/', title: 'P' }],
      raw: { dialect: 'anthropic', value: [fetchUse, result] },
    });
    const untitled = decodeWebSearch(fetchUse, { content: { type: 'web_fetch_result', url: 'https://p/', content: 'x' } });
    expect(untitled.results).toEqual([{ url: 'https://p/' }]);
    const noUrl = decodeWebSearch(fetchUse, { content: { type: 'web_fetch_result' } });
    expect(noUrl.results).toEqual([]);
    expect(decodeWebSearch(fetchUse, { content: { type: 'web_fetch_tool_error', error_code: 'url_not_accessible', url: 'https://p' } })).toMatchObject({ error: 'url_not_accessible', results: [] });
  });
});

describe('encodeWebSearch', () => {
  it('Anthropic’s own blocks go back as they were', () => {
    const blocks = [{ type: 'server_tool_use' }, { type: 'web_search_tool_result' }];
    expect(encodeWebSearch({ type: 'web-search', id: 'x', kind: 'search', results: [], raw: { dialect: 'anthropic', value: blocks } })).toBe(blocks);
  });

  it('another vendor’s search in Anthropic’s shape, with our carrier of each page', () => {
    const part: WebSearchPart = {
      type: 'web-search',
      id: 'ws_1.a',
      kind: 'search',
      queries: ['a', 'b'],
      results: [{ url: 'https://a', title: 'A', pageAge: 'today' }, { url: 'https://b' }],
      raw: { dialect: 'openai-responses', value: {} },
    };
    const [use, result] = encodeWebSearch(part) as Array<Record<string, unknown>>;
    expect(use).toEqual({ type: 'server_tool_use', id: 'srvtoolu_ws_1a', name: 'web_search', input: { query: 'a | b' }, caller: DIRECT });
    const content = result!.content as Array<Record<string, unknown>>;
    expect(result).toMatchObject({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_ws_1a', caller: DIRECT });
    expect(content.map(({ encrypted_content: _, ...r }) => r)).toEqual([
      { type: 'web_search_result', url: 'https://a', title: 'A', page_age: 'today' },
      { type: 'web_search_result', url: 'https://b', title: 'https://b', page_age: null },
    ]);
    expect(decodeSignature(content[0]!.encrypted_content as string)).toEqual({ origin: 'openai', value: 'https://a' });
  });

  it('the origin follows the dialect that searched; Gemini when none is known', () => {
    const origin = (raw?: WebSearchPart['raw']) => {
      const [, result] = encodeWebSearch({ type: 'web-search', id: 'srvtoolu_k', kind: 'search', results: [{ url: 'u' }], ...(raw && { raw }) }) as Array<Record<string, unknown>>;
      return decodeSignature((result!.content as Array<{ encrypted_content: string }>)[0]!.encrypted_content)?.origin;
    };
    expect(origin({ dialect: 'openai-chat', value: 0 })).toBe('openai');
    expect(origin({ dialect: 'gemini-interactions', value: 0 })).toBe('gemini');
    expect(origin(undefined)).toBe('gemini');
  });

  it('ids: a server tool’s kept, others prefixed and cleaned, an empty one made up; no queries, an empty query', () => {
    const [use] = encodeWebSearch({ type: 'web-search', id: 'srvtoolu_k', kind: 'search', results: [] }) as Array<Record<string, unknown>>;
    expect(use).toMatchObject({ id: 'srvtoolu_k', input: { query: '' } });
    expect((encodeWebSearch({ type: 'web-search', id: '!!', kind: 'search', results: [] })[0] as { id: string }).id).toBe('srvtoolu_0');
  });

  it('a failed search: the error result', () => {
    const [, result] = encodeWebSearch({ type: 'web-search', id: 'srvtoolu_k', kind: 'search', results: [{ url: 'u' }], error: 'unavailable' }) as Array<Record<string, unknown>>;
    expect(result!.content).toEqual({ type: 'web_search_tool_result_error', error_code: 'unavailable' });
  });

  it('a fetch: web_fetch with its url, the page as a document', () => {
    const part: WebSearchPart = { type: 'web-search', id: 'srvtoolu_f', kind: 'fetch', url: 'https://p', results: [{ url: 'https://p/', title: 'P' }] };
    expect(encodeWebSearch(part)).toEqual([
      { type: 'server_tool_use', id: 'srvtoolu_f', name: 'web_fetch', input: { url: 'https://p' }, caller: DIRECT },
      {
        type: 'web_fetch_tool_result',
        tool_use_id: 'srvtoolu_f',
        content: { type: 'web_fetch_result', url: 'https://p/', retrieved_at: null, content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '' }, title: 'P', citations: null } },
        caller: DIRECT,
      },
    ]);
  });

  it('a fetch with no url takes the page’s; with no page, the url asked; with neither, empty; failed, the error', () => {
    const blocks = (p: Partial<WebSearchPart>) => encodeWebSearch({ type: 'web-search', id: 'srvtoolu_f', kind: 'fetch', results: [], ...p }) as Array<Record<string, any>>;
    expect(blocks({ results: [{ url: 'https://r' }] })[0]!.input).toEqual({ url: 'https://r' });
    expect(blocks({ results: [{ url: 'https://r' }] })[1]!.content).toMatchObject({ url: 'https://r', content: { title: null } });
    expect(blocks({ url: 'https://q' })[1]!.content.url).toBe('https://q');
    expect(blocks({})[0]!.input).toEqual({ url: '' });
    expect(blocks({})[1]!.content.url).toBe('');
    expect(blocks({ url: 'https://q', error: 'too_many_requests' })[1]!.content).toEqual({ type: 'web_fetch_tool_error', error_code: 'too_many_requests' });
  });
});

describe('citedTextBlocks', () => {
  const own = { type: 'web_search_result_location', url: 'https://a', cited_text: 'x', encrypted_index: 'E' };

  it('uncited text, or Anthropic’s own citations: one block as it was', () => {
    expect(citedTextBlocks({ type: 'text', text: 'hi' })).toEqual([{ type: 'text', text: 'hi', citations: null }]);
    expect(citedTextBlocks({ type: 'text', text: '' })).toEqual([{ type: 'text', text: '', citations: null }]);
    expect(citedTextBlocks({ type: 'text', text: '', citations: [] })).toEqual([{ type: 'text', text: '', citations: null }]);
    expect(citedTextBlocks({ type: 'text', text: 'hi', citations: [{ url: 'https://a', raw: { dialect: 'anthropic', value: own } }] })).toEqual([{ type: 'text', text: 'hi', citations: [own] }]);
    expect(citedTextBlocks({ type: 'text', text: 'hi', citations: [{ title: 'no url', raw: { dialect: 'gemini', value: 0 } }] })).toEqual([{ type: 'text', text: 'hi', citations: null }]);
  });

  it('spans cut the text; each stretch cites the pages covering it', () => {
    const blocks = citedTextBlocks({
      type: 'text',
      text: 'One. Two. Three.',
      citations: [
        { url: 'https://a', title: 'A', span: { start: 5, end: 9 }, raw: { dialect: 'openai-responses', value: 0 } },
        { url: 'https://b', span: { start: 5, end: 16 }, quote: 'said', raw: { dialect: 'gemini', value: 0 } },
      ],
    });
    const loc = (b: (typeof blocks)[number]) => (b.citations ?? []).map((c) => { const { encrypted_index, ...rest } = c as Record<string, unknown>; return { ...rest, origin: decodeSignature(encrypted_index as string) }; });
    expect(blocks.map((b) => b.text)).toEqual(['One. ', 'Two.', ' Three.']);
    expect(blocks[0]!.citations).toBeNull();
    expect(loc(blocks[1]!)).toEqual([
      { type: 'web_search_result_location', url: 'https://a', title: 'A', cited_text: 'Two.', origin: { origin: 'openai', value: 'https://a' } },
      { type: 'web_search_result_location', url: 'https://b', title: null, cited_text: 'said', origin: { origin: 'gemini', value: 'https://b' } },
    ]);
    expect(loc(blocks[2]!)).toEqual([{ type: 'web_search_result_location', url: 'https://b', title: null, cited_text: 'said', origin: { origin: 'gemini', value: 'https://b' } }]);
  });

  it('citations with no span cite the first block; empty or outside spans are clamped or ignored', () => {
    const blocks = citedTextBlocks({
      type: 'text',
      text: 'abcdef',
      citations: [
        { url: 'https://w', raw: { dialect: 'openai-chat', value: 0 } },
        { url: 'https://e', span: { start: 3, end: 3 } },
        { url: 'https://c', span: { start: 4, end: 99 } },
        { url: 'https://n', span: { start: -5, end: 2 } },
      ],
    });
    expect(blocks.map((b) => [b.text, (b.citations ?? []).map((c) => (c as { url: string }).url)])).toEqual([
      ['ab', ['https://n', 'https://w']],
      ['cd', []],
      ['ef', ['https://c']],
    ]);
    expect(blocks[1]!.citations).toBeNull();
  });
});

describe('serverToolUse', () => {
  it('counts searches and fetches; none, no usage field', () => {
    expect(serverToolUse([{ type: 'web-search', kind: 'search' }, { type: 'web-search', kind: 'fetch' }, { type: 'web-search', kind: 'search' }, { type: 'text' }])).toEqual({ web_search_requests: 2, web_fetch_requests: 1 });
    expect(serverToolUse([{ type: 'web-search', kind: 'fetch' }])).toEqual({ web_search_requests: 0, web_fetch_requests: 1 });
    expect(serverToolUse([{ type: 'text', kind: 'fetch' }])).toBeUndefined();
  });
});
