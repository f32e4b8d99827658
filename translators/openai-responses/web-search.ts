/**
 * Hosted web searches ⇄ Responses' `web_search_call` output item: its `action` (`search` with the
 * query and the sources found, `open_page` with the page read) and `status`. Another vendor's
 * search is written as one, with the sources it found; the text citing it carries `url_citation`
 * annotations (citations.ts).
 * https://platform.openai.com/docs/api-reference/responses/object (output: web_search_call)
 */
import type { WebSearchPart } from '../../src/canonical/index.ts';
import { isJsonObject } from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import type { Wire } from './encode-settings.ts';

const str = (x: unknown) => (typeof x === 'string' ? x : undefined);

/** A `web_search_call` item → a web search part (undefined for any other item). */
export function decodeWebSearchCall(item: unknown): WebSearchPart | undefined {
  if (!isJsonObject(item) || item.type !== 'web_search_call') return undefined;
  const action = isJsonObject(item.action) ? item.action : {};
  const fetch = action.type === 'open_page' || action.type === 'find_in_page' || action.type === 'find';
  const part: WebSearchPart = { type: 'web-search', id: str(item.id) ?? '', kind: fetch ? 'fetch' : 'search', results: [], raw: { dialect: 'openai-responses', value: item } };
  const queries = Array.isArray(action.queries) ? action.queries.filter((q): q is string => typeof q === 'string') : [];
  const query = str(action.query);
  if (query !== undefined && !queries.includes(query)) queries.unshift(query);
  if (queries.length > 0) part.queries = queries;
  const url = str(action.url);
  if (url !== undefined) part.url = url;
  // Stryker disable next-line ArrayDeclaration: any element in the fallback list is no object with a url, so skipped like none
  for (const s of Array.isArray(action.sources) ? action.sources : []) {
    if (isJsonObject(s) && typeof s.url === 'string') part.results.push({ url: s.url, ...(str(s.title) ? { title: str(s.title) } : {}) });
  }
  if (item.status === 'failed') part.error = 'failed';
  return part;
}

/** A web search part as a `web_search_call` item: the Responses API's own as it was, another vendor's in its shape. */
export function webSearchItem(part: WebSearchPart, ctx: TranslateContext): Wire {
  if (part.raw?.dialect === 'openai-responses' && isJsonObject(part.raw.value)) return part.raw.value;
  const action =
    part.kind === 'search'
      ? { type: 'search', query: (part.queries ?? []).join(' | '), ...(part.queries && part.queries.length > 1 ? { queries: part.queries } : {}), sources: part.results.map((r) => ({ type: 'url', url: r.url })) }
      : { type: 'open_page', url: part.url ?? part.results[0]?.url ?? '' };
  return { id: part.id.startsWith('ws_') ? part.id : ctx.newId('ws_'), type: 'web_search_call', status: part.error ? 'failed' : 'completed', action };
}
