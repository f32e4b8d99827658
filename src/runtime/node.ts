/**
 * Node runtime: starting the server (`startNode`: the app on node:http with the pooled upstream
 * client, one JSON log line per request) and reading its config (a file, or `INTERLINGUA_CONFIG`
 * as a path or inline JSON, else the built-in default). The command line is cli.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { lookup } from 'node:dns/promises';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { createProxy, memoryStateStore } from '../app.ts';
import type { FetchLike } from '../kit/index.ts';
import { ConfigError, configFromEnv, type Config, type ParseOptions } from '../config/load.ts';
import { jsonSyntaxError } from '../config/json-place.ts';
import { nodeFetch } from './node-client.ts';
import { createNodeListener, isDirectRoute } from './node-server.ts';
import { handleUpgrade } from './node-websocket.ts';

/**
 * Log lines to stdout, gathered and written once per event-loop turn: one write syscall for all
 * the requests that ended in that turn instead of one each (stdout to a file or pipe is a
 * blocking write on Linux). Whatever is pending is written before the process exits.
 */
function stdoutLines(maxWrite = 65536): (line: string) => void {
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
    // Several workers share stdout: a write of at most PIPE_BUF bytes (4096) reaches a pipe whole,
    // so a worker's lines never interleave with another's; the batch goes before it would pass it.
    if (pending && pending.length + line.length + 1 > maxWrite) flush();
    pending += line + '\n';
    if (pending.length >= maxWrite) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

/** Bytes a pipe takes in one piece (POSIX PIPE_BUF on Linux). */
const PIPE_BUF = 4096;

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
  /** The upstream client (default: the pooled keep-alive client); `interlingua demo` gives its own. */
  fetch?: FetchLike;
  /** Hostname resolution for the guarded media fetcher (default: the system's). */
  resolveHost?: (host: string) => Promise<string[]>;
  /** A worker of `--workers` (cluster.ts): it says when it listens, and `/metrics` answers for all. */
  worker?: boolean;
}

export interface RunningNode {
  server: Server;
  port: number;
  /** Redis (`store.url`): whether it answered at start (limits fail open while it does not). */
  redis?: { reachable: boolean };
  close(): Promise<void>;
}

/** Start a server; resolves once it listens. Used by the CLI and by end-to-end tests. */
export async function startNode(o: StartOptions): Promise<RunningNode> {
  const write = o.log ?? stdoutLines(o.worker ? PIPE_BUF : undefined);
  const link = o.worker ? (await import('./cluster.ts')).workerLink(() => proxy.metricsText()) : undefined;
  const { url, maxBytes } = o.config.store;
  // Redis only when configured (its client is loaded then): several instances share state and limits.
  const redis = url ? (await import('./redis-store.ts')).redisStores(url) : undefined;
  const reachable = redis ? await redis.ping() : undefined;
  const stateStore = redis?.state ?? memoryStateStore({ maxBytes });
  // The inspector only when on (its code is loaded then): docs/debugging.md "The inspector".
  const inspector = o.config.inspector ? (await import('./inspector.ts')).createInspector(o.config) : undefined;
  const proxy = createProxy({
    config: o.config,
    fetch: o.fetch ?? nodeFetch,
    log: (entry) => write(JSON.stringify(entry)),
    resolveHost: o.resolveHost ?? (async (host) => (await lookup(host, { all: true })).map((a) => a.address)),
    stateStore,
    counters: redis?.counters,
    inspector: inspector?.recorder,
    gatherMetrics: link?.gatherMetrics,
  });
  inspector?.attach(proxy);
  // The chat routes and the health probes straight from node:http (node-server.ts, measured:
  // docs/performance.md); every other route through the Hono app by @hono/node-server's
  // Request/Response conversion, loaded at the first such request (it loads node:http2, 1.8 MB
  // of an idle server's RSS); the inspector's own routes before both.
  const direct = createNodeListener(proxy);
  let adapter: Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> | undefined;
  const viaHono = (req: IncomingMessage, res: ServerResponse) => {
    adapter ??= import('@hono/node-server').then((m) => m.getRequestListener(proxy.app.fetch, { overrideGlobalObjects: false }));
    adapter.then((listener) => listener(req, res)).catch(() => direct(req, res));
  };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (inspector && url.startsWith('/_inspector')) inspector.handle(req, res);
    else if (isDirectRoute(req.method, url)) direct(req, res);
    else viaHono(req, res);
  });
  // Responses over WebSocket (`GET /v1/responses` with an Upgrade); the open sockets, closed on stop.
  const sockets = new Set<() => void>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => handleUpgrade(proxy, server, req, socket, head, sockets));
  return new Promise((resolve, reject) => {
    // A port in use or an address this machine does not have: the caller says it in one line.
    server.once('error', (e) => {
      inspector?.close();
      void redis?.close();
      reject(e);
    });
    server.listen(o.port ?? 8787, o.hostname ?? '127.0.0.1', () => {
      link?.listening((server.address() as AddressInfo).port, reachable === undefined ? undefined : { reachable });
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        ...(reachable !== undefined && { redis: { reachable } }),
        close: async () => {
          inspector?.close();
          for (const stop of [...sockets]) stop();
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          });
          await redis?.close();
          await proxy.flush();
        },
      });
    });
  });
}

