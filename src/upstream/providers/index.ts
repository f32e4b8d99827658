/**
 * Who hosts an upstream: its provider turns the dialect's request (a path relative to the
 * upstream's base, the dialect's own headers and body) into what that host wants — the full URL,
 * the encoder knobs it needs (model only in the URL, version in the body…), the authentication
 * (a renamed key header; an OAuth token or a request signature made at call time), and on some
 * hosts another stream framing. Translators never know who hosts a dialect; this is the one place
 * that does. Each provider lives in its own file here; `plain` is the base URL as the vendor SDK
 * takes it, plus the path.
 */
import type { UpstreamHttpRequest } from '../../../translators/types.ts';
import type { Upstream } from '../../config/load.ts';
import { azureProvider } from './azure.ts';
import { bedrock } from './bedrock.ts';
import { compatibleFactories, providerOfHost } from './compatible.ts';
import { joinUrl } from './url.ts';
import type { AuthorizeContext, OutgoingRequest, Provider, ProviderContext } from './types.ts';
import { vertex } from './vertex.ts';

export { CredentialError, type AuthorizeContext, type OutgoingRequest, type Provider, type ProviderContext } from './types.ts';
export { joinUrl } from './url.ts';

/** The base URL as the vendor SDK takes it, plus the path. */
export const plain: Provider = {
  url: (req, ctx) => joinUrl(ctx.upstream.baseUrl, req.path),
  takesPromptCacheKey: true,
};

type Factory = (upstream: Upstream) => Provider;

/**
 * Providers by config name. Adapters register here; one instance per upstream (a provider may keep
 * state, such as a cached token).
 */
const factories: Partial<Record<NonNullable<Upstream['provider']>, Factory>> = {
  azure: azureProvider,
  bedrock,
  vertex,
  ...compatibleFactories,
};

const instances = new WeakMap<Upstream, Provider>();

export function providerOf(upstream: Upstream): Provider {
  let p = instances.get(upstream);
  if (!p) {
    // A plain `openai` upstream on a compatible host's well-known URL gets that host's quirks.
    const name = upstream.provider ?? (upstream.dialect === 'openai' ? providerOfHost(upstream.baseUrl) : undefined);
    const make = name ? factories[name] : undefined;
    p = make ? make(upstream) : plain;
    instances.set(upstream, p);
  }
  return p;
}

/** A translator's request as it goes on the wire to its upstream: URL, host headers, credentials. */
export async function outgoing(req: UpstreamHttpRequest, ctx: AuthorizeContext): Promise<OutgoingRequest> {
  const p = providerOf(ctx.upstream);
  const out: OutgoingRequest = { method: req.method, url: p.url(req, ctx), headers: p.headers ? p.headers(req.headers, ctx) : req.headers, body: req.body };
  return p.authorize ? { ...out, headers: await p.authorize(out, ctx) } : out;
}

/** The full URL of a translator's request for an upstream. */
export function urlOf(req: UpstreamHttpRequest, ctx: ProviderContext): string {
  return providerOf(ctx.upstream).url(req, ctx);
}
