/**
 * The benchmarks measure prebuilt bundles of the proxy (bench/proxy-entry.ts, built with
 * scripts/node-bundle.ts's options, as the compiled CLI is): a bundle that builds but cannot start
 * (a dependency esbuild bundled in a form that requires files it left behind) breaks every
 * benchmark without any other test noticing. Built here, started, and asked for one answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { benchBundle } from '../scripts/node-bundle.ts';
import { start } from './support/processes.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('the bench proxy bundle starts and answers', async () => {
  await build({ entryPoints: { proxy: 'bench/proxy-entry.ts' }, absWorkingDir: root, outdir: out, ...benchBundle });
  const config = JSON.stringify({ open: true, upstreams: { u: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-x' } }, models: { m: { upstream: 'u' } } });
  const proxy = start(process.execPath, [join(out, 'proxy.mjs'), config]);
  try {
    const port = Number((await proxy.waitFor(/ready (\d+)/))[1]);
    const res = await fetch(`http://127.0.0.1:${port}/v1/models`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toContain('m');
  } finally {
    await proxy.stop();
  }
}, 60_000);
