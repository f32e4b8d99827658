/**
 * Google Search grounding and URL context ⇄ canonical web searches and citations.
 *
 * A candidate's `groundingMetadata` says what Gemini searched (`webSearchQueries`), the pages it
 * used (`groundingChunks[].web`: uri, title) and which stretches of the answer rest on which
 * pages (`groundingSupports[]`: a `segment` of the text, measured in UTF-8 bytes, and chunk
 * indices); `urlContextMetadata.urlMetadata[]` the pages URL context read. Decoded: one search
 * part with every query and page, one fetch part per page read, and citations on the text parts
 * with their spans in UTF-16 units. Encoded for a Gemini caller from another vendor's searches
 * and citations, the same way back. A Gemini upstream's own metadata rides as it was in the
 * candidate's extras; these parts then add nothing.
 * https://ai.google.dev/gemini-api/docs/google-search#grounding-metadata
 */
import type { Citation, Part, TextPart, WebSearchPart } from '../../src/canonical/index.ts';
import { utf16Offset, utf8Length as byteLength } from '../../src/kit/index.ts';
import { isRecord, type Json } from './json.ts';

const str = (x: unknown) => (typeof x === 'string' ? x : undefined);

interface Page {
  url: string;
  title?: string;
}

function pagesOf(meta: Json): Page[] {
  const chunks = Array.isArray(meta.groundingChunks) ? meta.groundingChunks : [];
  return chunks.map((c) => {
    const web = isRecord(c) && isRecord(c.web) ? c.web : {};
    const url = str(web.uri) ?? '';
    return { url, ...(str(web.title) ? { title: str(web.title) } : {}) };
  });
}

/** A support's citations of pages, with its segment as bytes [start, end) of the candidate's whole text. */
export interface GroundedStretch {
  start: number;
  end: number;
  citations: Citation[];
}

/** The stretches `groundingSupports` cite, in order. */
export function groundedStretches(meta: Json): GroundedStretch[] {
  const pages = pagesOf(meta);
  const out: GroundedStretch[] = [];
  // Stryker disable next-line ArrayDeclaration: an element in the fallback list is no object and is skipped like any other such entry
  for (const s of Array.isArray(meta.groundingSupports) ? meta.groundingSupports : []) {
    if (!isRecord(s) || !isRecord(s.segment)) continue;
    const start = typeof s.segment.startIndex === 'number' ? s.segment.startIndex : 0;
    const end = typeof s.segment.endIndex === 'number' ? s.segment.endIndex : start;
    if (end <= start) continue;
    const quote = str(s.segment.text);
    const citations: Citation[] = [];
    // Stryker disable next-line ArrayDeclaration: an element in the fallback list is no number and is skipped like any other such index
    for (const i of Array.isArray(s.groundingChunkIndices) ? s.groundingChunkIndices : []) {
      const page = typeof i === 'number' ? pages[i] : undefined;
      if (page?.url) citations.push({ url: page.url, ...(page.title ? { title: page.title } : {}), ...(quote ? { quote } : {}) });
    }
    out.push({ start, end, citations });
  }
  return out;
}

/** A stretch's citations on a text that begins at byte `at` of the candidate's text, with their spans in it. */
export function citationsIn(stretch: GroundedStretch, text: string, at: number): Citation[] {
  const span = { start: utf16Offset(text, stretch.start - at), end: utf16Offset(text, stretch.end - at) };
  return stretch.citations.map((c) => ({ ...c, span }));
}

/** Citations on the answer's text parts, from the supports' byte segments. */
function cite(content: Part[], meta: Json): void {
  const texts = content.filter((p): p is TextPart => p.type === 'text');
  const starts: number[] = [];
  let at = 0;
  for (const t of texts) {
    starts.push(at);
    at += byteLength(t.text);
  }
  for (const stretch of groundedStretches(meta)) {
    const k = starts.findLastIndex((b) => b <= stretch.start);
    const part = texts[k];
    if (part) (part.citations ??= []).push(...citationsIn(stretch, part.text, starts[k]!));
  }
}

