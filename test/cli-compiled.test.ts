/**
 * The compiled command as `npm start`, the `interlingua` bin and the Dockerfile run it: built by
 * scripts/build-cli.ts into a directory of its own, then run by plain `node` (and through its
 * shebang) with no TypeScript loader anywhere: no tsx on PATH, no NODE_OPTIONS, no execArgv.
 * `--help`, `check` on the committed examples, a start with its summary line, /health, a real
 * request from the official OpenAI SDK through to a mock Anthropic upstream, and SIGTERM.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply, startMockUpstream, type MockUpstream } from './support/mock-upstream.ts';
import { run, start as startProcess, tsx } from './support/processes.ts';

const root = join(import.meta.dirname, '..');
const outdir = join(root, '.tmp', `cli-build-${process.pid}`);
const cli = join(outdir, 'cli.js');
let mock: MockUpstream;

/** An environment with node but nothing of the project's toolchain on the path. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...extra };
  return env;
}

beforeAll(async () => {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const built = await run(...tsx(join(root, 'scripts', 'build-cli.ts'), outdir));
  if (built.status !== 0) throw new Error(`build-cli failed: ${built.stderr}`);
  mock = await startMockUpstream();
}, 60_000);

afterAll(async () => {
  await mock?.close();
  rmSync(outdir, { recursive: true, force: true });
});

function start(args: string[], env: Record<string, string> = {}, viaShebang = false) {
  const p = viaShebang ? startProcess(cli, args, { env: plainEnv(env) }) : startProcess(process.execPath, [cli, ...args], { env: plainEnv(env) });
  const listening = p.waitFor(/listening on (http:\/\/\S+)/).then((m) => m[1]!);
  listening.catch(() => {});
  return { listening, exited: p.exited, out: p.out, err: p.err, stop: () => p.stop() };
}

describe('compiled CLI (dist/cli.js)', () => {
  it('is one executable JavaScript file with a shebang, importing no TypeScript and no tsx', () => {
    const text = readFileSync(cli, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(cli).mode & 0o111).not.toBe(0);
    const all = [text, ...readdirSync(join(outdir, 'chunks')).map((f) => readFileSync(join(outdir, 'chunks', f), 'utf8'))].join('\n');
    expect(all).not.toMatch(/from\s*["']tsx|["'][^"'\s]+\.ts["']\)?;/);
    // The Redis client is loaded from node_modules, only when a store needs it.
    expect(text).not.toMatch(/from\s*["']redis["']/);
    expect(all).toMatch(/from\s*["']redis["']/);
    // The demo's code is a chunk of its own, loaded by `interlingua demo` alone.
    expect(text).not.toContain('demo.interlingua.invalid');
    expect(all).toContain('demo.interlingua.invalid');
  });

  it('--help prints the usage and exits 0, through its shebang; --version the version of package.json', async () => {
    const version = await run(cli, ['--version'], { env: plainEnv() });
    expect(version.stdout).toBe(`interlingua ${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    const r = await run(cli, ['--help'], { env: plainEnv() });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: interlingua \[options\]/);
    expect(r.stdout).toContain('check');
    expect(r.stderr).toBe('');
  });

  it('check --config examples/… prints each route: model → upstream, dialect, provider', async () => {
    const keys = { ANTHROPIC_API_KEY: 'k1', OPENAI_API_KEY: 'k2', GEMINI_API_KEY: 'k3', INTERLINGUA_KEY: 'k4' };
    const r = await run(process.execPath, [cli, 'check', '--config', 'examples/openai-apps-on-claude.json'], { env: plainEnv(keys) });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'config examples/openai-apps-on-claude.json: valid',
      '  gpt-4o → claude as claude-sonnet-4-5 (anthropic, https://api.anthropic.com)',
      '  gpt-4o-mini → claude as claude-haiku-4-5 (anthropic, https://api.anthropic.com)',
      '  * → claude as claude-sonnet-4-5 (anthropic, https://api.anthropic.com)',
      'environment it reads (all set):',
      '  INTERLINGUA_KEY    set      (keys[0])',
      '  ANTHROPIC_API_KEY  set      (upstreams.claude.apiKey)',
      '',
    ]);
    // The secrets it read are never printed.
    expect(r.stdout).not.toMatch(/\bk[1-4]\b/);

    const dir = join(outdir, 'cfg');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'provider.json');
    writeFileSync(file, JSON.stringify({ upstreams: { local: { dialect: 'openai', provider: 'ollama' } }, models: { 'llama*': { upstream: 'local' } } }));
    const p = await run(process.execPath, [cli, 'check', '--config', file], { env: plainEnv() });
    expect(p.status).toBe(0);
    expect(p.stdout).toContain('  llama* → local (openai, provider ollama, http://127.0.0.1:11434/v1)');

    // Without the keys a config names, check passes and says which are missing; --strict-env fails.
    const unset = await run(process.execPath, [cli, 'check', '--config', 'examples/openai-apps-on-claude.json'], { env: plainEnv() });
    expect(unset.status).toBe(0);
    expect(unset.stdout).toMatch(/^ {2}ANTHROPIC_API_KEY +not set/m);
    const bad = await run(process.execPath, [cli, 'check', '--strict-env', '--config', 'examples/openai-apps-on-claude.json'], { env: plainEnv() });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/environment variables not set: INTERLINGUA_KEY \(keys\[0\]\), ANTHROPIC_API_KEY/);
  });

  it('starts with one summary line, serves /health and a translated request, logs JSON on stdout, stops on SIGTERM', async () => {
    const config = join(outdir, 'cfg', 'e2e.json');
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(
      config,
      JSON.stringify({
        keys: ['env:INBOUND_KEY'],
        upstreams: { claude: { dialect: 'anthropic', baseUrl: mock.url, apiKey: 'env:UPSTREAM_KEY', retry: { attempts: 1 } } },
        models: { 'gpt-4o': { upstream: 'claude', model: 'claude-sonnet-4-5' } },
        log: { requests: true, debug: false },
      }),
    );
    const p = start(['--config', config, '--port', '0'], { UPSTREAM_KEY: 'sk-ant-compiled-SECRET', INBOUND_KEY: 'il-compiled-inbound' }, true);
    const url = await p.listening;
    expect(p.err()).toMatch(new RegExp(`^interlingua listening on http://127\\.0\\.0\\.1:\\d+ \\(config ${config.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, 1 route, 1 upstream\\)\\n$`));
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });

    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'il-compiled-inbound', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBeTruthy();
    const upstream = mock.requests.at(-1)!;
    expect(upstream.url).toBe('/v1/messages');
    expect(upstream.json.model).toBe('claude-sonnet-4-5');
    expect(upstream.headers['x-api-key']).toBe('sk-ant-compiled-SECRET');

    await new Promise((r) => setTimeout(r, 100));
    const lines = p.out().trim().split('\n').map((l) => JSON.parse(l) as { status: number; route?: string });
    expect(lines.some((l) => l.status === 200 && l.route === 'chat.completions'), p.out()).toBe(true);
    expect(p.out()).not.toContain('sk-ant-compiled-SECRET');

    expect(await p.stop()).toBe(0);
    expect(p.err()).toContain('shutting down');
  });
});
