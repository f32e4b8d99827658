/**
 * The Worker target for tests: the bundle `npm run build:worker` would deploy (wrangler, minified,
 * from wrangler.toml), built once per change of the sources and cached under .tmp/, served by
 * workerd through Miniflare on 127.0.0.1. Wrangler and Miniflare stay offline and inside the
 * project (no metrics, no update check, no `Request.cf` download, temp and config under .tmp/).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { run } from './processes.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, '.tmp', 'worker-build');

/** Environment for wrangler: offline, quiet, and writing nothing outside the project. */
export function wranglerEnv(): NodeJS.ProcessEnv {
  mkdirSync(join(ROOT, '.tmp', 'xdg'), { recursive: true });
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    TMPDIR: join(ROOT, '.tmp'),
    XDG_CONFIG_HOME: join(ROOT, '.tmp', 'xdg'),
    CI: 'true', // never prompt
  };
}

/** `compatibility_date` and `compatibility_flags` from wrangler.toml, so tests run what deploys. */
export function wranglerCompat(): { compatibilityDate: string; compatibilityFlags: string[] } {
  const toml = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8');
  const date = /^\s*compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!date) throw new Error('wrangler.toml has no compatibility_date');
  const flags = /^\s*compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? '';
  return { compatibilityDate: date, compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1]!) };
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|js|json)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(p);
  }
}

/** Hash of everything that goes into the bundle. */
function inputsHash(): string {
  const files: string[] = [];
  for (const d of ['src', 'translators', 'scripts']) walk(join(ROOT, d), files);
  files.push(join(ROOT, 'wrangler.toml'), join(ROOT, 'package-lock.json'));
  const h = createHash('sha256');
  for (const f of files.sort()) h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** Run `wrangler deploy --dry-run --outdir DIR` (what `npm run build:worker` does). */
export async function wranglerBuild(outdir: string, config?: string): Promise<{ stdout: string; stderr: string }> {
  const wrangler = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
  const r = await run(process.execPath, [wrangler, 'deploy', '--dry-run', '--outdir', outdir, ...(config ? ['--config', config] : [])], { cwd: ROOT, env: wranglerEnv(), timeoutMs: 120_000 });
  if (r.status !== 0) throw new Error(`wrangler build failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

let pending: Promise<string> | undefined;

/**
 * Path of the built worker bundle for the current sources. Built once (about 1.5 s) and reused by
 * every test file and run until a source changes; concurrent builders write to their own folder
 * and rename the file into place, so no lock is needed.
 */
export function workerBundle(): Promise<string> {
  return (pending ??= (async () => {
    const file = join(CACHE, `${inputsHash()}.js`);
    if (existsSync(file)) return file;
    const dir = join(CACHE, `build-${process.pid}-${randomBytes(4).toString('hex')}`);
    mkdirSync(dir, { recursive: true });
    try {
      await wranglerBuild(dir);
      renameSync(join(dir, 'worker.js'), file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Bundles of older sources, unless another run may still be using them.
    for (const name of readdirSync(CACHE)) {
      const p = join(CACHE, name);
      if (p !== file && name.endsWith('.js') && statSync(p).mtimeMs < Date.now() - 10 * 60_000) rmSync(p, { force: true });
    }
    return file;
  })());
}

export interface RunningWorker {
  url: string;
  /** What the Worker wrote with console.* (one entry per call). */
  logs: string[];
  mf: Miniflare;
  close(): Promise<void>;
}

/**
 * Serve the built Worker in workerd on 127.0.0.1 with these string bindings (vars/secrets), as
 * `wrangler dev` or Cloudflare would hand them to it.
 */
export async function startWorker(bindings: Record<string, string>, o: { kvNamespaces?: string[] } = {}): Promise<RunningWorker> {
  const scriptPath = await workerBundle();
  // Miniflare keeps workerd's config and sockets in os.tmpdir(): inside the project, as wrangler.
  process.env.TMPDIR = join(ROOT, '.tmp');
  const logs: string[] = [];
  const mf = new Miniflare({
    name: 'interlingua',
    modules: true,
    scriptPath,
    ...wranglerCompat(),
    bindings,
    ...(o.kvNamespaces ? { kvNamespaces: o.kvNamespaces } : {}),
    host: '127.0.0.1',
    port: 0,
    cf: false,
    log: new Log(LogLevel.WARN),
    handleStructuredLogs: ({ message }: { message: string }) => {
      logs.push(message);
    },
  });
  const url = await mf.ready;
  return {
    url: url.origin,
    logs,
    mf,
    close: () => mf.dispose(),
  };
}
