import { describe, expect, it } from 'vitest';
import { decodeSignature, encodeSignature, type ChatRequest, type ChatResponse, type Part, type WebSearchPart } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodeResponse } from './encode-response.ts';
import { citationsOf, decodeAnnotations, decodeSearchSteps, encodeAnnotations, encodeSearchSteps, foldSearchDelta, isSearchStep, SearchPairs, StreamSearches, withCitedPages } from './web-search.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: false };
const TEXT = 'Spain won Euro 2024 – in Berlin.';
const bytes = (s: string) => new TextEncoder().encode(s).length;
const call = { type: 'google_search_call', id: 'gs1', arguments: { queries: ['euro 2024 winner'] }, search_type: 'web_search', signature: 'EqGoogleCall' };
const result = { type: 'google_search_result', call_id: 'gs1', result: [{ search_suggestions: '<div>chips</div>' }], signature: 'EqGoogleResult' };
const annotation = { type: 'url_citation', url: 'https://uefa.com/x', title: 'uefa.com', start_index: 0, end_index: bytes('Spain won Euro 2024 –') };
const interaction = {
  id: 'v1_s',
  status: 'completed',
  steps: [call, result, { type: 'model_output', content: [{ type: 'text', text: TEXT, annotations: [annotation] }] }],
};

describe('Interactions upstream: search steps and text annotations', () => {
  const res = decodeResponse(interaction, req, testContext());
  const [search, text] = res.choices[0]!.content;

  it('the call and its result are one search, its pages the ones the text cites; the steps kept as this dialect wrote them', () => {
    expect(search).toEqual({ type: 'web-search', id: 'gs1', kind: 'search', queries: ['euro 2024 winner'], results: [{ url: 'https://uefa.com/x', title: 'uefa.com' }], raw: { dialect: 'gemini-interactions', value: [call, result] } });
  });

  it('url_citation byte offsets become UTF-16 spans of the text', () => {
    expect(text).toMatchObject({ type: 'text', text: TEXT, citations: [{ url: 'https://uefa.com/x', title: 'uefa.com', span: { start: 0, end: 'Spain won Euro 2024 –'.length } }] });
  });

  it('an Interactions caller gets its own steps and annotations back as they were', () => {
    const out = encodeResponse(res, req, testContext()) as { steps: unknown[] };
    expect(out.steps).toEqual(interaction.steps);
  });

  it('a url_context call and its result: a page read; a failed page has no result', () => {
    const r = decodeResponse({ id: 'v', status: 'completed', steps: [
      { type: 'url_context_call', id: 'u1', arguments: { urls: ['https://a.org/p', 'https://b.org/q'] } },
      { type: 'url_context_result', call_id: 'u1', result: [{ url: 'https://a.org/p', status: 'success' }, { url: 'https://b.org/q', status: 'paywall' }] },
    ] }, req, testContext());
    expect(r.choices[0]!.content[0]).toMatchObject({ type: 'web-search', kind: 'fetch', url: 'https://a.org/p', results: [{ url: 'https://a.org/p' }] });
  });

  it('a call whose result never came is a search without results', () => {
    const r = decodeResponse({ id: 'v', status: 'completed', steps: [call] }, req, testContext());
    expect(r.choices[0]!.content).toMatchObject([{ type: 'web-search', id: 'gs1', results: [] }]);
  });
});

