/**
 * Model lists: the configured names (globs shown as configured), plus each upstream's own list
 * where it can be asked (upstreams with a key of their own), kept behind a short cache. An
 * upstream model is listed only when the config routes that name to that upstream.
 */
import type { FetchLike } from '../kit/index.ts';
import type { ModelInfo } from '../../translators/types.ts';
import type { Registry } from '../../translators/index.ts';
import type { Config, Upstream } from '../config/load.ts';
import { outgoing, providerOf } from '../upstream/providers/index.ts';
import { listedModels, resolveModel, routedModel } from '../upstream/resolve.ts';

const TTL_MS = 5 * 60_000;
const TIMEOUT_MS = 5_000;

export interface ModelLister {
  list(): Promise<ModelInfo[]>;
  /** One model by the name a caller would send (`models/` prefix allowed): configured, or routable. */
  find(id: string): ModelInfo | undefined;
}

function routesTo(config: Config, id: string, upstream: Upstream): boolean {
  try {
    const r = resolveModel(config, id);
    return r.targets[0]!.upstream.name === upstream.name && r.targets[0]!.model === id;
  } catch {
    return false;
  }
}

export function createModelLister(config: Config, registry: Registry, fetch: FetchLike, now: () => number): ModelLister {
  const cache = new Map<string, { at: number; ids: Promise<string[]> }>();

  const ask = async (u: Upstream): Promise<string[]> => {
    const dialect = registry.chatUpstreams[u.dialect];
    if (!dialect.encodeModelListRequest || !dialect.decodeModelList || providerOf(u).listsModels === false) return [];
    const req = dialect.encodeModelListRequest({ name: u.name, model: '', apiKey: u.apiKey, options: { headers: u.headers } });
    try {
      const out = await outgoing(req, { upstream: u, model: '', fetch, now });
      const res = await fetch(out.url, { method: 'GET', headers: out.headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!res.ok) {
        await res.body?.cancel();
        return [];
      }
      return dialect.decodeModelList(await res.json());
    } catch {
      // An upstream that cannot list its models leaves the configured list as it is.
      return [];
    }
  };

  const upstreamIds = (u: Upstream): Promise<string[]> => {
    const hit = cache.get(u.name);
    if (hit && now() - hit.at < TTL_MS) return hit.ids;
    const ids = ask(u);
    cache.set(u.name, { at: now(), ids });
    return ids;
  };

  return {
    async list() {
      const out: ModelInfo[] = listedModels(config).map((m) => ({ id: m.id, ownedBy: m.upstream, created: 0, ...m.meta }));
      const seen = new Set(out.map((m) => m.id));
      const asked = Object.values(config.upstreams).filter((u) => u.apiKey);
      const lists = await Promise.all(asked.map(upstreamIds));
      asked.forEach((u, i) => {
        for (const id of lists[i]!) {
          if (seen.has(id) || !routesTo(config, id, u)) continue;
          seen.add(id);
          out.push(routedModel(config, id) ?? { id, ownedBy: u.name, created: 0 });
        }
      });
      return out;
    },
    find(id) {
      const name = id.replace(/^models\//, '');
      const listed = listedModels(config).find((m) => m.id === name);
      return listed ? { id: name, ownedBy: listed.upstream, created: 0, ...listed.meta } : routedModel(config, name);
    },
  };
}
