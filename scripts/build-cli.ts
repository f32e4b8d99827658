/**
 * The `interlingua` command as plain JavaScript for Node (package.json `bin`, `npm start`, the
 * Dockerfile): `tsx scripts/build-cli.ts [OUTDIR]` bundles src/runtime/cli.ts into OUTDIR/cli.js
 * (default dist/) with a shebang, so nothing transpiles TypeScript at run time. `npm run build`
 * runs it; so do `npm install` / `npm ci` (`prepare`) and `npm start` (`prestart`).
 *
 * Interlingua's own code, Hono, valibot and the other small dependencies are bundled (so the
 * package's only dependency is `redis`). What only some starts need is in chunks of its own
 * (OUTDIR/chunks/), loaded when needed: the inspector, `interlingua demo`, @hono/node-server, and
 * the Redis client, an ordinary `import('redis')` from node_modules when the config names a Redis
 * store, so a server without one never parses it. Whitespace and syntax are minified, names are not: stack traces
 * stay readable (full minification measured no lower idle RSS).
 */
import { build } from 'esbuild';
import { nodeBundle } from './node-bundle.ts';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = resolve(root, process.argv[2] ?? 'dist');

const result = await build({
  entryPoints: { cli: join(root, 'src/runtime/cli.ts') },
  absWorkingDir: root,
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  ...nodeBundle,
  splitting: true,
  write: false,
  external: ['redis'],
  minifyWhitespace: true,
  minifySyntax: true,
  banner: { js: '#!/usr/bin/env node' },
}).catch(() => process.exit(1)); // esbuild has printed the errors

// Each file is written beside and renamed into place, chunks (named by content hash) before the
// entry that imports them: a server starting meanwhile never reads half a file. Then the chunks
// of earlier builds go.
const files = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('cli.js')) - Number(b.path.endsWith('cli.js')));
for (const file of files) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents, { mode: file.path.endsWith('cli.js') ? 0o755 : 0o644 });
  renameSync(tmp, file.path);
}
const chunks = join(outdir, 'chunks');
const current = new Set(files.map((f) => relative(chunks, f.path)));
for (const name of readdirSync(chunks)) if (!current.has(name) && !name.endsWith('.tmp')) rmSync(join(chunks, name), { force: true });