describe('another vendor\'s search for an Interactions caller, and back', () => {
  const foreign: WebSearchPart = { type: 'web-search', id: 'srvtoolu_1', kind: 'search', queries: ['rust 2026'], results: [{ url: 'https://a.org/x', title: 'A' }], raw: { dialect: 'anthropic', value: [] } };
  const answer: ChatResponse = {
    id: 'x',
    model: 'm',
    created: 1,
    choices: [{ index: 0, finishReason: { unified: 'stop' }, content: [foreign, { type: 'text', text: 'Café ☕ rust.', citations: [{ url: 'https://a.org/x', title: 'A', span: { start: 0, end: 6 } }] }] }],
  };
  const steps = (encodeResponse(answer, req, testContext()) as { steps: Array<Record<string, any>> }).steps;

  it('written as google_search_call + google_search_result with our carrier as the signature, the citation an annotation at byte offsets', () => {
    expect(steps.map((s) => s['type'])).toEqual(['google_search_call', 'google_search_result', 'model_output']);
    expect(steps[0]).toMatchObject({ id: 'srvtoolu_1', arguments: { queries: ['rust 2026'] } });
    expect(decodeSignature(steps[0]!['signature'])).toEqual({ origin: 'anthropic', value: 'srvtoolu_1' });
    expect(steps[2]!['content'][0].annotations).toEqual([{ type: 'url_citation', url: 'https://a.org/x', title: 'A', start_index: 0, end_index: bytes('Café ☕') }]);
  });

  it('sent back by the caller, it is read as another vendor\'s: never sent to an Interactions upstream as Google\'s own', () => {
    const { value, warnings } = decodeRequest({ body: { model: 'm', input: [{ type: 'user_input', content: [{ type: 'text', text: 'q' }] }, ...steps, { type: 'user_input', content: [{ type: 'text', text: 'more' }] }] }, headers: {}, params: {}, query: {} });
    expect(warnings).toEqual([]);
    const part = value.messages[1]!.content[0] as WebSearchPart;
    expect(part).toMatchObject({ type: 'web-search', queries: ['rust 2026'] });
    expect(part.raw).toBeUndefined();
    const up = encodeRequest(value, { name: 'i', model: 'gemini-3-flash-preview', options: {} });
    const body = JSON.parse(up.value.body as string);
    expect(JSON.stringify(body.input)).not.toContain('google_search');
    expect(up.warnings).toContainEqual({ code: 'dropped', path: 'messages[1].content[0]', detail: 'web-search' });
  });

  it('Google\'s own steps from the caller\'s history go back to Google as they were', () => {
    const { value } = decodeRequest({ body: { model: 'm', input: [{ type: 'user_input', content: [{ type: 'text', text: 'q' }] }, ...interaction.steps, { type: 'user_input', content: [{ type: 'text', text: 'more' }] }] }, headers: {}, params: {}, query: {} });
    const body = JSON.parse(encodeRequest(value, { name: 'i', model: 'gemini-3-flash-preview', options: {} }).value.body as string);
    expect(body.input.slice(1, 3)).toEqual([call, result]);
  });
});

const carrier = (value: string) => encodeSignature({ origin: 'anthropic', value });
const RAW = 'gemini-interactions' as const;

