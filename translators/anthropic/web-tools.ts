/**
 * Anthropic's hosted web tools ⇄ canonical `WebTool`: `web_search_<date>` and `web_fetch_<date>`
 * (max_uses, allowed_domains / blocked_domains, user_location on search). A fetch needs the
 * `web-fetch-2025-09-10` beta, added when another dialect's fetch tool is written.
 * https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
import { webDomains, webToolLosses, webUserLocation, type Warning, type WebTool, type WebToolOption } from '../../src/canonical/index.ts';

export const WEB_SEARCH_TYPE = 'web_search_20250305';
export const WEB_FETCH_TYPE = 'web_fetch_20250910';
export const WEB_FETCH_BETA = 'web-fetch-2025-09-10';

/** The neutral web tool an Anthropic tool definition is, if it is one. */
export function decodeWebTool(raw: Record<string, unknown>): WebTool | undefined {
  const type = raw.type;
  const kind = typeof type !== 'string' ? undefined : /^web_search_\d+$/.test(type) ? 'search' : /^web_fetch_\d+$/.test(type) ? 'fetch' : undefined;
  if (!kind) return undefined;
  const web: WebTool = { kind };
  if (typeof raw.max_uses === 'number') web.maxUses = raw.max_uses;
  const allowed = webDomains(raw.allowed_domains);
  if (allowed) web.allowedDomains = allowed;
  const blocked = webDomains(raw.blocked_domains);
  if (blocked) web.blockedDomains = blocked;
  const location = webUserLocation(raw.user_location);
  if (location) web.userLocation = location;
  return web;
}

/**
 * Another dialect's web tool as Anthropic's own. Anthropic takes one domain list, not both: the
 * allow-list wins and the block-list is reported. A fetch has no user location.
 */
export function encodeWebTool(web: WebTool, path: string, warnings: Warning[]): Record<string, unknown> {
  const search = web.kind === 'search';
  const tool: Record<string, unknown> = search ? { type: WEB_SEARCH_TYPE, name: 'web_search' } : { type: WEB_FETCH_TYPE, name: 'web_fetch' };
  const carried: WebToolOption[] = ['maxUses'];
  if (web.maxUses !== undefined) tool.max_uses = web.maxUses;
  if (web.allowedDomains) {
    tool.allowed_domains = web.allowedDomains;
    carried.push('allowedDomains');
  } else if (web.blockedDomains) {
    tool.blocked_domains = web.blockedDomains;
    carried.push('blockedDomains');
  }
  if (search && web.userLocation) {
    tool.user_location = { type: 'approximate', ...web.userLocation };
    carried.push('userLocation');
  }
  warnings.push(...webToolLosses(web, carried, path));
  return tool;
}

/** The betas a request needs for the web tools written from another dialect's (a fetch's beta). */
export function webToolBetas(nativeTools: readonly { dialect: string; web?: WebTool }[] | undefined): string[] {
  return nativeTools?.some((t) => t.dialect !== 'anthropic' && t.web?.kind === 'fetch') ? [WEB_FETCH_BETA] : [];
}
