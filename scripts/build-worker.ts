/**
 * The Worker bundle wrangler uploads (wrangler.toml: `[build] command`, `no_bundle`):
 * `tsx scripts/build-worker.ts ENTRY OUTFILE`; `npm run dev:worker` (scripts/dev-worker.ts) calls
 * `buildWorker` itself.
 *
 * esbuild bundles ENTRY as wrangler's own bundler would (ES module, `workerd`/`worker`/`browser`
 * conditions, es2024), but for a non-Node platform: a `node:` import, which wrangler alone only
 * warns about, fails the build here. Then terser compresses and renames a second time: its
 * mangler names identifiers by frequency, which gzips 2.7 KiB smaller than esbuild's output
 * alone (issue #8). Under `wrangler dev` the bundle stays readable (not minified).
 * `WORKER_METAFILE=PATH` also writes esbuild's metafile (bench/bundle-size.ts reads it).
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';

/** Written beside and renamed into place: a concurrent build never leaves half a file to read. */
function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * Bundle `entry` into `outfile` (minified unless `production` is false); throws when esbuild
 * fails (it has printed why). Leaves the file as it is when the new bundle is the same: a watcher
 * of it sees a change only when there is one. Returns whether it wrote.
 */
export async function buildWorker(entry: string, outfile: string, o: { production: boolean; metafile?: string }): Promise<boolean> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outfile,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2024',
    minify: o.production,
    metafile: true,
    logLevel: 'error',
  });
  let code = result.outputFiles[0]!.text;
  if (o.production) code = (await minify(code, { module: true, ecma: 2020, compress: true, mangle: true })).code!;
  if (o.metafile) writeAtomic(o.metafile, JSON.stringify(result.metafile));
  if (existsSync(outfile) && readFileSync(outfile, 'utf8') === code) return false;
  writeAtomic(outfile, code);
  return true;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const [entry, outfile] = process.argv.slice(2);
  if (!entry || !outfile) {
    console.error('usage: tsx scripts/build-worker.ts ENTRY OUTFILE');
    process.exit(2);
  }
  await buildWorker(entry, outfile, { production: process.env.WRANGLER_COMMAND !== 'dev', metafile: process.env.WORKER_METAFILE }).catch(() => process.exit(1)); // esbuild has printed the errors
}
