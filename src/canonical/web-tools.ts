/**
 * Hosted web tools in neutral terms: a search or a page fetch the upstream runs itself
 * (Anthropic `web_search_*` / `web_fetch_*`, Responses `web_search`, Gemini `googleSearch` /
 * `urlContext`, Interactions `google_search` / `url_context`, Chat `web_search_options`).
 * Decoders set `NativeTool.web` beside the definition as the caller wrote it; an encoder of
 * another dialect writes its own hosted tool from `web` and reports each option it cannot carry.
 */
export interface WebTool {
  kind: 'search' | 'fetch';
  /** The most searches or fetches the model may run in one request. */
  maxUses?: number;
  /** Only these domains (and their subdomains) may be searched or fetched. */
  allowedDomains?: string[];
  /** These domains may not be. */
  blockedDomains?: string[];
  /** Where the user is, to localise results. */
  userLocation?: WebUserLocation;
  /** How much of the results the model sees (OpenAI `search_context_size`). */
  contextSize?: 'low' | 'medium' | 'high';
}

export interface WebUserLocation {
  city?: string;
  region?: string;
  /** Two-letter ISO country code. */
  country?: string;
  /** IANA time zone. */
  timezone?: string;
}

/** The options of a web tool an upstream's own tool has no field for. */
export type WebToolOption = Exclude<keyof WebTool, 'kind'>;

/**
 * The options `web` sets that an upstream's tool cannot carry, as loss reports at `path`: a
 * domain restriction that would be ignored changes what the model may read (lossy, refused in
 * strict mode); a use limit, a location or a context size only tunes the search.
 */
export function webToolLosses(web: WebTool, carried: readonly WebToolOption[], path: string): WebToolLoss[] {
  const out: WebToolLoss[] = [];
  for (const option of ['maxUses', 'allowedDomains', 'blockedDomains', 'userLocation', 'contextSize'] as const) {
    if (web[option] === undefined || carried.includes(option)) continue;
    const lossy = option === 'allowedDomains' || option === 'blockedDomains';
    out.push({ code: 'dropped', path: `${path}.${option}`, ...(lossy ? { lossy: true } : {}) });
  }
  return out;
}

/** A loss report (a `Warning` of chat.ts, which imports this file's types). */
export interface WebToolLoss {
  code: 'dropped';
  path: string;
  lossy?: true;
}

/** The fields of a location that are strings, or undefined when none is. */
export function webUserLocation(raw: unknown): WebUserLocation | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const out: WebUserLocation = {};
  for (const k of ['city', 'region', 'country', 'timezone'] as const) if (typeof r[k] === 'string') out[k] = r[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The strings of a domain list, or undefined when it is not a non-empty list. */
export function webDomains(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out = raw.filter((d): d is string => typeof d === 'string');
  return out.length > 0 ? out : undefined;
}

/** Both kinds: what an upstream that runs every hosted web tool itself answers (`hostedWebTools`). */
export const EVERY_WEB_TOOL: ReadonlySet<WebTool['kind']> = new Set(['search', 'fetch']);
