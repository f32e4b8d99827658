/**
 * Node runtime: starting the server (`startNode`: the app on node:http with the pooled upstream
 * client, one JSON log line per request) and reading its config (a file, or `INTERLINGUA_CONFIG`
 * as a path or inline JSON, else the built-in default). The command line is cli.ts.
 */
import { readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { createProxy, memoryStateStore } from '../app.ts';
import { ConfigError, configFromEnv, type Config } from '../config/load.ts';
import { nodeFetch } from './node-client.ts';
import { createNodeListener } from './node-server.ts';

/**
 * Log lines to stdout, gathered and written once per event-loop turn: one write syscall for all
 * the requests that ended in that turn instead of one each (stdout to a file or pipe is a
 * blocking write on Linux). Whatever is pending is written before the process exits.
 */
function stdoutLines(): (line: string) => void {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending) return;
    const out = pending;
    pending = '';
    process.stdout.write(out);
  };
  process.once('exit', flush);
  return (line) => {
    pending += line + '\n';
    if (pending.length >= 65536) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

/**
 * V8's heap, sized for a proxy: after each full GC the old generation may grow to 1.5× what
 * survived (V8's default factor goes up to 4×). A proxy's live heap is small and steady, and the
 * default let promoted per-request garbage pile up between full GCs. Unknown flags are ignored
 * here, so a V8 without this one starts as usual. (A smaller young generation,
 * `--max-semi-space-size=8`, takes the peak RSS under load from ~160 to ~105 MB but costs streams
 * 20–30 % more CPU, so `npm start` leaves it at V8's default; see docs/performance.md.)
 */
export function tuneHeap(execArgv: readonly string[] = process.execArgv): void {
  const flag = heapFlag(execArgv);
  if (flag) setFlagsFromString(flag);
}

/**
 * The heap flag `tuneHeap` sets: none when the command line chose its own growth. At 50 % V8 runs
 * a full GC about every 47 same-dialect requests of 300 KB and every 2–3 translated ones of 2 MB
 * (`--trace-gc`); at 150–200 %, about half as many and 5–10 % less CPU at 300 KB and on streams,
 * for a higher peak (`npm run bench -- --quick`, peak RSS at c=64: 130–134 MB at 50 %, 152–157 MB
 * at 150 %, 159 MB at 200 %; docs/performance.md, At agent scale). `node --heap-growing-percent=150 dist/cli.js`
 * is that trade, the deployment's to make. (Node does not take the flag from NODE_OPTIONS.)
 */
export function heapFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((a) => /^--heap[-_]growing[-_]percent(=|$)/.test(a)) ? undefined : '--heap-growing-percent=50';
}

export interface StartOptions {
  config: Config;
  port?: number;
  hostname?: string;
  log?: (line: string) => void;
}

/** Start a server; resolves once it listens. Used by the CLI and by end-to-end tests. */
export async function startNode(o: StartOptions): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const write = o.log ?? stdoutLines();
  const { url, maxBytes } = o.config.store;
  // Redis only when configured (its client is loaded then): several instances share one store.
  const stateStore = url ? (await import('./redis-store.ts')).redisStateStore(url) : memoryStateStore({ maxBytes });
  // The inspector only when on (its code is loaded then): docs/debugging.md "The inspector".
  const inspector = o.config.inspector ? (await import('./inspector.ts')).createInspector(o.config) : undefined;
  const proxy = createProxy({
    config: o.config,
    fetch: nodeFetch,
    log: (entry) => write(JSON.stringify(entry)),
    resolveHost: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
    stateStore,
    inspector: inspector?.recorder,
  });
  inspector?.attach(proxy);
  const listener = createNodeListener(proxy);
  const server = http.createServer(
    inspector ? (req, res) => ((req.url ?? '').startsWith('/_inspector') ? inspector.handle(req, res) : listener(req, res)) : listener,
  );
  return new Promise((resolve) => {
    server.listen(o.port ?? 8787, o.hostname ?? '127.0.0.1', () => {
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: async () => {
          inspector?.close();
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          });
          if ('close' in stateStore) await (stateStore as { close(): Promise<void> }).close();
          await proxy.flush();
        },
      });
    });
  });
}

export function loadNodeConfig(configPath: string | undefined, env: NodeJS.ProcessEnv): Config {
  let text: string | undefined;
  const source = configPath ?? env.INTERLINGUA_CONFIG;
  if (source && !source.trim().startsWith('{')) {
    try {
      text = readFileSync(source, 'utf8');
    } catch (e) {
      throw new ConfigError(`cannot read config file ${source}: ${(e as Error).message}`);
    }
  } else if (source) {
    text = source;
  }
  return configFromEnv(env, text);
}
