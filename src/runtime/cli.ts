/**
 * The `interlingua` command: `interlingua [--config FILE] [--port N] [--host ADDR] [--debug] [--workers N]` serves;
 * `interlingua check --config FILE` validates a config and prints the routes it would serve and
 * the environment it reads. Every failure to start is one line on stderr naming the thing and
 * what to do, never a stack trace: exit code 2 for bad arguments, 1 for the rest.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pkg from '../../package.json' with { type: 'json' };
import { parseConfig, type Config, type EnvRef } from '../config/load.ts';
import { closeAgents } from './node-client.ts';
import { isWorker, runPrimary, workerCount } from './cluster.ts';
import { StartError, listenProblem, loadNodeConfig, startNode, tuneHeap, type StartOptions } from './node.ts';

/** The package's version, bundled into dist/cli.js from package.json. */
export const VERSION: string = pkg.version;

export const USAGE = `Usage: interlingua [options]
       interlingua check [--config FILE] [--strict-env]
       interlingua demo [--port N] [--host ADDR]

An LLM API protocol translation proxy: apps keep their SDK and change only the base URL.

Options:
  --config FILE   the config document (JSON). Default: INTERLINGUA_CONFIG (a path, or the
                  JSON itself), else the built-in default (claude-* to Anthropic, gemini-* to
                  Gemini, everything else to OpenAI, callers' own keys forwarded)
  --port N        port to listen on (default: PORT, else 8787; 0 picks a free one)
  --host ADDR     address to listen on (default: HOST, else 127.0.0.1 — loopback only)
  --debug         print the redacted wire dump of every request on stderr
  --inspect       serve the live inspector at /_inspector (loopback only; see docs/debugging.md)
  --workers N     serve the port from N processes (auto: one per core); needs store.url (Redis),
                  where the workers share state and limits (see docs/team.md)
  -v, --version   print the version
  -h, --help      show this text

Commands:
  demo            serve five built-in demo upstreams (demo-openai, demo-anthropic, demo-gemini,
                  demo-responses, demo-interactions), answering in-process in their own dialects:
                  no key, no network; the inspector on; prints a request to try per dialect
  check           validate the config, print the routes it would serve and the environment
                  variables it reads (set or not), without starting; --strict-env: fail when
                  one is not set, as a start would

Environment:
  INTERLINGUA_CONFIG   config path or JSON      PORT, HOST   defaults for --port, --host
  env:NAME values in the config are read from the environment.

Output: one JSON line per request on stdout; the start-up line and errors on stderr.
SIGTERM or SIGINT finishes open requests (in every worker), then exits 0. GET /health answers 200 when up.
`;

class UsageError extends Error {}

export interface CliArgs {
  command: 'serve' | 'check' | 'demo' | 'help' | 'version';
  config?: string;
  port: number;
  host: string;
  debug: boolean;
  inspect?: boolean;
  /** check: an unset `env:` variable fails it. */
  strictEnv?: boolean;
  /** `--workers`: processes serving the port (undefined: this one alone). */
  workers?: number;
}

/** The command line as plain values; throws UsageError with a one-line reason. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    // Node's message for an unknown or malformed option, without its code or stack.
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help', port: 0, host: '', debug: false };
  if (values.version) return { command: 'version', port: 0, host: '', debug: false };
  const command = positionals[0];
  if (positionals.length > 1 || (command !== undefined && command !== 'check' && command !== 'demo')) {
    throw new UsageError(`unknown command '${positionals.join(' ')}'`);
  }
  if (values['strict-env'] && command !== 'check') throw new UsageError('--strict-env goes with check');
  if (command === 'demo' && values.config !== undefined) throw new UsageError('demo has its own config; leave out --config');
  const portText = values.port ?? (env.PORT || '8787');
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || port > 65535) {
    throw new UsageError(`${values.port !== undefined ? '--port' : 'PORT'} must be a whole number from 0 to 65535, not '${portText}'`);
  }
  const host = values.host ?? (env.HOST || '127.0.0.1');
  if (!host.trim()) throw new UsageError('--host must name an address');
  const workers = values.workers === undefined ? undefined : workerCount(values.workers.trim());
  if (values.workers !== undefined && workers === undefined) throw new UsageError(`--workers must be a whole number from 1 to 1024, or auto, not '${values.workers}'`);
  if (workers !== undefined && command !== undefined) throw new UsageError(`--workers goes with serving, not ${command}`);
  return {
    command: command ?? 'serve',
    config: values.config,
    port,
    host,
    debug: values.debug ?? false,
    inspect: values.inspect ?? false,
    strictEnv: values['strict-env'] ?? false,
    ...(workers !== undefined && { workers }),
  };
}

const OPTIONS = {
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  debug: { type: 'boolean' },
  inspect: { type: 'boolean' },
  'strict-env': { type: 'boolean' },
  workers: { type: 'string' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * The routes a config serves, one line each: model → upstream (dialect, provider when one is
 * named, base URL), fallbacks after.
 */