/** A config and where it came from, as the start-up line and `check` name it. */
export interface LoadedConfig {
  config: Config;
  source: string;
}

/**
 * The config named by `--config FILE`, else `INTERLINGUA_CONFIG` (a path, or the JSON itself),
 * else the built-in default. A file that cannot be read, or holds nothing, is an error (never the
 * default); every error says where the config came from.
 */
export function loadNodeConfig(configPath: string | undefined, env: NodeJS.ProcessEnv, options: ParseOptions = {}): LoadedConfig {
  const inline = env.INTERLINGUA_CONFIG?.trim();
  // Files the config names (`pricesFile`) are relative to the config file, else to the working directory.
  const reading = (base: string): ParseOptions => ({ readFile: (path) => readFileSync(resolve(base, path), 'utf8'), locateJsonError: jsonSyntaxError, ...options });
  const o = reading(process.cwd());
  if (configPath === undefined && !inline) return { config: configFromEnv({ ...env, INTERLINGUA_CONFIG: undefined }, undefined, o), source: 'built-in default config' };
  if (configPath === undefined && inline!.startsWith('{')) return { config: withSource(() => configFromEnv(env, inline, o), 'INTERLINGUA_CONFIG'), source: 'config from INTERLINGUA_CONFIG' };
  const file = configPath ?? inline!;
  const named = configPath === undefined ? ' (named by INTERLINGUA_CONFIG)' : '';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new StartError(`cannot read config file ${file}${named}: ${fileProblem(e)}`);
  }
  if (!text.trim()) {
    throw new StartError(`config file ${file}${named} is empty: write a config there (examples/ has some), or start without ${configPath === undefined ? 'INTERLINGUA_CONFIG' : '--config'} for the built-in default`);
  }
  // An editor's byte order mark is not part of the JSON.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { config: withSource(() => configFromEnv(env, text, reading(dirname(resolve(file)))), file), source: `config ${file}` };
}

/** A failure to start, said in one line (the CLI prints it after `interlingua: `). */
export class StartError extends Error {
  override name = 'StartError';
}

/** Parse errors of the config, with where the config came from. */
function withSource(parse: () => Config, where: string): Config {
  try {
    return parse();
  } catch (e) {
    if (e instanceof ConfigError && e.unsetEnv.length) {
      throw new StartError(`${where}: ${e.detail}; set ${e.unsetEnv.length === 1 ? 'it' : 'them'} before starting (\`interlingua check\` lists what a config reads)`);
    }
    if (e instanceof ConfigError) throw new StartError(`invalid config ${where}: ${e.detail}`);
    throw e;
  }
}

/** Why a file could not be read, in words (Node's message names the syscall and repeats the path). */
function fileProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory, not a file';
    default:
      return code ?? String((e as Error).message);
  }
}

/**
 * Why the server could not listen on `host:port`, and what to do, in one line: a port in use, an
 * address this machine does not have or a name that does not resolve, a port that needs privileges.
 */
export function listenProblem(e: unknown, host: string, port: number): string {
  const code = (e as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use (another interlingua, or wrangler dev?); stop it, or pick another port with --port N (0 picks a free one)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `cannot listen on ${where}: no such host; give --host an address of this machine (127.0.0.1, 0.0.0.0 for every interface)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: not an address of this machine; give --host one of its addresses (127.0.0.1, 0.0.0.0 for every interface)`;
    case 'EACCES':
    case 'EPERM':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); pick another port with --port N`;
    default:
      return `cannot listen on ${where}: ${code ?? (e as Error)?.message ?? String(e)}`;
  }
}