/**
 * A candidate's grounding as web search parts (put before its answer, as a search comes before
 * what it finds) and citations on its text. Their ids are made from the candidate's.
 */
export function decodeGrounding(candidate: Json, content: Part[], id: string): void {
  const found: WebSearchPart[] = [];
  const meta = isRecord(candidate.groundingMetadata) ? candidate.groundingMetadata : undefined;
  if (meta) {
    const pages = pagesOf(meta);
    const queries = (Array.isArray(meta.webSearchQueries) ? meta.webSearchQueries : []).filter((q): q is string => typeof q === 'string');
    if (queries.length > 0 || pages.length > 0) {
      found.push({ type: 'web-search', id: `${id}_search`, kind: 'search', ...(queries.length ? { queries } : {}), results: pages.filter((p) => p.url) });
    }
    cite(content, meta);
  }
  // Stryker disable next-line ArrayDeclaration: an element in the fallback list is no object and is skipped like any other such entry
  const read = isRecord(candidate.urlContextMetadata) && Array.isArray(candidate.urlContextMetadata.urlMetadata) ? candidate.urlContextMetadata.urlMetadata : [];
  read.forEach((u, i) => {
    if (!isRecord(u) || typeof u.retrievedUrl !== 'string') return;
    const ok = u.urlRetrievalStatus === undefined || u.urlRetrievalStatus === 'URL_RETRIEVAL_STATUS_SUCCESS';
    found.push({ type: 'web-search', id: `${id}_fetch${i}`, kind: 'fetch', url: u.retrievedUrl, results: ok ? [{ url: u.retrievedUrl }] : [], ...(ok ? {} : { error: String(u.urlRetrievalStatus) }) });
  });
  content.unshift(...found);
}

/**
 * Another vendor's searches and citations as a candidate's `groundingMetadata` (and the pages it
 * read as `urlContextMetadata`), or nothing when the answer holds none.
 */
export function encodeGrounding(content: readonly Part[]): Json {
  const queries: string[] = [];
  const chunks: Json[] = [];
  const index = new Map<string, number>();
  const page = (url: string, title?: string) => {
    if (!index.has(url)) {
      index.set(url, chunks.length);
      chunks.push({ web: { uri: url, title: title ?? url } });
    }
    return index.get(url)!;
  };
  const read: Json[] = [];
  for (const p of content) {
    if (p.type !== 'web-search') continue;
    if (p.kind === 'fetch') read.push({ retrievedUrl: p.url ?? p.results[0]?.url ?? '', urlRetrievalStatus: p.error ? 'URL_RETRIEVAL_STATUS_ERROR' : 'URL_RETRIEVAL_STATUS_SUCCESS' });
    else {
      queries.push(...(p.queries ?? []));
      for (const r of p.results) page(r.url, r.title);
    }
  }
  const supports: Json[] = [];
  let bytes = 0;
  for (const p of content) {
    if (p.type !== 'text') continue;
    // Stryker disable next-line ArrayDeclaration: an element in the fallback list is no object and is skipped like any other such entry
    for (const c of p.citations ?? []) {
      if (!c.url || c.raw?.dialect === 'gemini') continue;
      const span = c.span ?? { start: 0, end: p.text.length };
      const text = p.text.slice(span.start, span.end);
      const startIndex = bytes + byteLength(p.text.slice(0, span.start));
      supports.push({ segment: { startIndex, endIndex: startIndex + byteLength(text), text }, groundingChunkIndices: [page(c.url, c.title)] });
    }
    bytes += byteLength(p.text);
  }
  const out: Json = {};
  if (queries.length > 0 || chunks.length > 0) {
    out.groundingMetadata = { ...(queries.length ? { webSearchQueries: queries } : {}), groundingChunks: chunks, ...(supports.length ? { groundingSupports: supports } : {}) };
  }
  if (read.length > 0) out.urlContextMetadata = { urlMetadata: read };
  return out;
}
