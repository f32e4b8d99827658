/**
 * Chat Completions' hosted web search ⇄ canonical `WebTool`: `web_search_options`
 * (`search_context_size`, `user_location.approximate`), which only OpenAI's search models take
 * (`gpt-4o-search-preview`, `gpt-5-search-api`…): another dialect's search goes to a model whose
 * name says `search`. OpenRouter runs search and fetch for any model as its server tools
 * (`openrouter:web_search` with `max_results`, a domain list, the location and the context size;
 * `openrouter:web_fetch`), which replaced its `web` plugin and `:online` suffix; the pages come
 * back as the message's `url_citation` annotations. Elsewhere the tool is reported dropped.
 * https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat
 * https://openrouter.ai/docs/guides/features/server-tools/web-search
 */
import { webToolLosses, webUserLocation, type NativeTool, type Warning, type WebTool } from '../../src/canonical/index.ts';
import type { UpstreamTarget } from '../types.ts';

/** `web_search_options` as a hosted tool of this dialect, with its neutral meaning. */
export function decodeWebSearchOptions(raw: unknown): NativeTool | undefined {
  if (raw == null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const web: WebTool = { kind: 'search' };
  // Stryker disable next-line ConditionalExpression: a truthy primitive has no `approximate` either, so the type test only guards null
  const loc = r.user_location && typeof r.user_location === 'object' ? (r.user_location as Record<string, unknown>).approximate : undefined;
  const location = webUserLocation(loc);
  if (location) web.userLocation = location;
  const size = r.search_context_size;
  if (size === 'low' || size === 'medium' || size === 'high') web.contextSize = size;
  return { dialect: 'openai-chat', definition: { web_search_options: raw }, path: 'web_search_options', web };
}

/** Whether an OpenAI model takes `web_search_options`. */
export const searchesTheWeb = (model: string): boolean => /(^|[-/])search([-_.]|$)/.test(model);

/** How a Chat Completions upstream runs a web tool itself, if it does: OpenRouter's server tools, or a search model's options. */
export function chatWebForm(target: Pick<UpstreamTarget, 'model' | 'options'>, kind: WebTool['kind']): 'openrouter' | 'web_search_options' | undefined {
  if (target.options.webTools === 'openrouter') return 'openrouter';
  return kind === 'search' && searchesTheWeb(target.model) ? 'web_search_options' : undefined;
}

/** The hosted web tools a Chat Completions upstream runs itself for `target`. */
export function chatHostedWebTools(target: Pick<UpstreamTarget, 'model' | 'options'>): ReadonlySet<WebTool['kind']> {
  return new Set((['search', 'fetch'] as const).filter((kind) => chatWebForm(target, kind) !== undefined));
}

/** Another dialect's web tool as OpenRouter's server tool; what it cannot carry is reported. */
export function encodeOpenRouterTool(web: WebTool, path: string, warnings: Warning[]): Record<string, unknown> {
  if (web.kind === 'fetch') {
    // Stryker disable next-line ArrayDeclaration: no option is named like Stryker's filler, so any list without an option's name is the same
    warnings.push(...webToolLosses(web, [], path));
    return { type: 'openrouter:web_fetch' };
  }
  const parameters: Record<string, unknown> = {};
  const carried: Array<Exclude<keyof WebTool, 'kind'>> = ['userLocation', 'contextSize'];
  // One domain list, as Anthropic takes: the allow-list wins.
  if (web.allowedDomains) {
    parameters.allowed_domains = web.allowedDomains;
    carried.push('allowedDomains');
  } else if (web.blockedDomains) {
    parameters.excluded_domains = web.blockedDomains;
    carried.push('blockedDomains');
  }
  if (web.userLocation) parameters.user_location = { type: 'approximate', ...web.userLocation };
  if (web.contextSize) parameters.search_context_size = web.contextSize;
  warnings.push(...webToolLosses(web, carried, path));
  return { type: 'openrouter:web_search', ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
}

/** Another dialect's web search as `web_search_options`, for a model that takes it. */
export function encodeWebSearchOptions(web: WebTool, path: string, warnings: Warning[]): Record<string, unknown> | undefined {
  if (web.kind !== 'search') return undefined;
  const options: Record<string, unknown> = {};
  if (web.contextSize) options.search_context_size = web.contextSize;
  if (web.userLocation) options.user_location = { type: 'approximate', approximate: web.userLocation };
  warnings.push(...webToolLosses(web, ['userLocation', 'contextSize'], path));
  return options;
}
