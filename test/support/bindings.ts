/**
 * Real Workers bindings for store suites, reached from Node: a Workers KV namespace and the Cache
 * API (`caches.default`) of a workerd started by Miniflare with a one-line Worker. Offline, and its
 * temp files inside the project (as test/support/worker.ts).
 */
import { join } from 'node:path';
import { Log, LogLevel, Miniflare, Response as MfResponse } from 'miniflare';
import type { KvNamespaceLike } from '../../src/upstream/state-store.ts';
import type { CacheLike } from '../../src/upstream/image-store.ts';
import { ROOT } from './worker.ts';

/** workerd's `caches.default` as Miniflare hands it to Node. */
interface PlatformCache {
  put(key: string, res: MfResponse): Promise<void>;
  match(key: string): Promise<MfResponse | undefined>;
  delete(key: string): Promise<boolean>;
}

export interface WorkerBindings {
  /** A fresh KV namespace (one per call, so stores made from them share nothing). */
  kv(): Promise<KvNamespaceLike & { list(): Promise<{ keys: Array<{ name: string; expiration?: number }> }> }>;
  /** `caches.default`, taking the platform's own `Response` (converted from Node's). */
  cache(): Promise<CacheLike>;
  close(): Promise<void>;
}

export async function startBindings(namespaces = 8): Promise<WorkerBindings> {
  process.env.TMPDIR = join(ROOT, '.tmp');
  const names = Array.from({ length: namespaces }, (_, i) => `KV${i}`);
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch() { return new Response("") } }',
    compatibilityDate: '2025-01-01',
    kvNamespaces: names,
    cf: false,
    log: new Log(LogLevel.WARN),
  });
  let used = 0;
  return {
    kv: async () => {
      const name = names[used++];
      if (!name) throw new Error(`startBindings(${namespaces}): no namespace left`);
      return (await mf.getKVNamespace(name)) as never;
    },
    cache: async () => {
      const c = ((await mf.getCaches()) as unknown as { default: PlatformCache }).default;
      return {
        put: async (key, res) => c.put(key as string, new MfResponse(new Uint8Array(await res.arrayBuffer()), { status: res.status, headers: [...res.headers] })),
        match: async (key) => {
          const hit = await c.match(key as string);
          return hit ? new Response(new Uint8Array(await hit.arrayBuffer()), { status: hit.status, headers: [...hit.headers] }) : undefined;
        },
        delete: (key) => c.delete(key as string),
      };
    },
    close: () => mf.dispose(),
  };
}
