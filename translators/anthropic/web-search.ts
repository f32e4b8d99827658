/**
 * Hosted web searches and fetches ⇄ Anthropic's blocks: a `server_tool_use` (`web_search` with its
 * query, `web_fetch` with its URL) and the result block after it (`web_search_tool_result` with its
 * `web_search_result`s, `web_fetch_tool_result`), and text citing them (`citations` of type
 * `web_search_result_location`, one text block per cited stretch, as Claude writes them).
 *
 * Another vendor's search has no Anthropic `encrypted_content` / `encrypted_index`: ours are the
 * origin-tagged carrier of the page's URL, so a caller that sends the blocks back is read as
 * having another vendor's search, which is never replayed to Anthropic as if it were its own.
 * https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
import {
  decodeSignature,
  encodeSignature,
  type Citation,
  type DialectId,
  type Signature,
  type TextPart,
  type Vendor,
  type WebResult,
  type WebSearchPart,
} from '../../src/canonical/index.ts';
import { isJsonObject as isRecord } from '../../src/kit/index.ts';
import { encodeCitations } from './citations.ts';
import { DIRECT_CALLER, type AnthropicResponseBlock } from './wire.ts';

type Block = Record<string, unknown>;
const str = (x: unknown) => (typeof x === 'string' ? x : undefined);

/** The vendor of a dialect's search; Gemini's dialects, and a part of no known dialect, are Gemini's. */
const VENDOR_OF: Partial<Record<DialectId, Vendor>> = { 'openai-chat': 'openai', 'openai-responses': 'openai' };

/** Whether a `server_tool_use` block is a web search or fetch this file reads. */
export const isWebToolUse = (b: Block): boolean => b.type === 'server_tool_use' && (b.name === 'web_search' || b.name === 'web_fetch');

/** A `server_tool_use` and the result block answering it → one web search part. */
export function decodeWebSearch(use: Block, result: Block | undefined): WebSearchPart {
  const input = isRecord(use.input) ? use.input : {};
  const id = str(use.id) ?? '';
  const fetch = use.name === 'web_fetch';
  const part: WebSearchPart = { type: 'web-search', id, kind: fetch ? 'fetch' : 'search', results: [] };
  const query = str(input.query);
  if (query !== undefined) part.queries = [query];
  const url = str(input.url);
  if (url !== undefined) part.url = url;
  const content = result?.content;
  let ours = false;
  if (Array.isArray(content)) {
    for (const r of content) {
      if (!isRecord(r) || typeof r.url !== 'string') continue;
      if (typeof r.encrypted_content === 'string' && decodeSignature(r.encrypted_content)) ours = true;
      part.results.push({ url: r.url, ...(str(r.title) ? { title: str(r.title) } : {}), ...(str(r.page_age) ? { pageAge: str(r.page_age) } : {}) });
    }
  } else if (isRecord(content)) {
    const code = str(content.error_code);
    if (code) part.error = code;
    else if (typeof content.url === 'string') {
      const doc = isRecord(content.content) ? content.content : {};
      part.results.push({ url: content.url, ...(str(doc.title) ? { title: str(doc.title) } : {}) });
    }
  }
  if (!ours) part.raw = { dialect: 'anthropic', value: result ? [use, result] : [use] };
  return part;
}

function carrier(origin: Vendor, value: string): string {
  return encodeSignature({ origin, value } satisfies Signature);
}

const originOf = (part: { raw?: { dialect: DialectId } }): Vendor => (part.raw && VENDOR_OF[part.raw.dialect]) ?? 'gemini';

/** A tool-use id Anthropic's SDKs show as a server tool's (`srvtoolu_…`). */
const serverToolId = (id: string) => (id.startsWith('srvtoolu_') ? id : `srvtoolu_${id.replace(/[^A-Za-z0-9_-]/g, '') || '0'}`);

