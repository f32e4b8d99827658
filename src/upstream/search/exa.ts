/**
 * Exa's search API: `POST /search` with `{query, numResults, includeDomains, excludeDomains,
 * contents: {highlights}}` and the key in `x-api-key`; the pages in `results[]` (`title`, `url`,
 * `publishedDate`, `highlights[]` or `text`). https://docs.exa.ai/reference/search
 */
import { hit, joinUrl, list, str, type BackendWire } from './types.ts';

export const exa: BackendWire = {
  defaultBaseUrl: 'https://api.exa.ai',
  request(base, apiKey, ask) {
    const body = {
      query: ask.query,
      numResults: Math.min(ask.count, 20),
      ...(ask.allowedDomains && { includeDomains: ask.allowedDomains }),
      ...(ask.blockedDomains && { excludeDomains: ask.blockedDomains }),
      contents: { highlights: { maxCharacters: 500 } },
    };
    return {
      url: joinUrl(base, '/search'),
      init: { method: 'POST', headers: { 'content-type': 'application/json', ...(apiKey && { 'x-api-key': apiKey }) }, body: JSON.stringify(body) },
    };
  },
  hits(body) {
    return list(body, 'results').flatMap((r) => {
      const highlights = (r as { highlights?: unknown }).highlights;
      const text = Array.isArray(highlights) ? highlights.filter((h) => typeof h === 'string').join(' … ') : undefined;
      return hit(str(r, 'url'), str(r, 'title'), text || str(r, 'text')?.slice(0, 500), str(r, 'publishedDate'));
    });
  },
};
