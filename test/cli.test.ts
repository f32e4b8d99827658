/**
 * The command line as a newcomer runs it: `npm start` serves with the built-in default config,
 * `--config`/`--port` work, a bad config stops the start naming the field, SIGTERM shuts down
 * gracefully, `--help` and bad arguments answer in one line without a stack trace, `check`
 * validates without starting, and a checkout path with a space in it still starts. Run from the
 * TypeScript source here; test/cli-compiled.test.ts runs the built dist/cli.js the same ways.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config/load.ts';
import { startupLine } from '../src/runtime/cli.ts';

const root = join(import.meta.dirname, '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
let child: ChildProcess | undefined;

const cliEnv = (env: Record<string, string>) => ({ ...process.env, PORT: '', HOST: '', ...env, INTERLINGUA_CONFIG: env.INTERLINGUA_CONFIG ?? '' });

function start(args: string[], env: Record<string, string> = {}, entry = 'src/runtime/cli.ts') {
  child = spawn(tsx, [entry, ...args], { cwd: root, env: cliEnv(env) });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearInterval(t);
        resolve(m[1]!);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(t);
      reject(new Error(`exited: ${stderr}`));
    });
  });
  listening.catch(() => {}); // a start that is meant to fail never listens
  return { listening, exited, out: () => stdout, err: () => stderr };
}

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

describe('node entry', () => {
  it('serves /health and the default model list, logs a JSON line, and exits 0 on SIGTERM', async () => {
    const p = start(['--port', '0']);
    const url = await p.listening;
    // One start-up line: the address, where the config came from, how many routes and upstreams.
    expect(p.err()).toBe(`interlingua listening on ${url} (built-in default config, 3 routes, 3 upstreams)\n`);
    expect((await (await fetch(`${url}/health`)).json())).toEqual({ status: 'ok' });
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(['claude-*', 'gemini-*', '*']);
    await new Promise((r) => setTimeout(r, 100));
    const line = JSON.parse(p.out().trim().split('\n').at(-1)!);
    expect(line).toMatchObject({ route: 'models', status: 200 });
    child!.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('takes --config FILE, and a bad config stops the start naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ upstreams: { x: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } }, models: { 'only-this': { upstream: 'x' } } }));
    const p = start(['--config', good, '--port', '0']);
    const url = await p.listening;
    expect(p.err()).toContain(`listening on ${url} (config ${good}, 1 route, 1 upstream)`);
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(['only-this']);
    child!.kill('SIGTERM');
    await p.exited;

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ upstreams: { x: { dialect: 'openai', baseUrl: 'nope' } }, models: {} }));
    const q = start(['--config', bad, '--port', '0']);
    expect(await q.exited).toBe(1);
    expect(q.err()).toMatch(/invalid config: upstreams\.x\.baseUrl/);
  });

  it('reads INTERLINGUA_CONFIG as inline JSON', async () => {
    const p = start(['--port', '0'], {
      INTERLINGUA_CONFIG: JSON.stringify({ upstreams: { x: { dialect: 'anthropic', baseUrl: 'http://127.0.0.1:9' } }, models: { inline: { upstream: 'x' } } }),
    });
    const url = await p.listening;
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(['inline']);
    child!.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('--help prints the usage and exits 0', () => {
    const r = spawnSync(tsx, ['src/runtime/cli.ts', '--help'], { cwd: root, env: cliEnv({}), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: interlingua \[options\]/);
    expect(r.stdout).toContain('--port N');
    expect(r.stdout).toContain('PORT, HOST');
    expect(r.stdout).toContain('one JSON line per request on stdout');
  });

  it.each([
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535, not 'abc'/],
    [['--port', '70000'], /--port must be a whole number/],
    [['--nope'], /Unknown option '--nope'/],
    [['serve', 'now'], /unknown command 'serve now'/],
  ])('%j is one line on stderr, exit 2, no stack trace', (args, message) => {
    const r = spawnSync(tsx, ['src/runtime/cli.ts', ...args], { cwd: root, env: cliEnv({}), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\bat \S+ \(|node:internal/);
  });

  it('PORT from the environment is checked the same way', () => {
    const r = spawnSync(tsx, ['src/runtime/cli.ts'], { cwd: root, env: cliEnv({ PORT: 'eighty' }), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/PORT must be a whole number from 0 to 65535, not 'eighty'/);
  });

  it('check validates the config and prints its routes without starting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-'));
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ upstreams: { claude: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com' }, oai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' } }, models: { 'gpt-4o': { upstream: ['claude', 'oai'], model: 'claude-sonnet-4-5', strict: true }, '*': { upstream: 'oai' } } }));
    const r = spawnSync(tsx, ['src/runtime/cli.ts', 'check', '--config', file], { cwd: root, env: cliEnv({}), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`config ${file}: valid`);
    expect(r.stdout).toContain('gpt-4o → claude as claude-sonnet-4-5 (anthropic, https://api.anthropic.com), then oai as claude-sonnet-4-5 (openai, https://api.openai.com/v1) [strict]');
    expect(r.stdout).toContain('* → oai (openai, https://api.openai.com/v1)');
    // A named provider is part of the line, with the base URL it defaults to.
    writeFileSync(file, JSON.stringify({ upstreams: { local: { dialect: 'openai', provider: 'vllm' } }, models: { 'qwen*': { upstream: 'local' } } }));
    const provider = spawnSync(tsx, ['src/runtime/cli.ts', 'check', '--config', file], { cwd: root, env: cliEnv({}), encoding: 'utf8' });
    expect(provider.stdout).toContain('qwen* → local (openai, provider vllm, http://127.0.0.1:8000/v1)');
    writeFileSync(file, JSON.stringify({ upstreams: {}, models: { x: { upstream: 'nope' } } }));
    const bad = spawnSync(tsx, ['src/runtime/cli.ts', 'check', '--config', file], { cwd: root, env: cliEnv({}), encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/models\["x"\]\.upstream: no upstream named "nope"/);
  });

  it('the start-up line brackets an IPv6 address and counts in the singular', () => {
    const config = { exact: new Map([['a', {}]]), globs: [], upstreams: { u: {} } } as unknown as Config;
    expect(startupLine(config, 'config x.json', '::1', 8787)).toBe('interlingua listening on http://[::1]:8787 (config x.json, 1 route, 1 upstream)');
  });

  it('starts from a checkout whose path contains a space', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il space-'));
    const link = join(dir, 'my checkout');
    symlinkSync(root, link);
    const p = start(['--port', '0'], {}, join(link, 'src', 'runtime', 'cli.ts'));
    const url = await p.listening;
    expect((await (await fetch(`${url}/health`)).json())).toEqual({ status: 'ok' });
    child!.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});
