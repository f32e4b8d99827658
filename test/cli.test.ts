/**
 * The Node entry as a newcomer runs it: `npm start` serves with the built-in default config,
 * `--config`/`--port` work, a bad config stops the start naming the field, SIGTERM shuts down
 * gracefully.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
let child: ChildProcess | undefined;

function start(args: string[], env: Record<string, string> = {}) {
  child = spawn(tsx, ['src/runtime/node.ts', ...args], { cwd: root, env: { ...process.env, ...env, INTERLINGUA_CONFIG: env.INTERLINGUA_CONFIG ?? '' } });
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
});
