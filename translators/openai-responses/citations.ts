/**
 * Responses `output_text.annotations` ⇄ canonical citations: `url_citation` (a page and the span
 * of the text it supports), `file_citation`, `container_file_citation`, `file_path`.
 * https://platform.openai.com/docs/api-reference/responses/object (output_text.annotations)
 */
import { ownCitations, type Citation } from '../../src/canonical/index.ts';

const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
const num = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) ? x : undefined);

export function decodeAnnotation(a: unknown): Citation {
  const raw = { dialect: 'openai-responses' as const, value: a };
  if (!a || typeof a !== 'object') return { raw };
  const c = a as Record<string, unknown>;
  const [start, end] = [num(c['start_index']), num(c['end_index'])];
  const span = start !== undefined && end !== undefined ? { span: { start, end } } : {};
  if (c['type'] === 'url_citation') return { url: str(c['url']), title: str(c['title']), ...span, raw };
  return { title: str(c['filename']), ...span, raw };
}

/**
 * A text part's citations as `output_text.annotations`: the ones the Responses API wrote, else
 * another vendor's citations of pages as `url_citation`s (one without a span covers the whole text).
 */
export function encodeAnnotations(citations: readonly Citation[] | undefined, length = 0): unknown[] {
  const own = ownCitations(citations, 'openai-responses');
  if (own.length > 0) return own;
  // Stryker disable next-line ArrayDeclaration: an element in the fallback list is no citation with a url, so filtered out like none
  return (citations ?? [])
    .filter((c) => c.url)
    .map((c) => ({ type: 'url_citation', start_index: c.span?.start ?? 0, end_index: c.span?.end ?? length, url: c.url, title: c.title ?? c.url }));
}
