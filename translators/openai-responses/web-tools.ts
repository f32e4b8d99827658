/**
 * Responses' hosted web search ⇄ canonical `WebTool`: `web_search` (and its dated and preview
 * forms) with `filters.allowed_domains`, `user_location` and `search_context_size`. Responses has
 * no hosted fetch, no use limit and no block-list.
 * https://platform.openai.com/docs/guides/tools-web-search
 */
import { webDomains, webToolLosses, webUserLocation, type Warning, type WebTool } from '../../src/canonical/index.ts';

const SEARCH_TYPES = /^web_search(_preview)?(_\d{4}_\d{2}_\d{2})?$/;

/** The neutral web tool a Responses tool definition is, if it is one. */
export function decodeWebTool(raw: Record<string, unknown>): WebTool | undefined {
  if (typeof raw.type !== 'string' || !SEARCH_TYPES.test(raw.type)) return undefined;
  const web: WebTool = { kind: 'search' };
  // Read as it comes: a filters that is no object has no allowed_domains (undefined), as JSON gives none other.
  const allowed = webDomains((raw.filters as { allowed_domains?: unknown } | null | undefined)?.allowed_domains);
  if (allowed) web.allowedDomains = allowed;
  const location = webUserLocation(raw.user_location);
  if (location) web.userLocation = location;
  const size = raw.search_context_size;
  if (size === 'low' || size === 'medium' || size === 'high') web.contextSize = size;
  return web;
}

/** Another dialect's web search as Responses' `web_search`; a fetch has no Responses form. */
export function encodeWebTool(web: WebTool, path: string, warnings: Warning[]): Record<string, unknown> | undefined {
  if (web.kind !== 'search') return undefined;
  const tool: Record<string, unknown> = { type: 'web_search' };
  if (web.allowedDomains) tool.filters = { allowed_domains: web.allowedDomains };
  if (web.userLocation) tool.user_location = { type: 'approximate', ...web.userLocation };
  if (web.contextSize) tool.search_context_size = web.contextSize;
  warnings.push(...webToolLosses(web, ['allowedDomains', 'userLocation', 'contextSize'], path));
  return tool;
}
