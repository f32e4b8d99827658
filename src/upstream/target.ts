/**
 * What a dialect's encoder is told of a routed target (`UpstreamTarget`): its name and model, the
 * key it is sent with, and the knobs of the upstream and its host. Made once per target of a
 * request's routes (`requestRoutes`); a session's prompt cache key is the plan's to add.
 */
import type { UpstreamTarget } from '../../translators/types.ts';
import type { Config, Upstream } from '../config/load.ts';
import { providerOf } from './providers/index.ts';

/** `defaultMaxTokens`: the route's, over the upstream's own. */
export function upstreamTarget(t: { upstream: Upstream; model: string }, callerKey: string | undefined, config: Config, defaultMaxTokens?: number): UpstreamTarget {
  const u = t.upstream;
  return {
    name: u.name,
    model: t.model,
    apiKey: u.apiKey ?? (config.keys.length === 0 ? callerKey : undefined),
    options: {
      defaultMaxTokens: defaultMaxTokens ?? u.defaultMaxTokens,
      anthropicVersion: u.anthropicVersion,
      anthropicBeta: u.anthropicBeta,
      anthropicBetaAllow: u.anthropicBetaAllow,
      imageMask: u.imageMask,
      headers: u.headers,
      // The host's own knobs (model only in the URL, version in the body…).
      ...providerOf(u).options?.({ upstream: u, model: t.model }),
    },
  };
}