describe('decodeSearchSteps: a call and its result', () => {
  it('a bare call (no id, no arguments) is a search of its own, kept raw alone', () => {
    const bare = { type: 'google_search_call' };
    expect(decodeSearchSteps(bare, undefined)).toStrictEqual({ type: 'web-search', id: '', kind: 'search', results: [], raw: { dialect: RAW, value: [bare] } });
  });

  it('arguments that are not an object give no queries; only string queries and urls count, the first url the page', () => {
    expect(decodeSearchSteps({ type: 'google_search_call', id: 'g', arguments: ['x'] }, undefined)).not.toHaveProperty('queries');
    expect(decodeSearchSteps({ type: 'google_search_call', id: 'g', arguments: { queries: 'one' } }, undefined)).not.toHaveProperty('queries');
    const part = decodeSearchSteps({ type: 'url_context_call', id: 'u', arguments: { queries: [1, 'a', null, 'b'], urls: [7, 'https://a.org'] } }, undefined);
    expect(part).toMatchObject({ kind: 'fetch', queries: ['a', 'b'], url: 'https://a.org' });
    expect(decodeSearchSteps({ type: 'url_context_call', id: 'u', arguments: { queries: [], urls: ['', 'https://b.org'] } }, undefined)).not.toHaveProperty('url');
    expect(decodeSearchSteps({ type: 'url_context_call', id: 'u', arguments: { queries: [3] } }, undefined)).not.toHaveProperty('queries');
  });

  it('results: pages with a url whose status is absent or success, in order; a result list that is not a list gives none', () => {
    const c = { type: 'url_context_call', id: 'u' };
    const r = { type: 'url_context_result', call_id: 'u', result: ['x', { url: 3 }, { url: 'https://a' }, { url: 'https://b', status: 'success' }, { url: 'https://c', status: 'error' }, { status: 'success' }] };
    expect(decodeSearchSteps(c, r).results).toEqual([{ url: 'https://a' }, { url: 'https://b' }]);
    expect(decodeSearchSteps(c, { type: 'url_context_result', call_id: 'u', result: { url: 'https://a' } }).results).toEqual([]);
  });

  it('is_error true (only true) makes the search failed', () => {
    const c = { type: 'google_search_call', id: 'g' };
    expect(decodeSearchSteps(c, { type: 'google_search_result', call_id: 'g', is_error: true }).error).toBe('error');
    expect(decodeSearchSteps(c, { type: 'google_search_result', call_id: 'g', is_error: 'true' })).not.toHaveProperty('error');
    expect(decodeSearchSteps(c, { type: 'google_search_result', call_id: 'g' })).not.toHaveProperty('error');
  });

  it('our carrier as the signature of the call or of the result: another vendor\'s search, not kept raw; Google\'s own signature (or none) keeps it raw', () => {
    const c = { type: 'google_search_call', id: 'g' };
    const r = { type: 'google_search_result', call_id: 'g' };
    expect(decodeSearchSteps({ ...c, signature: carrier('g') }, r)).not.toHaveProperty('raw');
    expect(decodeSearchSteps(c, { ...r, signature: carrier('g') })).not.toHaveProperty('raw');
    expect(decodeSearchSteps({ ...c, signature: 'EqGoogle' }, { ...r, signature: 42 }).raw).toEqual({ dialect: RAW, value: [{ ...c, signature: 'EqGoogle' }, { ...r, signature: 42 }] });
  });
});

describe('encodeSearchSteps', () => {
  const base: WebSearchPart = { type: 'web-search', id: 'x1', kind: 'search', results: [] };
  const origin = (p: WebSearchPart) => decodeSignature(encodeSearchSteps(p)[0]!.signature as string);

  it('this API\'s own steps as they were (the same objects); an own raw that is not a list is written anew', () => {
    const value = [{ type: 'google_search_call', id: 'k' }];
    expect(encodeSearchSteps({ ...base, raw: { dialect: RAW, value } })).toBe(value);
    expect(encodeSearchSteps({ ...base, raw: { dialect: RAW, value: { type: 'google_search_call' } } }).map((s) => s.type)).toEqual(['google_search_call', 'google_search_result']);
  });

  it('the carrier names the vendor whose search it was: Gemini when none or unknown', () => {
    expect(origin({ ...base, raw: { dialect: 'openai-chat', value: [] } })).toEqual({ origin: 'openai', value: 'x1' });
    expect(origin({ ...base, raw: { dialect: 'openai-responses', value: [] } })).toEqual({ origin: 'openai', value: 'x1' });
    expect(origin({ ...base, raw: { dialect: 'gemini', value: [] } })).toEqual({ origin: 'gemini', value: 'x1' });
    expect(origin({ ...base, raw: { dialect: 'openai-images', value: [] } })).toEqual({ origin: 'gemini', value: 'x1' });
    expect(origin(base)).toEqual({ origin: 'gemini', value: 'x1' });
  });

  it('a search: call with its queries (none: an empty list) and an empty result, failed ones marked is_error; no id: "search"', () => {
    const sig = encodeSignature({ origin: 'gemini', value: '' });
    expect(encodeSearchSteps({ ...base, id: '' })).toStrictEqual([
      { type: 'google_search_call', id: 'search', arguments: { queries: [] }, search_type: 'web_search', signature: sig },
      { type: 'google_search_result', call_id: 'search', result: [], signature: sig },
    ]);
    expect(encodeSearchSteps({ ...base, queries: ['q'], error: 'unavailable' })[1]).toMatchObject({ is_error: true });
    expect(encodeSearchSteps({ ...base, queries: ['q'] })[0]!.arguments).toEqual({ queries: ['q'] });
  });

  it('a page read: its url (else its first result\'s, else empty) called and answered; a failed one has status error and is_error', () => {
    const sig = encodeSignature({ origin: 'gemini', value: 'f' });
    const fetch: WebSearchPart = { type: 'web-search', id: 'f', kind: 'fetch', url: 'https://a.org', results: [{ url: 'https://b.org' }] };
    expect(encodeSearchSteps(fetch)).toStrictEqual([
      { type: 'url_context_call', id: 'f', arguments: { urls: ['https://a.org'] }, signature: sig },
      { type: 'url_context_result', call_id: 'f', result: [{ url: 'https://a.org', status: 'success' }], signature: sig },
    ]);
    expect(encodeSearchSteps({ ...fetch, url: undefined })[0]!.arguments).toEqual({ urls: ['https://b.org'] });
    expect(encodeSearchSteps({ ...fetch, url: undefined, results: [] })[0]!.arguments).toEqual({ urls: [''] });
    expect(encodeSearchSteps({ ...fetch, error: 'x' })[1]).toStrictEqual({ type: 'url_context_result', call_id: 'f', result: [{ url: 'https://a.org', status: 'error' }], is_error: true, signature: sig });
  });
});

