/**
 * Chat Completions `message.annotations` ⇄ canonical citations: a `url_citation` names a page
 * (`url`, `title`) and the span of the message text it supports (`start_index`, `end_index`).
 * https://platform.openai.com/docs/api-reference/chat/object (choices[].message.annotations)
 */
import { ownCitations, type Citation } from '../../src/canonical/index.ts';

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

/** A text part's citations as the message's annotations: the ones Chat Completions wrote. */
export function encodeAnnotations(citations: readonly Citation[] | undefined): unknown[] {
  return ownCitations(citations, 'openai-chat');
}
