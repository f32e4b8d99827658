/**
 * What an Anthropic upstream's host takes besides the body: credentials, version and betas in the
 * headers (or in the body, and the model in the URL, where the host wants them: Bedrock, Vertex),
 * and the same-dialect passthrough, which sends the caller's body as it is.
 */
import type { ChatRequest, Warning } from '../../src/canonical/index.ts';
import type { UpstreamTarget } from '../types.ts';
import { BETA_EXTRA, BETA_QUERY_EXTRA } from './decode-request.ts';

export const DEFAULT_VERSION = '2023-06-01';

/**
 * Request headers: credentials, version, betas (configured + the caller's, those the upstream's
 * allow-list lets through; the others are reported in `warnings` and never sent).
 */
export function upstreamHeaders(
  target: UpstreamTarget,
  version: string | undefined,
  callerBetas: readonly string[],
  warnings?: Warning[],
): Record<string, string> {
  const headers: Record<string, string> = {
    ...target.options.headers,
    'content-type': 'application/json',
    'anthropic-version': version ?? target.options.anthropicVersion ?? DEFAULT_VERSION,
  };
  if (target.apiKey) headers['x-api-key'] = target.apiKey;
  const betas = allowedBetas([...new Set([...(target.options.anthropicBeta ?? []), ...callerBetas])], target.options.anthropicBetaAllow, warnings);
  if (betas.length) headers['anthropic-beta'] = betas.join(',');
  return headers;
}

/** The betas an upstream may receive (`anthropicBetaAllow`: exact names or `prefix*`); the rest reported dropped. */
export function allowedBetas(betas: readonly string[], allow: readonly string[] | undefined, warnings?: Warning[]): string[] {
  if (!allow) return [...betas];
  return betas.filter((b) => {
    const ok = allow.some((a) => (a.endsWith('*') ? b.startsWith(a.slice(0, -1)) : a === b));
    if (!ok) warnings?.push({ code: 'dropped', path: 'anthropic-beta', detail: b, lossy: true });
    return ok;
  });
}

/**
 * Where a host wants the model, the version and the betas (UpstreamOptions): moved from the
 * headers into the body, or the model left to the URL. Returns the body and headers to send.
 */
export function forHost(body: Record<string, unknown>, headers: Record<string, string>, target: UpstreamTarget, count = false): [Record<string, unknown>, Record<string, string>] {
  const o = target.options;
  if (hostless(o)) return [body, headers];
  const b = { ...body };
  const h = { ...headers };
  if (o.modelInBody === false && !(count && o.countTokensModelInBody)) delete b.model;
  if (o.streamInBody === false) delete b.stream;
  if (o.anthropicVersionInBody) {
    b.anthropic_version = o.anthropicVersionInBody;
    delete h['anthropic-version'];
  }
  if (o.betasInBody && h['anthropic-beta']) {
    b.anthropic_beta = h['anthropic-beta'].split(',').map((s) => s.trim()).filter(Boolean);
    delete h['anthropic-beta'];
  }
  return [b, h];
}

export const hostless = (o: UpstreamTarget['options']) => o.modelInBody !== false && !o.anthropicVersionInBody && !o.betasInBody && o.streamInBody !== false;

/** An Anthropic caller's `anthropic-beta` values, and its `?beta=true` that goes with them. */
export function callerBetas(req: ChatRequest): { betas: string[]; query: string } {
  const fields = req.extras?.dialect === 'anthropic' ? req.extras.fields : undefined;
  const raw = fields?.[BETA_EXTRA];
  const betas = Array.isArray(raw) ? raw.filter((b): b is string => typeof b === 'string') : [];
  // Stryker disable next-line OptionalChaining: with no fields there are no betas, and the query is not read
  return { betas, query: betas.length && fields?.[BETA_QUERY_EXTRA] === 'true' ? '?beta=true' : '' };
}
