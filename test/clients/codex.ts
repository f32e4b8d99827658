/**
 * Running the real Codex CLI (`@openai/codex`, its bundled binary) against Interlingua: a fresh
 * CODEX_HOME whose config.toml is the one docs/responses.md shows (a `model_providers` entry with
 * `wire_api = "responses"` pointed at the proxy, everything that would reach another host turned
 * off), and a trap proxy in the environment that records any connection Codex tries to make
 * anywhere but 127.0.0.1.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../support/processes.ts';
import { documentedBlock } from './documented.ts';
import { proxyEnv, startTrap } from './trap.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CODEX_BIN = path.join(ROOT, 'node_modules/.bin/codex');

export interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** First line of every connection Codex made through the environment's proxy (should be none). */
  escaped: string[];
}

/** The Codex config docs/responses.md shows under "## Real clients", its `base_url` pointed at `proxyUrl`. */
export function readmeCodexConfig(proxyUrl: string): string {
  const toml = documentedBlock('docs/responses.md', '## Real clients', 'toml');
  if (!/^base_url = "[^"]*"/m.test(toml)) throw new Error('the documented Codex config has no base_url');
  return toml.replace(/^base_url = "[^"]*"/m, `base_url = "${proxyUrl}/v1"`);
}

/** The documented config's `model`: one Codex offers its freeform `apply_patch` tool to. */
export const CODEX_MODEL = /^model = "([^"]+)"/m.exec(readmeCodexConfig(''))?.[1] ?? 'missing model in the documented Codex config';

/**
 * `codex exec` with `prompt` in `cwd` through the proxy at `proxyUrl`, sandboxed to writes in
 * `cwd` with no approvals; `--strict-config` makes an unknown config key an error.
 */
export async function runCodex(proxyUrl: string, apiKey: string, cwd: string, prompt: string, o: { timeoutMs?: number; config?: (toml: string) => string } = {}): Promise<CodexRun> {
  const timeoutMs = o.timeoutMs ?? 60_000;
  const home = await mkdtemp(path.join(os.tmpdir(), 'codex-home-'));
  const trap = await startTrap();
  try {
    await writeFile(path.join(home, 'config.toml'), (o.config ?? ((t) => t))(readmeCodexConfig(proxyUrl)));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      CODEX_HOME: home,
      TMPDIR: os.tmpdir(),
      INTERLINGUA_KEY: apiKey,
      ...proxyEnv(trap.url),
      RUST_LOG: 'error',
    };
    const args = ['exec', '--strict-config', '--skip-git-repo-check', '--color', 'never', '-C', cwd, prompt];
    const started = performance.now();
    const { status: code, stdout, stderr } = await run(CODEX_BIN, args, { cwd, env, timeoutMs });
    return { code, stdout, stderr, ms: Math.round(performance.now() - started), escaped: [...trap.seen] };
  } finally {
    await trap.close();
    await rm(home, { recursive: true, force: true });
  }
}