describe('annotations ⇄ citations', () => {
  it('decode: objects only; span only with both offsets (bytes → UTF-16); url and title only when strings, title when not empty; the annotation kept raw', () => {
    const text = 'é ab';
    const a = { type: 'url_citation', url: 'https://a', title: 'A', start_index: 2, end_index: 4 };
    expect(decodeAnnotations({ a }, text)).toEqual([]);
    expect(decodeAnnotations(['x', a, { start_index: 0, url: 5, title: '' }, { end_index: 1, title: 7 }], text)).toStrictEqual([
      { url: 'https://a', title: 'A', span: { start: 1, end: 3 }, raw: { dialect: RAW, value: a } },
      { raw: { dialect: RAW, value: { start_index: 0, url: 5, title: '' } } },
      { raw: { dialect: RAW, value: { end_index: 1, title: 7 } } },
    ]);
  });

  it('encode: own annotations as they were; otherwise the cited pages with a url, titled by their url if untitled, the whole text when no span', () => {
    const own = { type: 'url_citation', url: 'u', start_index: 9 };
    expect(encodeAnnotations([{ url: 'x' }, { url: 'y', raw: { dialect: RAW, value: own } }], 'ab')).toEqual([own]);
    expect(encodeAnnotations(undefined, 'ab')).toEqual([]);
    expect(encodeAnnotations([{ title: 'no url' }, { url: 'https://a', span: { start: 1, end: 2 } }, { url: 'https://b', title: 'B', raw: { dialect: 'anthropic', value: {} } }], 'éa')).toStrictEqual([
      { type: 'url_citation', url: 'https://a', title: 'https://a', start_index: 2, end_index: 3 },
      { type: 'url_citation', url: 'https://b', title: 'B', start_index: 0, end_index: 3 },
    ]);
  });
});

