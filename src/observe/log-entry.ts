/**
 * The one log line written when a request ends: what the log, metrics, traces and the inspector
 * read of a finished request. Its own file so those readers need not import the request scope.
 */
import type { DialectId } from '../canonical/index.ts';

export interface LogEntry {
  time: string;
  requestId: string;
  route: string;
  caller: DialectId | 'none';
  /** The inbound key's name (its `name` in the config, else `keys[i]`); never the key. */
  keyName?: string;
  /** A turn on a Responses WebSocket: the request id of the socket's upgrade (its `responses.socket` line). */
  socket?: string;
  upstream?: string;
  model?: string;
  status: number;
  durationMs: number;
  ttfbMs?: number;
  attempts?: number;
  /** The route's first choice failed and a later upstream served the request. */
  fallback?: boolean;
  /** Of a key pool: the position (in the upstream's list) of the key that served the request. */
  upstreamKey?: number;
  /**
   * Keys of a pool this request cooled down, each as `upstream apiKey[i]#fingerprint status, N s`:
   * a position and a fingerprint, never the key.
   */
  keyCooldowns?: string[];
  /** Time spent waiting on the upstream (headers and body), for the proxy-overhead figure. */
  upstreamMs?: number;
  tokensIn?: number;
  tokensOut?: number;
  /** The token counts are an estimate: the stream ended before the upstream said them (docs/team.md). */
  tokensEstimated?: boolean;
  /**
   * What the call cost in US dollars: the upstream's own figure where it gives one (OpenRouter's
   * `usage.cost`), else its usage at the price of the model sent upstream.
   */
  cost?: number;
  /** The model sent upstream, when it has no price: the cost is not known (never taken as 0). */
  unpriced?: string;
  /** Hosted web searches and page fetches the upstream ran for the answer (docs/hosted-tools.md). */
  webSearches?: number;
  /**
   * The searches and page reads the proxy ran itself on its search backend (docs/hosted-tools.md
   * "Search run by Interlingua"), in order: what, on which backend, how many results, how long.
   * Never the query or the URL (the caller's content: the inspector and captured traces show them).
   */
  webRuns?: WebRunLine[];
  /** The key's limit that refused the request (`requestsPerMinute`, `tokensPerDay`…). */
  limit?: string;
  warnings?: string[];
  error?: string;
}

/** A search or page read the proxy ran, as the log line says it. */
export interface WebRunLine {
  kind: 'search' | 'fetch';
  /** The search backend (`brave`…), or `fetch` for a page read through the guarded fetcher. */
  backend: string;
  results: number;
  ms: number;
  /** Why it gave nothing (`max_uses_exceeded`, `unavailable`, `url_not_allowed`…). */
  error?: string;
}

/** A search or page read the proxy ran, with what was asked. */
export interface WebRun extends WebRunLine {
  /** The query searched, or the URL read. */
  what: string;
  /** When it started (the scope's clock). */
  startMs: number;
}
