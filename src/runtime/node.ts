/**
 * Node entry: `npm start -- --config FILE --port N`. Reads the config (file, or
 * `INTERLINGUA_CONFIG` as a path or inline JSON, else the built-in default), serves the app with
 * the Node fast paths, logs one JSON line per request, and shuts down gracefully on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from '../app.ts';
import { ConfigError, configFromEnv, type Config } from '../config/load.ts';
import { closeAgents, nodeFetch, readNodeBody } from './node-client.ts';

/**
 * The IncomingMessage's own lowercased header object (Node already joins repeated headers with
 * `, `); only the rare array values (set-cookie) are joined here. No `Headers` is built.
 */
function incomingHeaders(msg: IncomingMessage | undefined): Record<string, string> | undefined {
  if (!msg) return undefined;
  const h = msg.headers;
  for (const k in h) {
    if (Array.isArray(h[k])) {
      const out: Record<string, string> = {};
      for (const [name, v] of Object.entries(h)) if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : v;
      return out;
    }
  }
  return h as Record<string, string>;
}

export interface StartOptions {
  config: Config;
  port?: number;
  hostname?: string;
  log?: (line: string) => void;
}

/** Start a server; resolves once it listens. Used by the CLI and by end-to-end tests. */
export function startNode(o: StartOptions): Promise<{ server: ServerType; port: number; close(): Promise<void> }> {
  const write = o.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const app = createApp({
    config: o.config,
    fetch: nodeFetch,
    readBody: readNodeBody,
    log: (entry) => write(JSON.stringify(entry)),
    resolveHost: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
    headersOf: (c) => incomingHeaders((c.env as { incoming?: IncomingMessage } | undefined)?.incoming),
    onCallerGone: (c, fn) => {
      const out = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
      if (!out) return c.req.raw.signal.addEventListener('abort', fn, { once: true });
      out.once('close', () => {
        if (!out.writableFinished) fn();
      });
    },
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: o.port ?? 8787, hostname: o.hostname ?? '127.0.0.1' }, (info) => {
      resolve({
        server,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
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
