/**
 * Chat Completions `message.annotations` ⇄ canonical citations: a `url_citation` names a page
 * (`url`, `title`) and the span of the message text it supports (`start_index`, `end_index`).
 * https://platform.openai.com/docs/api-reference/chat/object (choices[].message.annotations)
 */
import { ownCitations, type Citation, type WebSearchPart } from '../../src/canonical/index.ts';

const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
const num = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) ? x : undefined);

export function decodeAnnotation(a: unknown): Citation {
  const raw = { dialect: 'openai-chat' as const, value: a };
  const u = a && typeof a === 'object' ? (a as Record<string, unknown>)['url_citation'] : undefined;
  if (!u || typeof u !== 'object') return { raw };
  const c = u as Record<string, unknown>;
  const [start, end] = [num(c['start_index']), num(c['end_index'])];
  return { url: str(c['url']), title: str(c['title']), ...(start !== undefined && end !== undefined ? { span: { start, end } } : {}), raw };
}

/**
 * A text part's citations as the message's annotations: the ones Chat Completions wrote, else
 * another vendor's citations of pages as `url_citation`s, their spans moved to where the part's
 * text starts in the message (`offset`); one without a span covers the part's whole text.
 */
export function encodeAnnotations(citations: readonly Citation[] | undefined, offset = 0, length = 0): unknown[] {
  const own = ownCitations(citations, 'openai-chat');
  if (own.length > 0) return own;
  // Stryker disable next-line ArrayDeclaration: a string in the list has no url, so it is filtered out
  return (citations ?? [])
    .filter((c) => c.url)
    .map((c) => ({
      type: 'url_citation',
      url_citation: { start_index: offset + (c.span?.start ?? 0), end_index: offset + (c.span?.end ?? length), url: c.url, title: c.title ?? c.url },
    }));
}

/**
 * The search behind an answer's `url_citation`s, when the request offered a hosted web tool: Chat
 * has no search item (a search model or OpenRouter's server tool searched), so the pages the text
 * cites are one search's results, each once.
 */
export function citedSearch(citations: readonly Citation[], id: string): WebSearchPart | undefined {
  const seen = new Set<string>();
  const results = citations.flatMap((c) => (c.url && !seen.has(c.url) && seen.add(c.url) ? [{ url: c.url, ...(c.title ? { title: c.title } : {}) }] : []));
  return results.length > 0 ? { type: 'web-search', id, kind: 'search', results } : undefined;
}
