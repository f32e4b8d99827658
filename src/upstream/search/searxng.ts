/**
 * A SearXNG instance's search: `GET /search?q=…&format=json` (the instance must allow the `json`
 * format in its settings); the pages in `results[]` (`title`, `url`, `content`, `publishedDate`).
 * It has no key of its own: an `apiKey`, when set, goes as a bearer token (for an instance
 * behind an authenticating proxy). https://docs.searxng.org/dev/search_api.html
 */
import { hit, joinUrl, list, str, type BackendWire } from './types.ts';

export const searxng: BackendWire = {
  request(base, apiKey, ask) {
    const params = new URLSearchParams({ q: ask.query, format: 'json' });
    return {
      url: `${joinUrl(base, '/search')}?${params}`,
      init: { method: 'GET', headers: { accept: 'application/json', ...(apiKey && { authorization: `Bearer ${apiKey}` }) } },
    };
  },
  hits(body) {
    return list(body, 'results').flatMap((r) => hit(str(r, 'url'), str(r, 'title'), str(r, 'content'), str(r, 'publishedDate')));
  },
};
