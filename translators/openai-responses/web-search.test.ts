import { describe, expect, it } from 'vitest';
import type { WebSearchPart } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeWebSearchCall, webSearchItem } from './web-search.ts';

type Data = Record<string, any>;

describe('decodeWebSearchCall', () => {
  it('a search: its queries (the query first, once), the sources with their titles, the item kept raw', () => {
    const item = {
      id: 'ws_68a1',
      type: 'web_search_call',
      status: 'completed',
      action: {
        type: 'search',
        query: 'uk inflation 2025',
        queries: ['uk inflation 2025', 7, 'cpi october'],
        sources: [{ type: 'url', url: 'https://ons.gov.uk/cpi', title: 'CPI' }, { type: 'url', url: 'https://bbc.co.uk/news', title: '' }, { type: 'url' }, 'https://x.org', null],
      },
    };
    expect(decodeWebSearchCall(item)).toStrictEqual({
      type: 'web-search',
      id: 'ws_68a1',
      kind: 'search',
      queries: ['uk inflation 2025', 'cpi october'],
      results: [{ url: 'https://ons.gov.uk/cpi', title: 'CPI' }, { url: 'https://bbc.co.uk/news' }],
      raw: { dialect: 'openai-responses', value: item },
    });
  });

  it('a query not among the queries comes first; no query, no queries key', () => {
    const part = decodeWebSearchCall({ id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'a', queries: ['b'] } })!;
    expect(part.queries).toEqual(['a', 'b']);
    const bare = decodeWebSearchCall({ id: 'ws_2', type: 'web_search_call', status: 'completed', action: { type: 'search', queries: 'b' } })!;
    expect(bare).not.toHaveProperty('queries');
    expect(bare).not.toHaveProperty('url');
    expect(bare).not.toHaveProperty('error');
    expect(bare.results).toEqual([]);
  });

  it('open_page, find_in_page and find are fetches of their url; a failed call has its error', () => {
    for (const type of ['open_page', 'find_in_page', 'find']) {
      const part = decodeWebSearchCall({ id: 'ws_3', type: 'web_search_call', status: 'completed', action: { type, url: 'https://a.org/p', pattern: 'x' } })!;
      expect([part.kind, part.url]).toEqual(['fetch', 'https://a.org/p']);
    }
    expect(decodeWebSearchCall({ id: 'ws_4', type: 'web_search_call', status: 'completed', action: { type: 'other' } })!.kind).toBe('search');
    expect(decodeWebSearchCall({ id: 'ws_5', type: 'web_search_call', status: 'failed', action: { type: 'search', query: 'q' } })!.error).toBe('failed');
    expect(decodeWebSearchCall({ id: 'ws_6', type: 'web_search_call', status: 'in_progress', action: { type: 'search', url: 3 } })).not.toHaveProperty('error');
    expect(decodeWebSearchCall({ id: 'ws_6', type: 'web_search_call', status: 'in_progress', action: { type: 'search', url: 3 } })).not.toHaveProperty('url');
  });

  it('no id is an empty one; no action a search; other items are no search', () => {
    expect(decodeWebSearchCall({ type: 'web_search_call', status: 'completed' })).toMatchObject({ id: '', kind: 'search', results: [] });
    expect(decodeWebSearchCall({ type: 'message', id: 'msg_1' })).toBeUndefined();
    expect(decodeWebSearchCall('web_search_call')).toBeUndefined();
  });
});

describe('webSearchItem', () => {
  const search: WebSearchPart = { type: 'web-search', id: 'srvtoolu_01', kind: 'search', queries: ['a b'], results: [{ url: 'https://a.org', title: 'A' }] };

  it("another vendor's search: a completed web_search_call with our id, its query and sources", () => {
    expect(webSearchItem({ ...search, raw: { dialect: 'anthropic', value: { type: 'server_tool_use' } } }, testContext())).toStrictEqual({
      id: 'ws_test0001',
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'a b', sources: [{ type: 'url', url: 'https://a.org' }] },
    });
  });

  it('several queries: joined as the query and listed; none, an empty query; an error, failed; an id of ours kept', () => {
    const item = webSearchItem({ ...search, id: 'ws_9', queries: ['x', 'y'], error: 'max_uses_exceeded' }, testContext()) as Data;
    expect(item).toMatchObject({ id: 'ws_9', status: 'failed', action: { type: 'search', query: 'x | y', queries: ['x', 'y'] } });
    const none = webSearchItem({ type: 'web-search', id: 'xws_1', kind: 'search', results: [] }, testContext()) as Data;
    expect(none['id']).toBe('ws_test0001');
    expect(none['action']).toStrictEqual({ type: 'search', query: '', sources: [] });
  });

  it('a fetch is open_page of its url, else of its first result, else of nothing', () => {
    const fetch: WebSearchPart = { type: 'web-search', id: 'ws_f', kind: 'fetch', url: 'https://a.org/p', results: [{ url: 'https://b.org' }] };
    expect((webSearchItem(fetch, testContext()) as Data)['action']).toStrictEqual({ type: 'open_page', url: 'https://a.org/p' });
    const { url: _, ...noUrl } = fetch;
    expect((webSearchItem(noUrl, testContext()) as Data)['action']).toStrictEqual({ type: 'open_page', url: 'https://b.org' });
    expect((webSearchItem({ ...noUrl, results: [] }, testContext()) as Data)['action']).toStrictEqual({ type: 'open_page', url: '' });
  });

  it('a Responses item of its own is given back as it was', () => {
    const item = { id: 'ws_68a1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q', sources: [] } };
    expect(webSearchItem(decodeWebSearchCall(item)!, testContext())).toBe(item);
    expect(webSearchItem({ ...search, raw: { dialect: 'openai-responses', value: 'not an object' } }, testContext())).toMatchObject({ id: 'ws_test0001' });
  });
});
