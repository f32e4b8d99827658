import { describe, expect, it } from 'vitest';
import { decodeSignature, encodeSignature, type Citation, type WebSearchPart } from '../../src/canonical/index.ts';
import {
  citationsOf,
  decodeAnnotations,
  decodeSearchSteps,
  encodeAnnotations,
  encodeSearchSteps,
  foldSearchDelta,
  isSearchStep,
  SearchPairs,
  StreamSearches,
  withCitedPages,
} from './web-search.ts';

const ours = encodeSignature({ origin: 'anthropic', value: 'srvtoolu_1' });
const search = (over: Partial<WebSearchPart> = {}): WebSearchPart => ({ type: 'web-search', id: 's1', kind: 'search', results: [], ...over });

describe('isSearchStep', () => {
  it.each(['google_search_call', 'url_context_call', 'google_search_result', 'url_context_result'])('%s is a search step', (type) => {
    expect(isSearchStep(type)).toBe(true);
  });
  it.each([['model_output'], ['function_call'], [undefined], [7], ['']])('%j is not', (type) => {
    expect(isSearchStep(type)).toBe(false);
  });
});

describe('decodeSearchSteps', () => {
  it('a search call without id, arguments or result: an empty search, kept raw as the call alone', () => {
    const call = { type: 'google_search_call' };
    expect(decodeSearchSteps(call, undefined)).toStrictEqual({ type: 'web-search', id: '', kind: 'search', results: [], raw: { dialect: 'gemini-interactions', value: [call] } });
  });

  it('arguments that are not an object, or queries and urls that are not strings, give neither', () => {
    for (const args of [null, 'q', ['q'], { queries: 'q', urls: 'u' }, { queries: [1, null], urls: [2] }]) {
      const part = decodeSearchSteps({ type: 'google_search_call', id: 'g', arguments: args }, undefined);
      expect(part).not.toHaveProperty('queries');
      expect(part).not.toHaveProperty('url');
    }
  });

  it('only the string queries are kept, in order; the first url is the page read', () => {
    expect(decodeSearchSteps({ type: 'google_search_call', id: 'g', arguments: { queries: ['a', 3, 'b'] } }, undefined).queries).toStrictEqual(['a', 'b']);
    const fetch = decodeSearchSteps({ type: 'url_context_call', id: 'u', arguments: { urls: [5, 'https://a.org', 'https://b.org'] } }, undefined);
    expect(fetch).toMatchObject({ kind: 'fetch', url: 'https://a.org' });
    expect(decodeSearchSteps({ type: 'url_context_call', id: 'u', arguments: { urls: [''] } }, undefined)).not.toHaveProperty('url');
  });

  it('results: objects with a string url whose status is absent or success, in order', () => {
    const result = {
      type: 'url_context_result',
      call_id: 'u',
      result: ['https://x.org', null, { url: 7 }, { url: 'https://a.org' }, { url: 'https://b.org', status: 'success' }, { url: 'https://c.org', status: 'error' }, { status: 'success' }],
    };
    expect(decodeSearchSteps({ type: 'url_context_call', id: 'u' }, result).results).toStrictEqual([{ url: 'https://a.org' }, { url: 'https://b.org' }]);
    expect(decodeSearchSteps({ type: 'url_context_call', id: 'u' }, { type: 'url_context_result', result: { url: 'https://a.org' } }).results).toStrictEqual([]);
  });

  it('a result marked is_error: true is a failed search; any other is_error is not', () => {
    expect(decodeSearchSteps({ type: 'google_search_call' }, { type: 'google_search_result', is_error: true }).error).toBe('error');
    expect(decodeSearchSteps({ type: 'google_search_call' }, { type: 'google_search_result', is_error: 'true' })).not.toHaveProperty('error');
    expect(decodeSearchSteps({ type: 'google_search_call' }, { type: 'google_search_result' })).not.toHaveProperty('error');
  });

  it('our carrier on the call or on the result alone: another vendor’s search, kept without raw', () => {
    expect(decodeSearchSteps({ type: 'google_search_call', signature: ours }, { type: 'google_search_result' })).not.toHaveProperty('raw');
    expect(decodeSearchSteps({ type: 'google_search_call', signature: 'EqGoogle' }, { type: 'google_search_result', signature: ours })).not.toHaveProperty('raw');
    expect(decodeSearchSteps({ type: 'google_search_call', signature: ours }, undefined)).not.toHaveProperty('raw');
  });

  it('Google’s own signatures, or none that is a string, keep both steps raw', () => {
    const call = { type: 'google_search_call', signature: 'EqGoogle' };
    const result = { type: 'google_search_result', signature: 42 };
    expect(decodeSearchSteps(call, result).raw).toStrictEqual({ dialect: 'gemini-interactions', value: [call, result] });
  });
});

