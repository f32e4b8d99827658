/**
 * A text block's `citations` ⇄ canonical citations: a web search result (`url`, `title`,
 * `cited_text`), a document passage (`document_title`, `cited_text`), a search result
 * (`source`, `title`, `cited_text`).
 * https://docs.claude.com/en/docs/build-with-claude/citations
 */
import { ownCitations, type Citation } from '../../src/canonical/index.ts';

const str = (x: unknown) => (typeof x === 'string' ? x : undefined);

export function decodeCitation(c: unknown): Citation {
  const raw = { dialect: 'anthropic' as const, value: c };
  if (!c || typeof c !== 'object') return { raw };
  const r = c as Record<string, unknown>;
  const quote = str(r['cited_text']);
  const common = quote !== undefined ? { quote, raw } : { raw };
  switch (r['type']) {
    case 'web_search_result_location':
      return { url: str(r['url']), title: str(r['title']), ...common };
    case 'search_result_location':
      return { url: str(r['source']), title: str(r['title']), ...common };
    default:
      return { title: str(r['document_title']), ...common };
  }
}

/** A text block's `citations`: the ones Anthropic wrote, else null (the field is required). */
export function encodeCitations(citations: readonly Citation[] | undefined): unknown[] | null {
  const own = ownCitations(citations, 'anthropic');
  return own.length ? own : null;
}
