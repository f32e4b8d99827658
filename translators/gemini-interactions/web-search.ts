/**
 * Hosted web searches and page reads ⇄ Interactions steps: a `google_search_call` (its
 * `arguments.queries`) and the `google_search_result` answering it (`call_id`; its results carry
 * only Google's `search_suggestions` snippet), a `url_context_call` (`arguments.urls`) and its
 * `url_context_result` (each page's `url` and `status`). The pages a search found are named by
 * the answer's text: `url_citation` annotations (`url`, `title`, `start_index`/`end_index` in
 * UTF-8 bytes of the text content), which become the search's results.
 *
 * The steps carry a `signature` for Google's backend. Another vendor's search written for an
 * Interactions caller carries Interlingua's origin-tagged carrier there instead, so when the
 * caller sends the steps back they are read as another vendor's and never reach Google as its own.
 * Source: `@google/genai` 2.32.0 `GoogleSearchCallStep`, `GoogleSearchResultStep`,
 * `URLContextCallStep`, `URLContextResultStep`, `URLCitation`.
 */
import { decodeSignature, encodeSignature, ownCitations, type Citation, type DialectId, type Part, type Vendor, type WebSearchPart } from '../../src/canonical/index.ts';
import { isJsonObject, utf16Offset, utf8Offset } from '../../src/kit/index.ts';
import type { HostedToolStep } from './wire.ts';

type Json = Record<string, unknown>;
const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
const strings = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);

export const SEARCH_CALLS = new Set(['google_search_call', 'url_context_call']);
export const SEARCH_RESULTS = new Set(['google_search_result', 'url_context_result']);
/** Whether a step is one of a hosted search's (a call or its result). */
export const isSearchStep = (type: unknown): boolean => typeof type === 'string' && (SEARCH_CALLS.has(type) || SEARCH_RESULTS.has(type));

const VENDOR_OF: Partial<Record<DialectId, Vendor>> = { anthropic: 'anthropic', 'openai-chat': 'openai', 'openai-responses': 'openai', gemini: 'gemini' };

/** A search's call step and the result step answering it (if it came) → one web search part. */
export function decodeSearchSteps(call: Json, result: Json | undefined): WebSearchPart {
  const fetch = call['type'] === 'url_context_call';
  const args = isJsonObject(call['arguments']) ? call['arguments'] : {};
  const part: WebSearchPart = { type: 'web-search', id: str(call['id']) ?? '', kind: fetch ? 'fetch' : 'search', results: [] };
  const queries = strings(args['queries']);
  if (queries.length > 0) part.queries = queries;
  const urls = strings(args['urls']);
  if (urls[0]) part.url = urls[0];
  for (const r of Array.isArray(result?.['result']) ? result['result'] : []) {
    if (isJsonObject(r) && typeof r['url'] === 'string' && (r['status'] === undefined || r['status'] === 'success')) part.results.push({ url: r['url'] });
  }
  if (result?.['is_error'] === true) part.error = 'error';
  const ours = [call, result].some((s) => typeof s?.['signature'] === 'string' && decodeSignature(s['signature']) !== undefined);
  if (!ours) part.raw = { dialect: 'gemini-interactions', value: result ? [call, result] : [call] };
  return part;
}

/** A web search part as steps: this API's own as they were, another vendor's in its shape with our carrier as the signature. */
export function encodeSearchSteps(part: WebSearchPart): HostedToolStep[] {
  if (part.raw?.dialect === 'gemini-interactions' && Array.isArray(part.raw.value)) return part.raw.value as HostedToolStep[];
  const signature = encodeSignature({ origin: VENDOR_OF[part.raw?.dialect ?? 'gemini'] ?? 'gemini', value: part.id });
  const id = part.id || 'search';
  if (part.kind === 'fetch') {
    const url = part.url ?? part.results[0]?.url ?? '';
    return [
      { type: 'url_context_call', id, arguments: { urls: [url] }, signature },
      { type: 'url_context_result', call_id: id, result: [{ url, status: part.error ? 'error' : 'success' }], ...(part.error ? { is_error: true } : {}), signature },
    ];
  }
  return [
    { type: 'google_search_call', id, arguments: { queries: part.queries ?? [] }, search_type: 'web_search', signature },
    { type: 'google_search_result', call_id: id, result: [], ...(part.error ? { is_error: true } : {}), signature },
  ];
}

