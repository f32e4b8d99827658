/**
 * Model → upstream choice: exact names, `upstream/model` addressing, then globs (most specific
 * first). Returns the ordered list of attempts a request may fall back through.
 */
import { ProxyError } from '../canonical/index.ts';
import type { UpstreamTarget } from '../../translators/types.ts';
import { routeMeta, type Config, type Route, type RouteMeta, type Upstream } from '../config/load.ts';
import { upstreamTarget } from './target.ts';

export interface ResolvedTarget {
  upstream: Upstream;
  /** Model name to send upstream. */
  model: string;
}

export interface ResolvedRoute {
  route?: Route;
  targets: ResolvedTarget[];
}

/** The route the models table gives a name (exact first, then globs), if any. */
function routeOf(config: Config, model: string): Route | undefined {
  return config.exact.get(model) ?? config.globs.find((g) => g.regex.test(model));
}

function targetsOf(config: Config, route: Route, model: string): ResolvedTarget[] {
  return route.targets.map((t) => ({ upstream: config.upstreams[t.upstream]!, model: t.model ?? model }));
}

/**
 * An exact `models` entry wins; then `upstream/model` names that upstream directly (unless
 * `upstreamPrefix` is off), with the settings (strict, defaultMaxTokens) of the route the bare
 * name has; then the globs, most specific first.
 */
export function resolveModel(config: Config, model: string): ResolvedRoute {
  const exact = config.exact.get(model);
  if (exact) return { route: exact, targets: targetsOf(config, exact, model) };
  const slash = model.indexOf('/');
  if (config.upstreamPrefix && slash > 0) {
    const upstream = config.upstreams[model.slice(0, slash)];
    if (upstream) {
      const bare = model.slice(slash + 1);
      const settings = routeOf(config, bare);
      const route: Route = {
        pattern: model,
        targets: [{ upstream: upstream.name, model: bare }],
        strict: settings?.strict ?? config.strict,
        defaultMaxTokens: settings?.defaultMaxTokens,
        ...(settings && routeMeta(settings)),
      };
      return { route, targets: [{ upstream, model: bare }] };
    }
  }
  const route = routeOf(config, model);
  if (!route) {
    throw new ProxyError('not-found', `The model '${model}' does not exist or is not routed by this proxy.`, {
      param: 'model',
      code: 'model_not_found',
    });
  }
  return { route, targets: targetsOf(config, route, model) };
}

/** A target of a request's routes, with what its dialect's encoder is told of it (target.ts), made once. */
export interface RoutedTarget extends ResolvedTarget {
  upstreamTarget: UpstreamTarget;
}

/** A route of a request's routes: its targets routed. */
export interface RequestRoute extends ResolvedRoute {
  targets: RoutedTarget[];
}

/** A request's routes: each model name it names resolved once (`resolveModel`), whoever asks. */
export type Routes = (model: string) => RequestRoute;

/**
 * The routes of one request: the fast path, the stored-state rules and the flow ask for the same
 * model's route, and get the one resolution (an unknown model's error included), each target with
 * its upstream target (`callerKey`: the caller's credential, sent where the proxy has no key).
 */
export function requestRoutes(config: Config, callerKey?: string): Routes {
  const known = new Map<string, { route: RequestRoute } | { error: unknown }>();
  return (model) => {
    let r = known.get(model);
    if (!r) {
      try {
        const { route, targets } = resolveModel(config, model);
        const routed = targets.map((t) => ({ ...t, upstreamTarget: upstreamTarget(t, callerKey, config, route?.defaultMaxTokens) }));
        r = { route: { ...(route && { route }), targets: routed } };
      } catch (error) {
        r = { error };
      }
      known.set(model, r);
    }
    if ('error' in r) throw r.error;
    return r.route;
  };
}

/** The models a caller may name, for `GET /models` listings. */
export function listedModels(config: Config): Array<{ id: string; upstream: string; meta: RouteMeta }> {
  const out: Array<{ id: string; upstream: string; meta: RouteMeta }> = [];
  for (const [id, r] of config.exact) out.push({ id, upstream: r.targets[0]!.upstream, meta: routeMeta(r) });
  for (const g of config.globs) out.push({ id: g.pattern, upstream: g.targets[0]!.upstream, meta: routeMeta(g) });
  return out;
}

/** A model the config routes (by glob or `upstream/model`), as a list entry; undefined if none. */
export function routedModel(config: Config, id: string): ({ id: string; ownedBy: string; created: number } & RouteMeta) | undefined {
  try {
    const r = resolveModel(config, id);
    return { id, ownedBy: r.targets[0]!.upstream.name, created: 0, ...(r.route && routeMeta(r.route)) };
  } catch {
    return undefined;
  }
}
