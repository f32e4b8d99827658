/**
 * Chat Completions' hosted web search ⇄ canonical `WebTool`: `web_search_options`
 * (`search_context_size`, `user_location.approximate`), which only OpenAI's search models take
 * (`gpt-4o-search-preview`, `gpt-5-search-api`…): another dialect's search goes to a model whose
 * name says `search`, and is reported dropped for any other.
 * https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat
 */
import { webToolLosses, webUserLocation, type NativeTool, type Warning, type WebTool } from '../../src/canonical/index.ts';

/** `web_search_options` as a hosted tool of this dialect, with its neutral meaning. */
export function decodeWebSearchOptions(raw: unknown): NativeTool | undefined {
  if (raw == null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const web: WebTool = { kind: 'search' };
  const loc = r.user_location && typeof r.user_location === 'object' ? (r.user_location as Record<string, unknown>).approximate : undefined;
  const location = webUserLocation(loc);
  if (location) web.userLocation = location;
  const size = r.search_context_size;
  if (size === 'low' || size === 'medium' || size === 'high') web.contextSize = size;
  return { dialect: 'openai-chat', definition: { web_search_options: raw }, path: 'web_search_options', web };
}

/** Whether an OpenAI model takes `web_search_options`. */
export const searchesTheWeb = (model: string): boolean => /(^|[-/])search([-_.]|$)/.test(model);

/** Another dialect's web search as `web_search_options`, for a model that takes it. */
export function encodeWebSearchOptions(web: WebTool, path: string, warnings: Warning[]): Record<string, unknown> | undefined {
  if (web.kind !== 'search') return undefined;
  const options: Record<string, unknown> = {};
  if (web.contextSize) options.search_context_size = web.contextSize;
  if (web.userLocation) options.user_location = { type: 'approximate', approximate: web.userLocation };
  warnings.push(...webToolLosses(web, ['userLocation', 'contextSize'], path));
  return options;
}
