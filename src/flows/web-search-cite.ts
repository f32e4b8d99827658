/**
 * Citations for an answer the proxy searched for (web-search.ts): a text part that names a page
 * the searches found (its URL, as a link or bare) cites that page over the line it is named on,
 * as a `Citation` with the page's URL and title, so each caller's encoder writes its own
 * (Anthropic `web_search_result_location`, Responses and Chat `url_citation`, Gemini
 * `groundingSupports`). Text the upstream already cited is left as it is.
 */
import type { Citation, Part, WebResult } from '../canonical/index.ts';

/** A URL as the model may have written it: the same page with or without a trailing slash. */
const variants = (url: string): string[] => (url.endsWith('/') ? [url, url.slice(0, -1)] : [url, `${url}/`]);

/** The citations of `text` for the pages found (one per page, at its first mention). */
export function citationsOf(text: string, pages: readonly WebResult[]): Citation[] {
  const out: Citation[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    if (seen.has(page.url)) continue;
    const at = variants(page.url)
      .map((u) => text.indexOf(u))
      .filter((i) => i >= 0)
      .sort((a, b) => a - b)[0];
    if (at === undefined) continue;
    seen.add(page.url);
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const next = text.indexOf('\n', at);
    const lineEnd = next < 0 ? text.length : next;
    const lead = text.slice(lineStart, lineEnd).search(/\S/);
    const start = lineStart + Math.max(0, lead);
    out.push({ url: page.url, ...(page.title && { title: page.title }), span: { start, end: lineEnd } });
  }
  return out.sort((a, b) => a.span!.start - b.span!.start);
}

/** `parts` with citations on the text that names the pages their searches found. */
export function citeResults(parts: readonly Part[]): Part[] {
  const pages: WebResult[] = [];
  return parts.map((p) => {
    if (p.type === 'web-search') pages.push(...p.results);
    if (p.type !== 'text' || p.citations?.length || pages.length === 0) return p;
    const citations = citationsOf(p.text, pages);
    return citations.length ? { ...p, citations } : p;
  });
}