describe('withCitedPages and citationsOf', () => {
  const search: WebSearchPart = { type: 'web-search', id: 's', kind: 'search', results: [] };
  const cited = [{ url: 'https://a', title: 'A' }, { title: 'none' }, { url: 'https://a', title: 'again' }, { url: 'https://b' }];

  it('a search without pages gets the cited ones, each once, titled when they are; a page read or a search with pages stays as it was', () => {
    expect(withCitedPages(search, cited)).toStrictEqual({ ...search, results: [{ url: 'https://a', title: 'A' }, { url: 'https://b' }] });
    const fetch: WebSearchPart = { ...search, kind: 'fetch' };
    expect(withCitedPages(fetch, cited)).toBe(fetch);
    const found: WebSearchPart = { ...search, results: [{ url: 'https://z' }] };
    expect(withCitedPages(found, cited)).toBe(found);
  });

  it('citationsOf: the citations of the text parts only', () => {
    expect(citationsOf([{ type: 'text', text: 'a', citations: [{ url: 'u' }] }, { type: 'text', text: 'b' }, { type: 'refusal', text: 'r' } as Part, { type: 'text', text: 'c', citations: [{ url: 'v' }] }])).toEqual([{ url: 'u' }, { url: 'v' }]);
  });
});

describe('search steps in a stream', () => {
  const call = (id?: string) => ({ type: 'google_search_call', ...(id === undefined ? {} : { id }) });
  const res = (callId?: string) => ({ type: 'google_search_result', ...(callId === undefined ? {} : { call_id: callId }) });

  it('isSearchStep: the four hosted search steps', () => {
    expect(['google_search_call', 'google_search_result', 'url_context_call', 'url_context_result', 'function_call', undefined, 3].map(isSearchStep)).toEqual([true, true, true, true, false, false, false]);
  });

  it('SearchPairs: a result completes its call once; one for no call is nothing; calls left over are searches without results, given once', () => {
    const pairs = new SearchPairs();
    expect(pairs.step(call('a'))).toBeUndefined();
    expect(pairs.step(call())).toBeUndefined();
    expect(pairs.step(res('zz'))).toBeUndefined();
    expect(pairs.step(res('a'))).toMatchObject({ id: 'a', raw: { value: [call('a'), res('a')] } });
    expect(pairs.step(res('a'))).toBeUndefined();
    expect(pairs.step(call('b'))).toBeUndefined();
    expect(pairs.step(res())).toMatchObject({ id: '', raw: { value: [call(), res()] } });
    expect(pairs.rest()).toEqual([decodeSearchSteps(call('b'), undefined)]);
    expect(pairs.rest()).toEqual([]);
  });

  it('foldSearchDelta: arguments, signature and is_error replaced when given, results appended', () => {
    const step: Record<string, unknown> = { type: 'google_search_result', signature: 'old', arguments: { a: 1 }, result: [1] };
    foldSearchDelta(step, { type: 'google_search_result', result: [2, 3] });
    expect(step).toEqual({ type: 'google_search_result', signature: 'old', arguments: { a: 1 }, result: [1, 2, 3] });
    foldSearchDelta(step, { signature: 'new', arguments: { b: 2 }, is_error: false, result: 'x' });
    expect(step).toEqual({ type: 'google_search_result', signature: 'new', arguments: { b: 2 }, is_error: false, result: [1, 2, 3] });
    const fresh: Record<string, unknown> = { result: 'none yet' };
    foldSearchDelta(fresh, { result: [4] });
    expect(fresh).toEqual({ result: [4] });
  });

  it('StreamSearches: completed searches wait for a flush, with the pages cited so far; a full flush adds the calls never answered', () => {
    const s = new StreamSearches();
    s.step(call('a'));
    s.step(call('b'));
    expect(s.flush(false)).toEqual([]);
    s.step(res('a'));
    s.cite([{ url: 'https://p' }]);
    s.cite([{ url: 'https://q' }]);
    expect(s.flush(false)).toMatchObject([{ id: 'a', results: [{ url: 'https://p' }, { url: 'https://q' }] }]);
    expect(s.flush(false)).toEqual([]);
    expect(s.flush(true)).toMatchObject([{ id: 'b', results: [{ url: 'https://p' }, { url: 'https://q' }] }]);
    expect(s.flush(true)).toEqual([]);
  });
});
