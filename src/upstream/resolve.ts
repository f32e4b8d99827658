/**
 * Model → upstream choice: `upstream/model` addressing, exact names, then globs (most specific
 * first). Returns the ordered list of attempts a request may fall back through.
 */
import { ProxyError } from '../canonical/index.ts';
import type { Config, Route, Upstream } from '../config/load.ts';

export interface ResolvedTarget {
  upstream: Upstream;
  /** Model name to send upstream. */
  model: string;
}

export interface ResolvedRoute {
  route?: Route;
  targets: ResolvedTarget[];
}

export function resolveModel(config: Config, model: string): ResolvedRoute {
  const slash = model.indexOf('/');
  if (slash > 0) {
    const upstream = config.upstreams[model.slice(0, slash)];
    if (upstream) return { targets: [{ upstream, model: model.slice(slash + 1) }] };
  }
  const route = config.exact.get(model) ?? config.globs.find((g) => g.regex.test(model));
  if (!route) {
    throw new ProxyError('not-found', `The model '${model}' does not exist or is not routed by this proxy.`, {
      param: 'model',
      code: 'model_not_found',
    });
  }
  return {
    route,
    targets: route.targets.map((t) => ({ upstream: config.upstreams[t.upstream]!, model: t.model ?? model })),
  };
}

/** The models a caller may name, for `GET /models` listings. */
export function listedModels(config: Config): Array<{ id: string; upstream: string }> {
  const out: Array<{ id: string; upstream: string }> = [];
  for (const [id, r] of config.exact) out.push({ id, upstream: r.targets[0]!.upstream });
  for (const g of config.globs) out.push({ id: g.pattern, upstream: g.targets[0]!.upstream });
  return out;
}

/** A model the config routes (by glob or `upstream/model`), as a list entry; undefined if none. */
export function routedModel(config: Config, id: string): { id: string; ownedBy: string; created: number } | undefined {
  try {
    const r = resolveModel(config, id);
    return { id, ownedBy: r.targets[0]!.upstream.name, created: 0 };
  } catch {
    return undefined;
  }
}
