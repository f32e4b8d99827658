/** URL building shared by the provider adapters (kept apart from the registry, which imports them). */

/**
 * `base` + `path`, with `base`'s own query kept after the path (an Azure or proxy base URL may
 * carry one) and merged with the path's. Neither part is re-encoded.
 */
export function joinUrl(base: string, path: string): string {
  const q = base.indexOf('?');
  const [baseHead, baseQuery] = q < 0 ? [base, ''] : [base.slice(0, q), base.slice(q + 1)];
  const p = path.indexOf('?');
  const [pathHead, pathQuery] = p < 0 ? [path, ''] : [path.slice(0, p), path.slice(p + 1)];
  const query = [baseQuery, pathQuery].filter(Boolean).join('&');
  return `${baseHead.replace(/\/+$/, '')}${pathHead}${query ? `?${query}` : ''}`;
}
