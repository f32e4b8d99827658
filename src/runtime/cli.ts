/**
 * The `interlingua` command: `interlingua [--config FILE] [--port N] [--host ADDR] [--debug]` serves;
 * `interlingua check --config FILE` validates a config and prints the routes it would serve.
 * Bad arguments are one line on stderr and exit code 2 (no stack trace); a bad config exits 1.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Config } from '../config/load.ts';
import { closeAgents } from './node-client.ts';
import { loadNodeConfig, startNode, tuneHeap } from './node.ts';

export const USAGE = `Usage: interlingua [options]
       interlingua check [--config FILE]

An LLM API protocol translation proxy: apps keep their SDK and change only the base URL.

Options:
  --config FILE   the config document (JSON). Default: INTERLINGUA_CONFIG (a path, or the
                  JSON itself), else the built-in default (claude-* to Anthropic, gemini-* to
                  Gemini, everything else to OpenAI, callers' own keys forwarded)
  --port N        port to listen on (default: PORT, else 8787; 0 picks a free one)
  --host ADDR     address to listen on (default: HOST, else 127.0.0.1 — loopback only)
  --debug         print the redacted wire dump of every request on stderr
  --inspect       serve the live inspector at /_inspector (loopback only; see docs/debugging.md)
  -h, --help      show this text

Commands:
  check           validate the config and print the routes it would serve, without starting

Environment:
  INTERLINGUA_CONFIG   config path or JSON      PORT, HOST   defaults for --port, --host
  env:NAME values in the config are read from the environment.

Output: one JSON line per request on stdout; the start-up line and errors on stderr.
SIGTERM or SIGINT finishes open requests, then exits 0. GET /health answers 200 when up.
`;

class UsageError extends Error {}

export interface CliArgs {
  command: 'serve' | 'check' | 'help';
  config?: string;
  port: number;
  host: string;
  debug: boolean;
  inspect?: boolean;
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
  if (positionals.length > 1 || (positionals[0] !== undefined && positionals[0] !== 'check')) {
    throw new UsageError(`unknown command '${positionals.join(' ')}'`);
  }
  const portText = values.port ?? (env.PORT || '8787');
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || port > 65535) {
    throw new UsageError(`${values.port !== undefined ? '--port' : 'PORT'} must be a whole number from 0 to 65535, not '${portText}'`);
  }
  const host = values.host ?? (env.HOST || '127.0.0.1');
  if (!host.trim()) throw new UsageError('--host must name an address');
  return { command: positionals[0] === 'check' ? 'check' : 'serve', config: values.config, port, host, debug: values.debug ?? false, inspect: values.inspect ?? false };
}

const OPTIONS = {
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  debug: { type: 'boolean' },
  inspect: { type: 'boolean' },
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

/** The one line a start prints: where it listens, from which config, how many routes. */
export function startupLine(config: Config, source: string, host: string, port: number): string {
  const routes = config.exact.size + config.globs.length;
  const upstreams = Object.keys(config.upstreams).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const address = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return `interlingua listening on ${address} (${source}, ${plural(routes, 'route')}, ${plural(upstreams, 'upstream')})`;
}

/** Where the inspector's page is (a wildcard listen address opened on loopback). */
export function inspectorUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}/_inspector`;
}

async function serve(args: CliArgs, config: Config, source: string): Promise<void> {
  tuneHeap();
  const running = await startNode({ config, port: args.port, hostname: args.host });
  process.stderr.write(`${startupLine(config, source, args.host, running.port)}\n`);
  if (config.inspector) process.stderr.write(`interlingua inspector: ${inspectorUrl(args.host, running.port)}\n`);
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
  let config: Config;
  try {
    config = loadNodeConfig(args.config, env);
    // --debug: the redacted wire dump of every request, on stderr.
    if (args.debug) config.log.debug = true;
    // --inspect: the inspector, unless the config already set it up.
    if (args.inspect) config.inspector ??= { maxExchanges: 200, allowRemote: false };
  } catch (e) {
    process.stderr.write(`interlingua: ${(e as Error).message}\n`);
    return 1;
  }
  const source = args.config ? `config ${args.config}` : env.INTERLINGUA_CONFIG?.trim() ? 'config from INTERLINGUA_CONFIG' : 'built-in default config';
  if (args.command === 'check') {
    process.stdout.write(`${source}: valid\n${describeRoutes(config).join('\n')}\n`);
    return 0;
  }
  await serve(args, config, source);
  return undefined;
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
      process.stderr.write(`interlingua: ${(e as Error)?.message ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
