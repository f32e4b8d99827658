/**
 * Who hosts an upstream: its provider turns the dialect's request (a path relative to the
 * upstream's base, the dialect's own headers) into what that host wants — the full URL, the
 * authentication, and on some hosts another stream framing. Translators never know who hosts a
 * dialect; this is the one place that does.
 *
 * Today every upstream is `plain`: the base URL as the vendor SDK takes it, plus the path.
 */
import type { UpstreamHttpRequest } from '../../../translators/types.ts';
import type { Upstream } from '../../config/load.ts';

export interface ProviderContext {
  upstream: Upstream;
  /** The model name sent upstream (after routing renames). */
  model: string;
}

export interface Provider {
  /** The full URL of a dialect path (`/chat/completions`, `/v1beta/models/m:generateContent`). */
  url(path: string, ctx: ProviderContext): string;
}

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

const plain: Provider = {
  url: (path, ctx) => joinUrl(ctx.upstream.baseUrl, path),
};

export function providerOf(_upstream: Upstream): Provider {
  return plain;
}

/** The full URL of a translator's request for an upstream. */
export function urlOf(req: UpstreamHttpRequest, ctx: ProviderContext): string {
  return providerOf(ctx.upstream).url(req.path, ctx);
}
