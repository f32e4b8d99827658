/**
 * One search or page read the proxy runs for a model that has no hosted web tool (the chat flow's
 * search loop, web-search.ts): the model called the function standing for the caller's hosted
 * tool, and gets back a tool result, while the caller is shown a `web-search` part as if the
 * upstream had searched. The tool's options hold: `maxUses` (past it, Anthropic's
 * `max_uses_exceeded`), the domain lists (results outside dropped, a read outside refused). A
 * search goes to the configured backend; a page is read through the guarded fetcher (no private
 * address, one deadline, a size cap) and made into readable text.
 */
import { ProxyError, type ToolCallPart, type ToolResultPart, type WebSearchPart, type WebTool } from '../canonical/index.ts';
import { pageText } from '../kit/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { GuardedFetch } from '../upstream/guarded-fetch.ts';
import { SearchFailure, domainAllowed, type SearchBackend, type SearchHit } from '../upstream/search/index.ts';

/** Most characters of a page's text the model is given. */
export const PAGE_TEXT_CHARS = 20_000;
/** Largest page read (bytes), before it is made into text. */
export const PAGE_BYTES = 2 * 1024 * 1024;

/** What the model is offered for each kind of web tool. */
export const WEB_FUNCTIONS = {
  search: {
    name: 'web_search',
    description: 'Search the web. Returns the top results, each with its title, URL and an excerpt. Cite the URLs of the results you use.',
    parameters: { type: 'object', properties: { query: { type: 'string', description: 'The search query.' } }, required: ['query'] },
  },
  fetch: {
    name: 'web_fetch',
    description: 'Read a web page. Returns its title and readable text. Cite its URL when you use it.',
    parameters: { type: 'object', properties: { url: { type: 'string', description: 'The http(s) URL of the page.' } }, required: ['url'] },
  },
} as const;

/** A call's outcome: the part the caller is shown, the result the model is given. */
export interface WebOutcome {
  part: WebSearchPart;
  result: ToolResultPart;
}

export interface WebRunnerDeps {
  scope: RequestScope;
  backend: SearchBackend;
  guardedFetch: GuardedFetch;
  maxResults: number;
}

/** Content types a page may be read as. */
const TEXTUAL = (t: string) => t.startsWith('text/') || t === 'application/json' || t === 'application/xhtml+xml' || t === 'application/xml';

/** Runs the model's calls to the web functions (`tools`: function name → the web tool it stands for). */
export class WebRunner {
  readonly #uses = { search: 0, fetch: 0 };
  constructor(
    private readonly d: WebRunnerDeps,
    readonly tools: ReadonlyMap<string, WebTool>,
  ) {}

  /** Whether `call` is one of ours (else it is the caller's own tool). */
  owns(call: ToolCallPart): boolean {
    return this.tools.has(call.name);
  }

  async run(call: ToolCallPart): Promise<WebOutcome> {
    const tool = this.tools.get(call.name)!;
    const arg = argument(call.arguments, tool.kind === 'search' ? 'query' : 'url');
    const startMs = this.d.scope.now();
    const backend = tool.kind === 'search' ? this.d.backend.provider : 'fetch';
    const done = (o: { results: SearchHit[]; text: string; error?: string; title?: string }): WebOutcome => {
      const ms = this.d.scope.now() - startMs;
      this.d.scope.ranWeb({ kind: tool.kind, backend, what: arg ?? '', results: o.results.length, ms, startMs, ...(o.error && { error: o.error }) });
      const part: WebSearchPart = {
        type: 'web-search',
        id: call.id,
        kind: tool.kind,
        ...(tool.kind === 'search' ? { queries: arg ? [arg] : [] } : arg ? { url: arg } : {}),
        results: o.results.map((h) => ({ url: h.url, ...(h.title && { title: h.title }), ...(h.pageAge && { pageAge: h.pageAge }) })),
        ...(o.error && { error: o.error }),
      };
      const result: ToolResultPart = { type: 'tool-result', callId: call.id, name: call.name, content: [{ type: 'text', text: o.text }], ...(o.error && { isError: true }) };
      return { part, result };
    };
    const fail = (code: string, message: string) => done({ results: [], text: `Error (${code}): ${message}`, error: code });
    if (!arg) return fail('invalid_tool_input', `Call ${call.name} with a "${tool.kind === 'search' ? 'query' : 'url'}" string.`);
    if (tool.maxUses !== undefined && ++this.#uses[tool.kind] > tool.maxUses) {
      return fail('max_uses_exceeded', `No more ${tool.kind === 'search' ? 'searches' : 'page reads'} in this request (at most ${tool.maxUses}). Answer with what you have.`);
    }
    if (tool.kind === 'search') {
      try {
        const hits = await this.d.backend.search(
          { query: arg, count: this.d.maxResults, ...(tool.allowedDomains && { allowedDomains: tool.allowedDomains }), ...(tool.blockedDomains && { blockedDomains: tool.blockedDomains }), ...(tool.userLocation?.country && { country: tool.userLocation.country }) },
          this.d.scope.upstreamAbort.signal,
        );
        return done({ results: hits, text: searchText(arg, hits) });
      } catch (e) {
        if (e instanceof SearchFailure) return fail(e.code, e.message);
        throw e;
      }
    }
    if (arg.length > 2000) return fail('url_too_long', 'The URL is longer than 2000 characters.');
    if (!/^https?:\/\//i.test(arg)) return fail('invalid_tool_input', 'Only http and https URLs can be read.');
    if (!domainAllowed(arg, tool.allowedDomains, tool.blockedDomains)) return fail('url_not_allowed', 'This request may not read pages of that domain.');
    try {
      const got = await this.d.guardedFetch(arg, { accept: TEXTUAL, signal: this.d.scope.upstreamAbort.signal, maxBytes: PAGE_BYTES });
      const page = pageText(new TextDecoder().decode(got.data), got.mediaType, PAGE_TEXT_CHARS);
      const head = `${page.title ? `Title: ${page.title}\n` : ''}URL: ${arg}\n\n`;
      const text = head + page.text + (page.truncated ? `\n\n[cut at ${PAGE_TEXT_CHARS} characters]` : '');
      return done({ results: [{ url: arg, ...(page.title && { title: page.title }) }], text });
    } catch (e) {
      if (!(e instanceof ProxyError)) throw e;
      // The request's own deadline or the caller going away ends the request, not just this read.
      if (this.d.scope.aborted) throw this.d.scope.reason ?? e;
      const code = /not acceptable/.test(e.message) ? 'unsupported_content_type' : 'url_not_accessible';
      return fail(code, e.message.replace(/\bMedia\b/g, 'The page').replace(/\bmedia\b/g, 'the page'));
    }
  }
}

/** The string field `key` of a call's JSON arguments, or undefined. */
function argument(args: string, key: string): string | undefined {
  try {
    const v = (JSON.parse(args) as Record<string, unknown> | null)?.[key];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The results as the model reads them. */
function searchText(query: string, hits: readonly SearchHit[]): string {
  if (hits.length === 0) return `No results for "${query}".`;
  const lines = hits.map((h, i) => [`${i + 1}. ${h.title ?? h.url}`, `URL: ${h.url}`, ...(h.pageAge ? [`Age: ${h.pageAge}`] : []), ...(h.snippet ? [h.snippet] : [])].join('\n'));
  return `Results for "${query}":\n\n${lines.join('\n\n')}`;
}