describe('encodeSearchSteps', () => {
  it('this API’s own steps go back as they were; raw of this dialect that is not a list is written anew', () => {
    const steps = [{ type: 'google_search_call', id: 'g' }];
    expect(encodeSearchSteps(search({ raw: { dialect: 'gemini-interactions', value: steps } }))).toBe(steps);
    const anew = encodeSearchSteps(search({ raw: { dialect: 'gemini-interactions', value: { type: 'google_search_call' } } }));
    expect(anew.map((s) => s.type)).toStrictEqual(['google_search_call', 'google_search_result']);
  });

  it.each<[WebSearchPart['raw'], string]>([
    [undefined, 'gemini'],
    [{ dialect: 'gemini', value: {} }, 'gemini'],
    [{ dialect: 'anthropic', value: [] }, 'anthropic'],
    [{ dialect: 'openai-chat', value: [] }, 'openai'],
    [{ dialect: 'openai-responses', value: [] }, 'openai'],
    [{ dialect: 'openai-images', value: [] }, 'gemini'],
  ])('raw %j: the carrier names %s as the origin and the part id as its value', (raw, origin) => {
    const steps = encodeSearchSteps(search({ raw }));
    for (const s of steps) expect(decodeSignature(s.signature as string)).toStrictEqual({ origin, value: 's1' });
  });

  it('a search: its queries (none: an empty list), a web search type, an empty result; an error marked on the result', () => {
    const sig = encodeSignature({ origin: 'gemini', value: '' });
    expect(encodeSearchSteps(search({ id: '' }))).toStrictEqual([
      { type: 'google_search_call', id: 'search', arguments: { queries: [] }, search_type: 'web_search', signature: sig },
      { type: 'google_search_result', call_id: 'search', result: [], signature: sig },
    ]);
    const failed = encodeSearchSteps(search({ queries: ['q'], error: 'max_uses_exceeded' }));
    expect(failed[0]!.arguments).toStrictEqual({ queries: ['q'] });
    expect(failed[1]).toMatchObject({ is_error: true, result: [] });
  });

  it('a page read: the url read, else its first result, else empty; success, or error with is_error', () => {
    const sig = encodeSignature({ origin: 'gemini', value: 's1' });
    expect(encodeSearchSteps(search({ kind: 'fetch', url: 'https://a.org', results: [{ url: 'https://b.org' }] }))).toStrictEqual([
      { type: 'url_context_call', id: 's1', arguments: { urls: ['https://a.org'] }, signature: sig },
      { type: 'url_context_result', call_id: 's1', result: [{ url: 'https://a.org', status: 'success' }], signature: sig },
    ]);
    expect(encodeSearchSteps(search({ kind: 'fetch', results: [{ url: 'https://b.org' }] }))[0]!.arguments).toStrictEqual({ urls: ['https://b.org'] });
    const failed = encodeSearchSteps(search({ kind: 'fetch', error: 'unavailable' }));
    expect(failed[0]!.arguments).toStrictEqual({ urls: [''] });
    expect(failed[1]).toMatchObject({ result: [{ url: '', status: 'error' }], is_error: true });
  });
});

describe('decodeAnnotations', () => {
  it('not a list: none; entries that are not objects skipped', () => {
    expect(decodeAnnotations({ url: 'https://a.org' }, 'x')).toStrictEqual([]);
    expect(decodeAnnotations(['https://a.org', null], 'x')).toStrictEqual([]);
  });

  it('a span only with both offsets numbers; url and title only when strings (an empty title left out)', () => {
    const a = { type: 'url_citation', url: 7, title: '', start_index: 0 };
    const b = { type: 'url_citation', url: 'https://a.org', title: 'A', start_index: '0', end_index: 3 };
    expect(decodeAnnotations([a, b], 'é ab')).toStrictEqual([
      { raw: { dialect: 'gemini-interactions', value: a } },
      { url: 'https://a.org', title: 'A', raw: { dialect: 'gemini-interactions', value: b } },
    ]);
    expect(decodeAnnotations([{ end_index: 3, start_index: 2 }], 'é ab')[0]!.span).toStrictEqual({ start: 1, end: 2 });
  });
});

describe('encodeAnnotations', () => {
  it('this API’s own are given back as they were, another vendor’s beside them left out', () => {
    const own = { type: 'url_citation', url: 'https://a.org', start_index: 9, end_index: 99 };
    const cites: Citation[] = [{ url: 'https://b.org' }, { url: 'https://a.org', raw: { dialect: 'gemini-interactions', value: own } }];
    expect(encodeAnnotations(cites, 'text')).toStrictEqual([own]);
  });

  it('another vendor’s: only those with a url, the title defaulting to the url, a missing span the whole text in bytes', () => {
    const cites: Citation[] = [{ title: 'no url' }, { url: 'https://a.org' }, { url: 'https://b.org', title: 'B', span: { start: 1, end: 2 } }];
    expect(encodeAnnotations(cites, 'é☕x')).toStrictEqual([
      { type: 'url_citation', url: 'https://a.org', title: 'https://a.org', start_index: 0, end_index: 6 },
      { type: 'url_citation', url: 'https://b.org', title: 'B', start_index: 2, end_index: 5 },
    ]);
    expect(encodeAnnotations(undefined, 'x')).toStrictEqual([]);
  });
});

