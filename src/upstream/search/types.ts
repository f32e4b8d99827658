/**
 * A web search backend's wire, in the terms every backend module shares: what is asked (`SearchAsk`),
 * the HTTP request a backend makes of it, and the pages it found (`SearchHit`).
 */

/** One search the proxy runs for the model. */
export interface SearchAsk {
  query: string;
  /** Results wanted (the config's `maxResults`). */
  count: number;
  /** Only these domains (and their subdomains): passed to backends that filter, filtered after anyway. */
  allowedDomains?: string[];
  blockedDomains?: string[];
  /** Two-letter country code, where the backend localises. */
  country?: string;
}

/** A page a backend found. */
export interface SearchHit {
  url: string;
  title?: string;
  /** The backend's excerpt of the page. */
  snippet?: string;
  /** How old the page is, as the backend says it. */
  pageAge?: string;
}

/** The request a backend makes: a URL and its init (the key in a header, never in the URL but for none). */
export interface BackendRequest {
  url: string;
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
}

/** One backend's wire: its request for an ask, and its answer's pages. */
export interface BackendWire {
  /** The public API base, when the provider has one. */
  defaultBaseUrl?: string;
  request(base: string, apiKey: string | undefined, ask: SearchAsk): BackendRequest;
  /** The pages of the backend's JSON answer (an unexpected shape: none). */
  hits(body: unknown): SearchHit[];
}

/** A page of a backend's answer, its fields as read (none without a URL). */
export function hit(url: string | undefined, title: string | undefined, snippet: string | undefined, pageAge: string | undefined): SearchHit[] {
  return url ? [{ url, ...(title && { title }), ...(snippet && { snippet }), ...(pageAge && { pageAge }) }] : [];
}

/** A string field of an object, or undefined. */
export function str(o: unknown, key: string): string | undefined {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The objects of a list field (an absent or wrong one: none). */
export function list(o: unknown, key: string): unknown[] {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : [];
}

/** `base` + `path`, without a doubled slash. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
