/**
 * `npm run dev:worker`: the Worker in local workerd (`wrangler dev`), built once at start and
 * again only when a source really changes. Extra arguments go to `wrangler dev` (`--port 8788`).
 *
 * Why not `wrangler dev` on wrangler.toml: with a `[build]` command, wrangler runs it once before
 * serving and again when its file watcher is ready (by design, whatever changed), then reloads
 * workerd: "The file src,translators,scripts changed, restarting build", and requests in flight
 * get `503 Your worker restarted mid-request`. So this builds the bundle itself
 * (scripts/build-worker.ts, readable, not minified), hands wrangler a copy of wrangler.toml
 * without the `[build]` table (`.wrangler/dev/wrangler.toml`, `main` the built file; secrets from
 * `.dev.vars`, state under `.wrangler/state`, as wrangler.toml's own), and watches src/ and
 * translators/ itself: a rebuild that yields the same bundle writes nothing, so nothing reloads.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorker } from './build-worker.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const entry = join(root, 'src/runtime/worker.ts');
const outfile = join(root, '.wrangler/build/worker.js');
const config = join(root, '.wrangler/dev/wrangler.toml');

/** wrangler.toml without its `[build]` table, its `main` the absolute path of the built bundle. */
export function devConfig(toml: string, main: string): string {
  const lines = toml.split('\n');
  const out: string[] = [];
  let inBuild = false;
  for (const line of lines) {
    const table = /^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$/.exec(line)?.[1]?.trim();
    if (table !== undefined) inBuild = table === 'build' || table.startsWith('build.');
    if (!inBuild) out.push(line);
  }
  return out.join('\n').replace(/^main\s*=.*$/m, `main = ${JSON.stringify(main)}`);
}

/** `dir` and every folder under it (fixtures aside). */
function folders(dir: string): string[] {
  return [dir, ...readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== '__fixtures__').flatMap((e) => folders(join(dir, e.name)))];
}

async function main(): Promise<void> {
  try {
    await buildWorker(entry, outfile, { production: false });
  } catch {
    process.exit(1); // esbuild has printed the errors
  }
  mkdirSync(join(root, '.wrangler/dev'), { recursive: true });
  writeFileSync(config, devConfig(readFileSync(join(root, 'wrangler.toml'), 'utf8'), outfile));
  const envFile = ['.dev.vars', '.env'].map((f) => join(root, f)).find((f) => existsSync(f));
  const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
  const args = ['dev', '--config', config, '--local', '--ip', '127.0.0.1', '--persist-to', join(root, '.wrangler/state'), ...(envFile ? ['--env-file', envFile] : []), ...process.argv.slice(2)];
  const child = spawn(process.execPath, [wrangler, ...args], { cwd: root, stdio: 'inherit' });

  let timer: NodeJS.Timeout | undefined;
  let building = Promise.resolve();
  const rebuild = () => {
    building = building.then(async () => {
      try {
        if (!(await buildWorker(entry, outfile, { production: false }))) return;
        // Wrangler reloads a no_bundle Worker when its config changes, not its main file.
        writeFileSync(config, readFileSync(config, 'utf8'));
        console.error('[interlingua] sources changed: the Worker is rebuilt');
      } catch {
        // esbuild has printed the errors; the last good bundle keeps serving.
      }
    });
  };
  // One watcher per folder: Node 20's recursive watch on Linux loses a file an editor replaced
  // by renaming (`sed -i`, many editors' safe write); a folder's own watch keeps its names.
  const watchers = ['src', 'translators'].flatMap((dir) => folders(join(root, dir))).map((dir) =>
    watch(dir, (_event, name) => {
      if (!name || !/\.(ts|js|json)$/.test(name) || /\.test\.ts$/.test(name)) return;
      clearTimeout(timer);
      timer = setTimeout(rebuild, 150);
    }),
  );
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.once('exit', (code, signal) => {
    for (const w of watchers) w.close();
    clearTimeout(timer);
    process.exit(code ?? (signal ? 1 : 0));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) await main();
