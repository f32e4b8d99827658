/**
 * Worker bundle size: builds what `npm run deploy` uploads (wrangler and its build step
 * scripts/build-worker.ts, from wrangler.toml) into .tmp/, prints its raw and gzip sizes and what
 * each part of the source and each dependency contributes (esbuild's minified bytes, before
 * terser's pass, which takes about 1% more off them). `tsx bench/bundle-size.ts [--json]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, '.tmp', 'bench-bundle');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(root, '.tmp', 'xdg'), { recursive: true });

execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), 'deploy', '--dry-run', '--outdir', out],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_HIDE_BANNER: 'true',
      TMPDIR: join(root, '.tmp'),
      XDG_CONFIG_HOME: join(root, '.tmp', 'xdg'),
      WORKER_METAFILE: join(out, 'meta.json'),
    },
  },
);

const code = readFileSync(join(out, 'worker.js'));
const raw = code.byteLength;
const gzip = gzipSync(code, { level: 9 }).byteLength;

/** Bytes in the output per source area (src/routing, translators/gemini) or package. */
const meta = JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')) as {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
};
const parts = new Map<string, number>();
for (const output of Object.values(meta.outputs)) {
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const path = input.replace(/^.*?node_modules\//, 'node_modules/');
    const segs = path.split('/');
    const key = segs[0] === 'node_modules' ? segs.slice(1, segs[1]!.startsWith('@') ? 3 : 2).join('/') : segs.length > 2 ? segs.slice(0, 2).join('/') : path;
    parts.set(key, (parts.get(key) ?? 0) + bytesInOutput);
  }
}
const breakdown = [...parts].sort((a, b) => b[1] - a[1]);

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ raw, gzip, parts: Object.fromEntries(breakdown) }));
} else {
  console.log(`worker bundle (minified): ${kib(raw)} raw, ${kib(gzip)} gzip`);
  for (const [name, bytes] of breakdown) console.log(`  ${name.padEnd(28)} ${kib(bytes).padStart(10)}`);
}