/** A text content's `annotations` → citations, their byte spans in UTF-16 units of `text`. */
export function decodeAnnotations(annotations: unknown, text: string): Citation[] {
  const out: Citation[] = [];
  for (const a of Array.isArray(annotations) ? annotations : []) {
    if (!isJsonObject(a)) continue;
    const raw = { dialect: 'gemini-interactions' as const, value: a };
    const [start, end] = [a['start_index'], a['end_index']];
    const span = typeof start === 'number' && typeof end === 'number' ? { span: { start: utf16Offset(text, start), end: utf16Offset(text, end) } } : {};
    const title = str(a['title']);
    out.push({ ...(str(a['url']) ? { url: str(a['url']) } : {}), ...(title ? { title } : {}), ...span, raw });
  }
  return out;
}

/** A text part's citations as `annotations`: this API's own as they were, another vendor's pages as `url_citation`s at byte offsets. */
export function encodeAnnotations(citations: readonly Citation[] | undefined, text: string): unknown[] {
  const own = ownCitations(citations, 'gemini-interactions');
  if (own.length > 0) return own;
  return (citations ?? [])
    .filter((c) => c.url)
    .map((c) => ({ type: 'url_citation', url: c.url, title: c.title ?? c.url, start_index: utf8Offset(text, c.span?.start ?? 0), end_index: utf8Offset(text, c.span?.end ?? text.length) }));
}

/** A search that found no pages of its own has the pages the answer cites as its results (each once). */
export function withCitedPages(search: WebSearchPart, citations: readonly Citation[]): WebSearchPart {
  if (search.kind !== 'search' || search.results.length > 0) return search;
  const seen = new Set<string>();
  const results = citations.flatMap((c) => (c.url && !seen.has(c.url) && seen.add(c.url) ? [{ url: c.url, ...(c.title ? { title: c.title } : {}) }] : []));
  return { ...search, results };
}

/** The citations of an answer's text parts. */
export const citationsOf = (parts: readonly Part[]): Citation[] => parts.flatMap((p) => (p.type === 'text' ? (p.citations ?? []) : []));

/** Calls waiting for their result step, by id: each pair is one search. */
export class SearchPairs {
  private readonly calls = new Map<string, Json>();

  /** A call or result step: the search it completes, if it is a result. */
  step(step: Json): WebSearchPart | undefined {
    if (SEARCH_CALLS.has(String(step['type']))) {
      this.calls.set(str(step['id']) ?? '', step);
      return undefined;
    }
    const id = str(step['call_id']) ?? '';
    const call = this.calls.get(id);
    if (!call) return undefined;
    this.calls.delete(id);
    return decodeSearchSteps(call, step);
  }

  /** Calls whose result never came: searches without results. */
  rest(): WebSearchPart[] {
    const out = [...this.calls.values()].map((c) => decodeSearchSteps(c, undefined));
    this.calls.clear();
    return out;
  }
}

/** A search step's delta (its arguments, results, signature) folded into the step `step.start` opened. */
export function foldSearchDelta(step: Json, delta: Json): void {
  for (const k of ['arguments', 'signature', 'is_error'] as const) if (delta[k] !== undefined) step[k] = delta[k];
  if (Array.isArray(delta['result'])) step['result'] = [...(Array.isArray(step['result']) ? step['result'] : []), ...delta['result']];
}

/**
 * A stream's searches: each waits, once its result step has come, for the text after it (whose
 * annotations name its pages), and is given with the pages cited so far.
 */
export class StreamSearches {
  private readonly pairs = new SearchPairs();
  private readonly pending: WebSearchPart[] = [];
  private readonly cited: Citation[] = [];

  step(step: Json): void {
    const part = this.pairs.step(step);
    if (part) this.pending.push(part);
  }

  cite(citations: readonly Citation[]): void {
    this.cited.push(...citations);
  }

  /** The searches waiting (with `all`, also the calls whose result never came). */
  flush(all: boolean): WebSearchPart[] {
    const out = [...this.pending.splice(0), ...(all ? this.pairs.rest() : [])];
    return out.map((p) => withCitedPages(p, this.cited));
  }
}