function resultBlock(part: WebSearchPart, id: string, origin: Vendor): Block {
  if (part.kind === 'fetch') {
    const page = part.results[0];
    const content = part.error
      ? { type: 'web_fetch_tool_error', error_code: part.error }
      : { type: 'web_fetch_result', url: page?.url ?? part.url ?? '', retrieved_at: null, content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '' }, title: page?.title ?? null, citations: null } };
    return { type: 'web_fetch_tool_result', tool_use_id: id, content, caller: DIRECT_CALLER };
  }
  const content = part.error
    ? { type: 'web_search_tool_result_error', error_code: part.error }
    : part.results.map((r: WebResult) => ({ type: 'web_search_result', url: r.url, title: r.title ?? r.url, encrypted_content: carrier(origin, r.url), page_age: r.pageAge ?? null }));
  return { type: 'web_search_tool_result', tool_use_id: id, content, caller: DIRECT_CALLER };
}

/** The two blocks of a web search: Anthropic's own as they were, another vendor's in Anthropic's shape. */
export function encodeWebSearch(part: WebSearchPart): AnthropicResponseBlock[] {
  if (part.raw?.dialect === 'anthropic' && Array.isArray(part.raw.value)) return part.raw.value as AnthropicResponseBlock[];
  const id = serverToolId(part.id);
  const search = part.kind === 'search';
  const input = search ? { query: (part.queries ?? []).join(' | ') } : { url: part.url ?? part.results[0]?.url ?? '' };
  const use = { type: 'server_tool_use', id, name: search ? 'web_search' : 'web_fetch', input, caller: DIRECT_CALLER };
  return [use, resultBlock(part, id, originOf(part))];
}

/** A citation of a page. */
type PageCitation = Citation & { url: string };

/** A citation of another vendor's page as Anthropic's `web_search_result_location`. */
function location(c: PageCitation, citedText: string): Block {
  const origin = originOf(c);
  return { type: 'web_search_result_location', url: c.url, title: c.title ?? null, cited_text: c.quote ?? citedText, encrypted_index: carrier(origin, c.url) };
}

/**
 * A text part as text blocks: with Anthropic's own citations, one block as it was; with another
 * vendor's citations of spans, one block per stretch between span edges, each citing the pages
 * whose spans cover it (Claude's own answers are shaped so: cited sentences in blocks of their own).
 */
export function citedTextBlocks(p: TextPart): Array<{ type: 'text'; text: string; citations: unknown[] | null }> {
  const own = encodeCitations(p.citations);
  // With no citation of Anthropic's own (else `own`), every one naming a page is another vendor's.
  const foreign = p.citations?.filter((c): c is PageCitation => !!c.url) ?? [];
  if (own || foreign.length === 0) return [{ type: 'text', text: p.text, citations: own }];
  const whole = foreign.filter((c) => !c.span);
  const spans = foreign.filter((c) => c.span && c.span.end > c.span.start);
  const cuts = new Set([0, p.text.length]);
  for (const c of spans) {
    cuts.add(Math.max(0, Math.min(p.text.length, c.span!.start)));
    cuts.add(Math.max(0, Math.min(p.text.length, c.span!.end)));
  }
  const edges = [...cuts].sort((a, b) => a - b);
  const blocks: Array<{ type: 'text'; text: string; citations: unknown[] | null }> = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const [start, end] = [edges[i]!, edges[i + 1]!];
    const text = p.text.slice(start, end);
    const covering = [...spans.filter((c) => c.span!.start <= start && c.span!.end >= end), ...(blocks.length === 0 ? whole : [])];
    const cites = covering.map((c) => location(c, text));
    blocks.push({ type: 'text', text, citations: cites.length ? cites : null });
  }
  return blocks;
}

/** `usage.server_tool_use`: the searches and fetches the answer holds, when it holds any. */
export function serverToolUse(parts: readonly { type: string; kind?: string }[]): { web_search_requests: number; web_fetch_requests: number } | undefined {
  let search = 0;
  let fetch = 0;
  for (const p of parts) if (p.type === 'web-search') p.kind === 'fetch' ? fetch++ : search++;
  return search + fetch > 0 ? { web_search_requests: search, web_fetch_requests: fetch } : undefined;
}