describe('withCitedPages and citationsOf', () => {
  const cites: Citation[] = [{ url: 'https://a.org', title: 'A' }, { title: 'no url' }, { url: 'https://a.org', title: 'again' }, { url: 'https://b.org' }];

  it('a search with no pages gets the cited ones, each once, titled when cited with a title', () => {
    expect(withCitedPages(search({ queries: ['q'] }), cites)).toStrictEqual(search({ queries: ['q'], results: [{ url: 'https://a.org', title: 'A' }, { url: 'https://b.org' }] }));
  });

  it('a page read, or a search with pages of its own, is left as it is', () => {
    const fetch = search({ kind: 'fetch' });
    expect(withCitedPages(fetch, cites)).toBe(fetch);
    const found = search({ results: [{ url: 'https://z.org' }] });
    expect(withCitedPages(found, cites)).toBe(found);
  });

  it('citationsOf: the citations of the text parts only, in order', () => {
    expect(citationsOf([{ type: 'text', text: 'a', citations: [cites[0]!] }, { type: 'refusal', text: 'r' }, { type: 'text', text: 'b' }, { type: 'text', text: 'c', citations: [cites[3]!] }])).toStrictEqual([cites[0], cites[3]]);
  });
});

describe('SearchPairs', () => {
  it('a result pairs with the call of its call_id once; results of no waiting call give nothing', () => {
    const pairs = new SearchPairs();
    expect(pairs.step({ type: 'google_search_call', id: 'a', arguments: { queries: ['qa'] } })).toBeUndefined();
    expect(pairs.step({ type: 'url_context_call', id: 'b' })).toBeUndefined();
    expect(pairs.step({ type: 'google_search_result', call_id: 'z' })).toBeUndefined();
    expect(pairs.step({ type: 'google_search_result', call_id: 'a' })).toMatchObject({ id: 'a', queries: ['qa'] });
    expect(pairs.step({ type: 'google_search_result', call_id: 'a' })).toBeUndefined();
    expect(pairs.rest()).toMatchObject([{ id: 'b', kind: 'fetch', results: [] }]);
    expect(pairs.rest()).toStrictEqual([]);
  });

  it('a call without id pairs with a result without call_id', () => {
    const pairs = new SearchPairs();
    pairs.step({ type: 'google_search_call' });
    expect(pairs.step({ type: 'google_search_result', is_error: true })).toMatchObject({ id: '', error: 'error' });
  });
});

describe('foldSearchDelta', () => {
  it('arguments, signature and is_error replace; results are appended; absent fields leave the step as it was', () => {
    const step: Record<string, unknown> = { type: 'google_search_result', arguments: { queries: ['x'] }, signature: 'S0', result: [{ url: 'a' }] };
    foldSearchDelta(step, { type: 'google_search_result', signature: 'S1', is_error: false, result: [{ url: 'b' }] });
    expect(step).toStrictEqual({ type: 'google_search_result', arguments: { queries: ['x'] }, signature: 'S1', is_error: false, result: [{ url: 'a' }, { url: 'b' }] });
    foldSearchDelta(step, { arguments: { queries: ['y'] }, result: 'not a list' });
    expect(step).toStrictEqual({ type: 'google_search_result', arguments: { queries: ['y'] }, signature: 'S1', is_error: false, result: [{ url: 'a' }, { url: 'b' }] });
  });

  it('results onto a step that had none (or not a list)', () => {
    const step: Record<string, unknown> = { result: 'x' };
    foldSearchDelta(step, { result: [{ url: 'b' }] });
    expect(step).toStrictEqual({ result: [{ url: 'b' }] });
  });
});

describe('StreamSearches', () => {
  it('flush(false) gives the searches whose result came, flush(true) also the calls still waiting; each with the pages cited so far', () => {
    const s = new StreamSearches();
    s.step({ type: 'google_search_call', id: 'a' });
    s.step({ type: 'google_search_call', id: 'b' });
    s.step({ type: 'google_search_result', call_id: 'a' });
    s.cite([{ url: 'https://a.org' }]);
    expect(s.flush(false)).toMatchObject([{ id: 'a', results: [{ url: 'https://a.org' }] }]);
    expect(s.flush(false)).toStrictEqual([]);
    s.cite([{ url: 'https://b.org' }]);
    expect(s.flush(true)).toMatchObject([{ id: 'b', results: [{ url: 'https://a.org' }, { url: 'https://b.org' }] }]);
    expect(s.flush(true)).toStrictEqual([]);
  });
});
