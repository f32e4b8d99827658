/**
 * Tavily's search API: `POST /search` with `{query, max_results, include_domains,
 * exclude_domains}` and the key as a bearer token; the pages in `results[]` (`title`, `url`,
 * `content`, `published_date`). https://docs.tavily.com/documentation/api-reference/endpoint/search
 */
import { hit, joinUrl, list, str, type BackendWire } from './types.ts';

export const tavily: BackendWire = {
  defaultBaseUrl: 'https://api.tavily.com',
  request(base, apiKey, ask) {
    const body = {
      query: ask.query,
      max_results: Math.min(ask.count, 20),
      ...(ask.allowedDomains && { include_domains: ask.allowedDomains }),
      ...(ask.blockedDomains && { exclude_domains: ask.blockedDomains }),
    };
    return {
      url: joinUrl(base, '/search'),
      init: { method: 'POST', headers: { 'content-type': 'application/json', ...(apiKey && { authorization: `Bearer ${apiKey}` }) }, body: JSON.stringify(body) },
    };
  },
  hits(body) {
    return list(body, 'results').flatMap((r) => hit(str(r, 'url'), str(r, 'title'), str(r, 'content'), str(r, 'published_date')));
  },
};
