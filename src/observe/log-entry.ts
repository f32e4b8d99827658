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
  upstream?: string;
  model?: string;
  status: number;
  durationMs: number;
  ttfbMs?: number;
  attempts?: number;
  /** The route's first choice failed and a later upstream served the request. */
  fallback?: boolean;
  /** Time spent waiting on the upstream (headers and body), for the proxy-overhead figure. */
  upstreamMs?: number;
  tokensIn?: number;
  tokensOut?: number;
  /** What the upstream says the call cost (OpenRouter's `usage.cost`, in its credits). */
  cost?: number;
  warnings?: string[];
  error?: string;
}
