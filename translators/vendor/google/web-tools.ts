/**
 * Google's hosted web tools ⇄ canonical `WebTool`, in generateContent's form (Interactions maps
 * its `google_search` / `url_context` to and from it): `googleSearch` (and the older
 * `googleSearchRetrieval`) searches, `urlContext` reads the pages a prompt names. Neither takes a
 * use limit, a domain list, a location or a context size.
 * https://ai.google.dev/gemini-api/docs/google-search · https://ai.google.dev/gemini-api/docs/url-context
 */
import { webToolLosses, type Warning, type WebTool } from '../../../src/canonical/index.ts';

const KIND_OF_KEY: Record<string, WebTool['kind']> = { googleSearch: 'search', googleSearchRetrieval: 'search', urlContext: 'fetch' };

/** The neutral web tool a generateContent tool entry (`{googleSearch: {…}}`) is, if it is one. */
export function decodeWebTool(key: string): WebTool | undefined {
  const kind = KIND_OF_KEY[key];
  return kind ? { kind } : undefined;
}

/** Another dialect's web tool as a generateContent tool entry; its options are reported. */
export function encodeWebTool(web: WebTool, path: string, warnings: Warning[]): Record<string, unknown> {
  warnings.push(...webToolLosses(web, [], path));
  return web.kind === 'search' ? { googleSearch: {} } : { urlContext: {} };
}
