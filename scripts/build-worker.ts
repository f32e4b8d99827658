/**
 * The Worker bundle wrangler uploads (wrangler.toml: `[build] command`, `no_bundle`):
 * `tsx scripts/build-worker.ts ENTRY OUTFILE`.
 *
 * esbuild bundles ENTRY as wrangler's own bundler would (ES module, `workerd`/`worker`/`browser`
 * conditions, es2024), but for a non-Node platform: a `node:` import, which wrangler alone only
 * warns about, fails the build here. Then terser compresses and renames a second time: its
 * mangler names identifiers by frequency, which gzips 2.7 KiB smaller than esbuild's output
 * alone (issue #8). Under `wrangler dev` the bundle stays readable (not minified).
 * `WORKER_METAFILE=PATH` also writes esbuild's metafile (bench/bundle-size.ts reads it).
 */
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { minify } from 'terser';

const [entry, outfile] = process.argv.slice(2);
if (!entry || !outfile) {
  console.error('usage: tsx scripts/build-worker.ts ENTRY OUTFILE');
  process.exit(2);
}
const production = process.env.WRANGLER_COMMAND !== 'dev';

const result = await build({
  entryPoints: [entry],
  bundle: true,
  write: false,
  outfile,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  target: 'es2024',
  minify: production,
  metafile: true,
  logLevel: 'error',
}).catch(() => process.exit(1)); // esbuild has printed the errors

let code = result.outputFiles[0]!.text;
if (production) {
  const out = await minify(code, { module: true, ecma: 2020, compress: true, mangle: true });
  code = out.code!;
}

/** Written beside and renamed into place: a concurrent build never leaves half a file to read. */
function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
writeAtomic(outfile, code);
if (process.env.WORKER_METAFILE) writeAtomic(process.env.WORKER_METAFILE, JSON.stringify(result.metafile));
