/**
 * The package as npm would publish it: `npm pack` (which builds dist/ through `prepare`), its
 * contents, and the tarball installed into an empty directory (the npm cache first: `npm ci` of
 * this checkout filled it; the registry only for what it lacks), where `npx interlingua
 * --version`, `check` on a shipped example and a `demo` request work with nothing of the
 * checkout around.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run, start } from './support/processes.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  private?: boolean;
  description: string;
  bin: Record<string, string>;
  files: string[];
  engines: Record<string, string>;
  dependencies: Record<string, string>;
};

const base = join(ROOT, '.tmp');
let dir: string;
let app: string;
let tarball: string;
/** npm and npx with no project config of this checkout's: a user's shell in an empty directory. */
const npmEnv = () => ({ ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', PORT: '', HOST: '', INTERLINGUA_CONFIG: '' });

beforeAll(async () => {
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(join(base, 'pack-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { env: npmEnv(), timeoutMs: 120_000 });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(dir, info!.filename);
  writeFileSync(join(dir, 'files.json'), JSON.stringify(info!.files.map((f) => f.path)));
  // An empty project (its own package.json, so npm does not climb to this checkout's).
  app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{ "name": "pack-test-app", "private": true }\n');
  const installed = await run('npm', ['install', '--prefer-offline', '--no-save', tarball], { cwd: app, env: npmEnv(), timeoutMs: 180_000 });
  if (installed.status !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('is publishable: not private, a bin, engines, files, a description naming the six dialects', () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.bin).toEqual({ interlingua: 'dist/cli.js' });
    expect(pkg.engines.node).toBeTruthy();
    for (const d of ['OpenAI Chat Completions', 'OpenAI Images', 'Gemini', 'Anthropic Messages', 'OpenAI Responses', 'Gemini Interactions']) expect(pkg.description).toContain(d);
    // What dist/ imports at run time and does not bundle: the Redis client alone.
    expect(Object.keys(pkg.dependencies)).toEqual(['redis']);
  });

  it('packs the compiled command, its chunks, the schema, the examples and the docs; no sources, no tests', () => {
    const files = JSON.parse(readFileSync(join(dir, 'files.json'), 'utf8')) as string[];
    for (const f of ['package.json', 'README.md', 'dist/cli.js', 'config.schema.json', 'examples/default.json', 'docs/configuration.md']) expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('dist/chunks/'))).toBe(true);
    expect(files.filter((f) => /^(src|test|translators|bench|scripts)\//.test(f) || f.endsWith('.ts'))).toEqual([]);
  });

  it('installed from the tarball: npx interlingua --version', async () => {
    const r = await run('npx', ['--no-install', 'interlingua', '--version'], { cwd: app, env: npmEnv() });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`interlingua ${pkg.version}\n`);
  });

  it('installed from the tarball: npx interlingua check on a shipped example', async () => {
    const r = await run('npx', ['--no-install', 'interlingua', 'check', '--config', 'node_modules/interlingua/examples/default.json'], { cwd: app, env: npmEnv() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('config node_modules/interlingua/examples/default.json: valid');
    expect(r.stdout).toMatch(/^ {2}OPENAI_API_KEY +(not set|set)/m);
  });

  it('installed from the tarball: npx interlingua demo answers a translated request', async () => {
    const demo = start('npx', ['--no-install', 'interlingua', 'demo', '--port', '0'], { cwd: app, env: npmEnv() });
    try {
      const url = (await demo.waitFor(/listening on (http:\/\/\S+)/, 30_000))[1]!;
      const res = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'demo-openai', max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'demo-openai (OpenAI Chat Completions) echoes: Hello' }] });
    } finally {
      await demo.stop();
    }
  }, 60_000);
});
