/**
 * A source a text part cites, in neutral terms. Decoders fill what their vendor says: where the
 * cited words come from (`url`, `title`), which of the part's own text the citation supports
 * (`span`), the source's words it rests on (`quote`), and the citation exactly as its dialect
 * wrote it (`raw`), so that the same dialect gets it back unchanged. Encoders replay `raw` to the
 * dialect that wrote it; they never guess a vendor from a citation's shape.
 */
import type { DialectId } from './dialects.ts';

export interface Citation {
  url?: string;
  title?: string;
  /** The part's text it supports: [start, end) in UTF-16 code units of the text part's `text`. */
  span?: { start: number; end: number };
  /** The source's own words it rests on (Anthropic `cited_text`). */
  quote?: string;
  /** The citation as `dialect` wrote it. */
  raw?: { dialect: DialectId; value: unknown };
}

/** The citations `dialect` wrote itself, as it wrote them (another dialect's are not its own). */
export function ownCitations(citations: readonly Citation[] | undefined, dialect: DialectId): unknown[] {
  const out: unknown[] = [];
  for (const c of citations ?? []) if (c.raw?.dialect === dialect) out.push(c.raw.value);
  return out;
}
