/**
 * The deployable bundle (wrangler, minified, as `npm run build:worker` makes it) imports nothing
 * from Node, and wrangler.toml keeps it that way: no `nodejs_compat`, and its build step turns a
 * `node:` import (which wrangler alone only warns about) into a failed build.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { run } from '../support/processes.ts';
import { ROOT, workerBundle, wranglerCompat } from '../support/worker.ts';

/**
 * The bundle's budget, gzipped (docs/performance.md). Cloudflare's own limit is far above it (3 MiB
 * compressed on the free plan); the budget is ours, so that growth is a decision, not an accident.
 */
const BUDGET_GZIP_BYTES = 185 * 1024;

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Every module specifier an ES module bundle still imports (static, dynamic, re-export, require). */
function specifiers(code: string): string[] {
  const out = new Set<string>();
  const patterns = [
    /\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g,
    /\bexport\s*(?:\*|\{[^}]*\})\s*from\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.add(m[1]!);
  return [...out];
}

describe('worker bundle', () => {
  it('imports no Node builtin (nor anything else: it is self-contained)', async () => {
    const code = readFileSync(await workerBundle(), 'utf8');
    expect(code.length).toBeGreaterThan(10_000);
    const specs = specifiers(code);
    expect(specs.filter((s) => NODE_BUILTINS.has(s) || s.startsWith('node:'))).toEqual([]);
    // Only the platform's own modules could legitimately remain.
    expect(specs.filter((s) => !s.startsWith('cloudflare:'))).toEqual([]);
    expect(code).not.toMatch(/["']node:[a-z_/]+["']/);
    expect(code).not.toMatch(/\bprocess\.env\b/);
  }, 120_000); // the first to ask builds the bundle (wrangler + terser): slow on a loaded machine

  it('holds none of the demo upstreams (Node only, loaded by `interlingua demo`)', async () => {
    const code = readFileSync(await workerBundle(), 'utf8');
    expect(code).not.toContain('demo.interlingua.invalid');
    expect(code).not.toContain('The demo reaches no network');
  });

  it(`stays within its budget of ${BUDGET_GZIP_BYTES / 1024} KiB gzipped`, async () => {
    const gzip = gzipSync(readFileSync(await workerBundle()), { level: 9 }).byteLength;
    expect(gzip).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  it('the specifier scan finds Node imports in minified code', () => {
    expect(specifiers('import{readFileSync as a}from"node:fs";import*as b from"path";const c=await import("node:os");')).toEqual([
      'node:fs',
      'path',
      'node:os',
    ]);
  });

  it('wrangler.toml has no nodejs_compat, and its build step fails on a node: import', async () => {
    const { compatibilityFlags } = wranglerCompat();
    expect(compatibilityFlags.filter((f) => f.includes('nodejs'))).toEqual([]);
    const toml = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8');
    const command = /^\[build\][^[]*?^command\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
    expect(command).toContain('src/runtime/worker.ts');
    const dir = join(ROOT, '.tmp', `node-import-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(entry, `import { readFileSync } from 'node:fs';\nexport default { fetch: () => new Response(String(readFileSync)) };\n`);
      const sh = async (cmd: string) => {
        const r = await run('/bin/sh', ['-c', cmd], { cwd: ROOT, timeoutMs: 100_000 });
        return { code: r.status, output: r.stdout + r.stderr };
      };
      expect((await sh(command!)).code).toBe(0);
      const bad = await sh(command!.replace('src/runtime/worker.ts', relative(ROOT, entry)));
      expect(bad.code).not.toBe(0);
      expect(bad.output).toContain('Could not resolve "node:fs"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // two esbuild + terser builds: slow on a loaded machine
});
