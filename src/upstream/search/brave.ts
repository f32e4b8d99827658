/**
 * Brave Search's web search API: `GET /res/v1/web/search?q=…&count=…` with the key in
 * `X-Subscription-Token`; the pages in `web.results[]` (`title`, `url`, `description`, `age`).
 * https://api-dashboard.search.brave.com/app/documentation/web-search/get-started
 */
import { hit, joinUrl, list, str, type BackendWire } from './types.ts';

export const brave: BackendWire = {
  defaultBaseUrl: 'https://api.search.brave.com',
  request(base, apiKey, ask) {
    const params = new URLSearchParams({ q: ask.query, count: String(Math.min(ask.count, 20)) });
    if (ask.country) params.set('country', ask.country.toLowerCase());
    return {
      url: `${joinUrl(base, '/res/v1/web/search')}?${params}`,
      init: { method: 'GET', headers: { accept: 'application/json', ...(apiKey && { 'x-subscription-token': apiKey }) } },
    };
  },
  hits(body) {
    const web = body && typeof body === 'object' ? (body as Record<string, unknown>).web : undefined;
    return list(web, 'results').flatMap((r) => hit(str(r, 'url'), str(r, 'title'), str(r, 'description'), str(r, 'age') ?? str(r, 'page_age')));
  },
};
