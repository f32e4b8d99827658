/**
 * Node entry: `npm start -- --config FILE --port N`. Reads the config (file, or
 * `INTERLINGUA_CONFIG` as a path or inline JSON, else the built-in default), serves the app with
 * the Node fast paths, logs one JSON line per request, and shuts down gracefully on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { createProxy } from '../app.ts';
import { ConfigError, configFromEnv, type Config } from '../config/load.ts';
import { closeAgents, nodeFetch } from './node-client.ts';
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
 * 20–30 % more CPU, so `npm start` leaves it at V8's default; see README, Performance.)
 */
export function tuneHeap(): void {
  setFlagsFromString('--heap-growing-percent=50');
}

export interface StartOptions {
  config: Config;
  port?: number;
  hostname?: string;
  log?: (line: string) => void;
}

/** Start a server; resolves once it listens. Used by the CLI and by end-to-end tests. */
export function startNode(o: StartOptions): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const write = o.log ?? stdoutLines();
  const proxy = createProxy({
    config: o.config,
    fetch: nodeFetch,
    log: (entry) => write(JSON.stringify(entry)),
    resolveHost: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
  });
  const server = http.createServer(createNodeListener(proxy));
  return new Promise((resolve) => {
    server.listen(o.port ?? 8787, o.hostname ?? '127.0.0.1', () => {
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      debug: { type: 'boolean' },
    },
  });
  let config: Config;
  try {
    config = loadNodeConfig(values.config, process.env);
    // --debug: the redacted wire dump of every request, on stderr.
    if (values.debug) config.log.debug = true;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
  tuneHeap();
  const port = Number(values.port ?? process.env.PORT ?? 8787);
  const hostname = values.host ?? process.env.HOST ?? '127.0.0.1';
  const running = await startNode({ config, port, hostname });
  process.stderr.write(`interlingua listening on http://${hostname}:${running.port}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('interlingua: shutting down, finishing open requests\n');
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    void running.close().then(() => {
      closeAgents();
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
