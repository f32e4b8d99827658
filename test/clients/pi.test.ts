/**
 * pi (`@mariozechner/pi-coding-agent`, `pi -p`) through Interlingua with its built-in providers,
 * only their base URLs changed by the models.json docs/agents.md shows: its `anthropic` provider
 * (Anthropic Messages, streamed) to an OpenAI Chat upstream, and its `openai` provider (the
 * Responses API, streamed, `store: false`) to a Gemini upstream. The model reads a file with
 * pi's own `read` tool, then answers from what it read. pi must exit 0, print the answer, and
 * reach no host but 127.0.0.1 (a trap proxy in the environment: pi routes fetch through it).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../support/processes.ts';
import { documentedBlock } from './documented.ts';
import { INBOUND_KEY, clientsConfig, useClientsHarness } from './harness.ts';
import { isStream, scripted, signatures, toolCalls, toolNames, toolParameters, toolResults, type Dialect } from './scripted-upstream.ts';
import { proxyEnv, startTrap } from './trap.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PI_BIN = path.join(ROOT, 'node_modules/.bin/pi');

const SECRET = 'the launch code is 7-4-1-9';
const PROMPT = 'What does note.txt say?';
const DONE = 'The note says the launch code is 7-4-1-9.';

/** The models.json docs/agents.md shows for pi, its base URLs pointed at `proxyUrl`. */
function piModels(proxyUrl: string): string {
  const block = documentedBlock('docs/agents.md', '## pi', 'jsonc');
  const config = JSON.parse(block) as { providers: Record<string, { baseUrl: string }> };
  for (const p of Object.values(config.providers)) p.baseUrl = p.baseUrl.replace('http://127.0.0.1:8787', proxyUrl);
  return JSON.stringify(config);
}

interface PiRun {
  code: number | null;
  stdout: string;
  stderr: string;
  escaped: string[];
}

/** `pi -p prompt` with `model` in `cwd`, a fresh HOME holding the documented models.json. */
async function runPi(proxyUrl: string, cwd: string, model: string, prompt: string): Promise<PiRun> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'pi-home-'));
  const trap = await startTrap();
  try {
    await mkdir(path.join(home, '.pi/agent'), { recursive: true });
    await writeFile(path.join(home, '.pi/agent/models.json'), piModels(proxyUrl));
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: os.tmpdir(),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      ANTHROPIC_API_KEY: INBOUND_KEY,
      OPENAI_API_KEY: INBOUND_KEY,
      PI_OFFLINE: '1',
      PI_TELEMETRY: '0',
      ...proxyEnv(trap.url),
    };
    const args = ['-p', '--no-session', '--model', model, '--no-extensions', '--no-skills', '--no-prompt-templates', '--no-context-files', prompt];
    const r = await run(process.execPath, [PI_BIN, ...args], { cwd, env, timeoutMs: 60_000, stdin: 'ignore' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, escaped: [...trap.seen] };
  } finally {
    await trap.close();
    await rm(home, { recursive: true, force: true });
  }
}

/** pi's built-in model (provider/id) and the upstream dialect the proxy routes its name to. */
const RUNS: Array<[string, string, Dialect]> = [
  ['anthropic provider (Messages)', 'anthropic/claude-sonnet-4-5', 'openai'],
  ['openai provider (Responses)', 'openai/gpt-5-mini', 'gemini'],
];

describe('pi → Interlingua: a read tool call and its result, then the answer', () => {
  const h = useClientsHarness((mockUrl) =>
    clientsConfig(mockUrl, {
      'claude-sonnet-4-5': { upstream: 'openai', model: 'gpt-4o-mini' },
      'gpt-5-mini': { upstream: 'gemini', model: 'gemini-2.5-flash' },
    }),
  );
  let cwd: string;
  beforeEach(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'pi-work-'));
    await writeFile(path.join(cwd, 'note.txt'), `${SECRET}\n`);
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it.each(RUNS)('%s: %s → %s upstream', { timeout: 90_000 }, async (_name, model, dialect) => {
    const thinking = { text: 'Reading the note first.', signature: 'sig-pi-1' };
    h.mock.reply(scripted(dialect, [{ tool: 'read', args: { path: 'note.txt' }, thinking }, { text: DONE }]));
    const r = await runPi(h.proxy.url, cwd, model, PROMPT);
    const detail = `exit ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}\n--- proxy\n${h.proxy.logs.slice(-4).join('\n')}`;
    expect(r.code, detail).toBe(0);
    // pi printed the model's answer, and only that.
    expect(r.stdout.trim(), detail).toBe(DONE);
    expect(r.escaped, detail).toEqual([]);

    // Two model turns, both streamed to the upstream as pi streamed them from the proxy.
    const posts = h.mock.requests.filter((q) => q.method === 'POST');
    expect(posts.map((q) => isStream(dialect, q)), detail).toEqual([true, true]);
    const [first, second] = posts.map((q) => q.json);
    // pi's prompt, system prompt and tools, in the upstream's shape.
    expect(JSON.stringify(first)).toContain(PROMPT);
    expect(JSON.stringify(first)).toContain('operating inside pi');
    expect(toolNames(dialect, first)).toEqual(['read', 'bash', 'edit', 'write']);
    const read = toolParameters(dialect, first, 'read');
    expect(read.required).toEqual(['path']);
    expect(Object.keys(read.properties)).toEqual(['path', 'offset', 'limit']);
    // pi ran its read tool: the call came back in history and the file's text as its linked result.
    expect(toolCalls(dialect, second)).toEqual([{ name: 'read', args: { path: 'note.txt' } }]);
    const results = toolResults(dialect, second);
    expect(results.map((t) => t.id)).toEqual([dialect === 'gemini' ? 'read' : `call_${dialect}_1`]);
    expect(results[0]!.output).toContain(SECRET);
    // Gemini's thought signature went to pi as an encrypted reasoning item (pi sends store: false)
    // and came back on the function call it belongs to.
    if (dialect === 'gemini') expect(signatures(dialect, second)).toEqual([thinking.signature]);
  });
});