export function describeRoutes(config: Config): string[] {
  const line = (pattern: string, targets: Array<{ upstream: string; model?: string }>, strict: boolean) =>
    `  ${pattern} → ${targets
      .map((t) => {
        const u = config.upstreams[t.upstream]!;
        const provider = u.provider ? `, provider ${u.provider}` : '';
        return `${t.upstream}${t.model ? ` as ${t.model}` : ''} (${u.dialect}${provider}, ${u.baseUrl})`;
      })
      .join(', then ')}${strict ? ' [strict]' : ''}`;
  return [...config.exact.values(), ...config.globs].map((r) => line(r.pattern, r.targets, r.strict));
}

/**
 * The environment a config reads, one line each: the variable, whether it is set, the fields
 * naming it; then how many are missing (a start needs them all).
 */
export function describeEnv(refs: readonly EnvRef[]): string[] {
  if (refs.length === 0) return ['environment: reads no variables'];
  const byName = new Map<string, { set: boolean; paths: string[] }>();
  for (const r of refs) {
    const e = byName.get(r.name) ?? { set: r.set, paths: [] };
    e.paths.push(r.path);
    byName.set(r.name, e);
  }
  const width = Math.max(...[...byName.keys()].map((n) => n.length));
  const lines = [...byName].map(([name, e]) => `  ${name.padEnd(width)}  ${e.set ? 'set    ' : 'not set'}  (${e.paths.join(', ')})`);
  const unset = [...byName.values()].filter((e) => !e.set).length;
  const tail = unset === 0 ? 'all set' : `${unset} of ${byName.size} not set: a start fails until ${unset === 1 ? 'it is' : 'they are'}`;
  return [`environment it reads (${tail}):`, ...lines];
}

/**
 * The one line a start prints: where it listens, from which config, how many routes, and when
 * they apply: how many workers, how many keys have limits and where they are counted, and a
 * Redis that did not answer (limits fail open then; its URL is never printed, it may hold a password).
 */
export function startupLine(config: Config, source: string, host: string, port: number, o: { workers?: number; redis?: { reachable: boolean } } = {}): string {
  const routes = config.exact.size + config.globs.length;
  const upstreams = Object.keys(config.upstreams).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const address = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const parts = [source, plural(routes, 'route'), plural(upstreams, 'upstream')];
  if (o.workers) parts.push(plural(o.workers, 'worker'));
  const limited = config.keys.filter((k) => k.limits).length;
  if (limited) parts.push(`limits on ${plural(limited, 'key')} ${config.store.url ? 'counted in Redis' : 'counted per process'}`);
  const down = o.redis && !o.redis.reachable ? '; Redis (store.url) unreachable: state answers 503 and limits fail open until it answers' : '';
  return `interlingua listening on ${address} (${parts.join(', ')})${down}`;
}

/**
 * Why a config cannot be served by several workers, in one line: what they must share (state,
 * key limits, upstream key cooldowns, session affinity) needs Redis, and the inspector is one
 * process's.
 */
export function workersProblem(config: Config): string | undefined {
  if (!config.store.url) return 'needs "store.url" (Redis): the workers share the state, the key limits, the upstream key cooldowns and the session affinity there';
  if (config.inspector) return 'cannot serve the inspector (each worker would show only its own exchanges): run it without --workers';
  return undefined;
}

