/**
 * The web search backend the proxy runs a caller's hosted search on toward an upstream without
 * one (config `search`; docs/hosted-tools.md "Search run by Interlingua"): one module per
 * provider for its wire, this one entry for the rest — the call under one deadline, the answer
 * read with a size cap, the pages filtered by the tool's domain lists (whatever the backend did
 * with them) and cut to the count asked. The backend's URL is the operator's (like an upstream's
 * base URL, a SearXNG instance may be on this machine), so it is called with the plain fetch; a
 * page the model asks to read is fetched through the guarded fetcher instead (web-search-run.ts).
 */
import { readCapped, type FetchLike } from '../../kit/index.ts';
import type { SearchConfig } from '../../config/load.ts';
import { brave } from './brave.ts';
import { exa } from './exa.ts';
import { searxng } from './searxng.ts';
import { tavily } from './tavily.ts';
import type { BackendWire, SearchAsk, SearchHit } from './types.ts';

export type { SearchAsk, SearchHit } from './types.ts';

const WIRES: Record<SearchConfig['provider'], BackendWire> = { brave, tavily, exa, searxng };

/** A search that did not happen: `code` as Anthropic's web search error codes say it. */
export class SearchFailure extends Error {
  constructor(
    readonly code: 'unavailable' | 'too_many_requests' | 'query_too_long' | 'invalid_input',
    message: string,
  ) {
    super(message);
    this.name = 'SearchFailure';
  }
}

export interface SearchBackend {
  readonly provider: SearchConfig['provider'];
  search(ask: SearchAsk, signal?: AbortSignal): Promise<SearchHit[]>;
}

export interface BackendOptions {
  timeoutMs?: number;
  maxBytes?: number;
}

/** Whether `url`'s host is `domain` or under it. */
function under(host: string, domain: string): boolean {
  const d = domain.toLowerCase().replace(/^\*\./, '').replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  return host === d || host.endsWith(`.${d}`);
}

/** Whether the tool's domain lists let `url` be shown or read (an unparsable URL: never). */
export function domainAllowed(url: string, allowed: readonly string[] | undefined, blocked: readonly string[] | undefined): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (allowed?.length && !allowed.some((d) => under(host, d))) return false;
  return !blocked?.some((d) => under(host, d));
}

export function createSearchBackend(config: SearchConfig, fetch: FetchLike, o: BackendOptions = {}): SearchBackend {
  const wire = WIRES[config.provider];
  const base = config.baseUrl ?? wire.defaultBaseUrl!;
  const timeoutMs = o.timeoutMs ?? 15_000;
  const maxBytes = o.maxBytes ?? 2 * 1024 * 1024;
  const name = config.provider;
  return {
    provider: name,
    async search(ask, signal) {
      if (ask.query.length > 400) throw new SearchFailure('query_too_long', 'The query is longer than 400 characters.');
      const { url, init } = wire.request(base, config.apiKey, ask);
      const deadline = AbortSignal.timeout(timeoutMs);
      const both = signal ? AbortSignal.any([deadline, signal]) : deadline;
      let res: Response;
      try {
        res = await fetch(url, { ...init, signal: both });
      } catch {
        throw new SearchFailure('unavailable', deadline.aborted ? `The ${name} search took longer than ${timeoutMs} ms.` : `The ${name} search backend could not be reached.`);
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new SearchFailure(res.status === 429 ? 'too_many_requests' : 'unavailable', `The ${name} search backend answered HTTP ${res.status}.`);
      }
      let body: unknown;
      try {
        const bytes = await readCapped(res.body, res.headers.get('content-length'), maxBytes, () => new Error('too big'));
        body = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        throw new SearchFailure('unavailable', `The ${name} search backend answered with something other than its JSON.`);
      }
      return wire
        .hits(body)
        .filter((h) => /^https?:\/\//i.test(h.url) && domainAllowed(h.url, ask.allowedDomains, ask.blockedDomains))
        .slice(0, ask.count);
    },
  };
}