/** Where the inspector's page is (a wildcard listen address opened on loopback). */
export function inspectorUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}/_inspector`;
}

async function serve(args: CliArgs, config: Config, source: string, demo?: DemoParts): Promise<void> {
  const workers = args.workers && args.workers > 1 ? args.workers : undefined;
  if (workers && !isWorker()) {
    // The primary serves nothing: the workers say when they listen (and whether Redis answered).
    runPrimary({ workers, started: (port, redis) => startupLine(config, source, args.host, port, { workers, redis }) });
    return;
  }
  tuneHeap();
  let running: Awaited<ReturnType<typeof startNode>>;
  try {
    running = await startNode({ config, port: args.port, hostname: args.host, worker: !!workers, ...demo?.start });
  } catch (e) {
    throw new StartError(listenProblem(e, args.host, args.port));
  }
  if (!workers) process.stderr.write(`${startupLine(config, source, args.host, running.port, { redis: running.redis })}\n`);
  if (config.inspector) process.stderr.write(`interlingua inspector: ${inspectorUrl(args.host, running.port)}\n`);
  if (demo) process.stderr.write(demo.banner(inspectorUrl(args.host, running.port).replace(/\/_inspector$/, '')));
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
  // A worker whose primary is gone has no one to serve for.
  if (workers) process.once('disconnect', stop);
}

/** What `interlingua demo` adds to a start: its upstream client and the requests it suggests. */
interface DemoParts {
  start: { fetch: NonNullable<StartOptions['fetch']>; resolveHost: NonNullable<StartOptions['resolveHost']> };
  banner(origin: string): string;
}

/** The demo's config and parts, its code loaded only now. */
async function loadDemo(): Promise<{ config: Config; demo: DemoParts }> {
  const { DEMO_UPSTREAMS, demoConfigDocument, demoFetch, demoRequests } = await import('../demo/index.ts');
  const config = parseConfig(demoConfigDocument());
  const banner = (origin: string) =>
    [
      `interlingua demo: ${DEMO_UPSTREAMS.length} demo upstreams answer in-process, with no key and no network: ${DEMO_UPSTREAMS.map((u) => `${u.name} (${u.label})`).join(', ')}.`,
      'Any caller dialect reaches any of them; try one of these, then look at the inspector:',
      ...demoRequests(origin).flatMap((r) => [`  # ${r.title}`, `  ${r.curl}`]),
      '',
    ].join('\n');
  const resolveHost = async (): Promise<string[]> => {
    throw new Error('the demo reaches no network');
  };
  return { config, demo: { start: { fetch: demoFetch(), resolveHost }, banner } };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number | undefined> {
  let args: CliArgs;
  try {
    args = parseCli(argv, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`interlingua: ${e.message} (see interlingua --help)\n`);
    return 2;
  }
  if (args.command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.command === 'version') {
    process.stdout.write(`interlingua ${VERSION}\n`);
    return 0;
  }
  try {
    if (args.command === 'demo') {
      const { config, demo } = await loadDemo();
      if (args.debug) config.log.debug = true;
      await serve(args, config, 'demo config', demo);
      return undefined;
    }
    const checking = args.command === 'check' && !args.strictEnv;
    const { config, source } = loadNodeConfig(args.config, env, { unsetEnv: checking ? 'allow' : 'error' });
    if (args.command === 'check') {
      process.stdout.write(`${source}: valid\n${[...describeRoutes(config), ...describeEnv(config.env)].join('\n')}\n`);
      return 0;
    }
    // --debug: the redacted wire dump of every request, on stderr.
    if (args.debug) config.log.debug = true;
    // --inspect: the inspector, unless the config already set it up.
    if (args.inspect) config.inspector ??= { maxExchanges: 200, allowRemote: false };
    const shared = args.workers && args.workers > 1 ? workersProblem(config) : undefined;
    if (shared) throw new StartError(`--workers ${args.workers} ${shared}`);
    await serve(args, config, source);
    return undefined;
  } catch (e) {
    if (!(e instanceof StartError)) throw e;
    process.stderr.write(`interlingua: ${e.message}\n`);
    return 1;
  }
}

/** Run when this file is the program (a path with spaces or symlinks included). */
function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  main(process.argv.slice(2), process.env).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (e: unknown) => {
      // A bug of ours: still one line, no stack trace.
      process.stderr.write(`interlingua: ${(e as Error)?.message ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
