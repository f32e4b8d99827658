/**
 * opencode (`opencode-ai`, its native binary: `opencode run`) through Interlingua with the
 * opencode.json and the variables docs/agents.md shows: its own OpenAI-compatible provider (Chat
 * Completions) to an Anthropic upstream, and its built-in `anthropic` provider (Messages) to a
 * Responses upstream, both streamed. opencode asks for a session title first (its title agent,
 * on the provider's small model), then reads a file with its own `read` tool and answers from
 * what it read. It must exit 0 and print the answer.
 *
 * Offline: models.dev's catalogue ships inside the binary and OPENCODE_DISABLE_MODELS_FETCH stops
 * its refresh (without it opencode tries models.opencode.ai); what opencode still tries on every
 * start is a background `npm install` of `@opencode-ai/plugin` into its config directory
 * (registry.npmjs.org), which fails with a warning and nothing waits for. The trap proxy in the
 * environment refuses it and records everything else opencode tries: it must be nothing.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReceivedRequest } from '../support/mock-upstream.ts';
import { run } from '../support/processes.ts';
import { documentedBlock } from './documented.ts';
import { INBOUND_KEY, clientsConfig, useClientsHarness } from './harness.ts';
import { isStream, reply, scripted, toolCalls, toolNames, toolParameters, toolResults, type Dialect } from './scripted-upstream.ts';
import { proxyEnv, startTrap } from './trap.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OPENCODE_BIN = path.join(ROOT, 'node_modules/.bin/opencode');

const SECRET = 'the launch code is 7-4-1-9';
const PROMPT = 'What does note.txt say?';
const DONE = 'The note says the launch code is 7-4-1-9.';
const TITLE = 'Reading note.txt';
/** What opencode tries on every start that has nothing to do with the model (see above). */
const PLUGIN_INSTALL = 'CONNECT registry.npmjs.org:443 HTTP/1.1';

/** The variables docs/agents.md sets for opencode: no models.dev refresh, no update check, no sharing. */
const OFFLINE_ENV = Object.fromEntries(
  [...documentedBlock('docs/agents.md', '## opencode', 'sh').matchAll(/(OPENCODE_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
);

/** The opencode.json docs/agents.md shows, its `baseURL` pointed at `proxyUrl`. */
function opencodeConfig(proxyUrl: string): string {
  const block = documentedBlock('docs/agents.md', '## opencode', 'jsonc');
  const config = JSON.parse(block) as { provider: Record<string, { options: { baseURL: string } }> };
  for (const p of Object.values(config.provider)) p.options.baseURL = p.options.baseURL.replace('http://127.0.0.1:8787', proxyUrl);
  return JSON.stringify(config);
}

const isTitleRequest = (q: ReceivedRequest) => q.body.includes('You are a title generator');

interface OpencodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  escaped: string[];
}

/** `opencode run prompt` in `cwd` (its own git repository), a fresh HOME holding the documented config. */
async function runOpencode(proxyUrl: string, cwd: string, model: string, prompt: string): Promise<OpencodeRun> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'opencode-home-'));
  const trap = await startTrap();
  try {
    await mkdir(path.join(home, '.config/opencode'), { recursive: true });
    await writeFile(path.join(home, '.config/opencode/opencode.json'), opencodeConfig(proxyUrl));
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: os.tmpdir(),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_STATE_HOME: path.join(home, '.local/state'),
      INTERLINGUA_KEY: INBOUND_KEY,
      ...OFFLINE_ENV,
      ...proxyEnv(trap.url),
    };
    const r = await run(OPENCODE_BIN, ['run', '--print-logs', '--log-level', 'WARN', '--model', model, prompt], { cwd, env, timeoutMs: 60_000, stdin: 'ignore' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, escaped: [...trap.seen] };
  } finally {
    await trap.close();
    await rm(home, { recursive: true, force: true });
  }
}

/** opencode's provider/model, and the upstream dialect the proxy routes the model name to. */
const RUNS: Array<[string, string, Dialect]> = [
  ['OpenAI-compatible provider (Chat Completions)', 'interlingua/to-claude', 'anthropic'],
  ['anthropic provider (Messages)', 'anthropic/claude-sonnet-4-5', 'openai-responses'],
];

describe('opencode → Interlingua: a read tool call and its result, then the answer', () => {
  const h = useClientsHarness((mockUrl) =>
    clientsConfig(mockUrl, {
      'to-claude': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      'claude-sonnet-4-5': { upstream: 'openai-responses', model: 'gpt-5-mini' },
      // The anthropic provider's small model, which writes the session title.
      'claude-haiku-*': { upstream: 'openai-responses', model: 'gpt-5-nano' },
    }),
  );
  let cwd: string;
  beforeEach(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'opencode-work-'));
    // A repository of its own: opencode takes the enclosing git repository as its project.
    const init = await run('git', ['init', '-q'], { cwd });
    expect(init.status, init.stderr).toBe(0);
    await writeFile(path.join(cwd, 'note.txt'), `${SECRET}\n`);
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it.each(RUNS)('%s: %s → %s upstream; opencode exits 0', { timeout: 90_000 }, async (_name, model, dialect) => {
    const file = path.join(cwd, 'note.txt');
    const turns = scripted(dialect, [{ tool: 'read', args: { filePath: file } }, { text: DONE }]);
    h.mock.reply((q, n) => (isTitleRequest(q) ? reply(dialect, { text: TITLE }, isStream(dialect, q), 0) : turns(q, n)));
    const r = await runOpencode(h.proxy.url, cwd, model, PROMPT);
    const detail = `exit ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}\n--- proxy\n${h.proxy.logs.slice(-4).join('\n')}`;
    expect(r.code, detail).toBe(0);
    // opencode printed the model's answer, and its read of the file beside it (on stderr).
    expect(r.stdout.trim(), detail).toBe(DONE);
    expect(r.stderr, detail).toContain('Read note.txt');
    expect(r.escaped.filter((line) => line !== PLUGIN_INSTALL), detail).toEqual([]);

    // The title, then two model turns: every one streamed, as opencode streamed it from the proxy.
    const posts = h.mock.requests.filter((q) => q.method === 'POST');
    expect(posts.map(isTitleRequest), detail).toEqual([true, false, false]);
    expect(posts.map((q) => isStream(dialect, q))).toEqual([true, true, true]);
    const [, first, second] = posts.map((q) => q.json);
    // opencode's system prompt, the prompt and its tools, in the upstream's shape.
    expect(JSON.stringify(first)).toContain('You are OpenCode');
    expect(JSON.stringify(first)).toContain(PROMPT);
    expect(toolNames(dialect, first)).toEqual(expect.arrayContaining(['bash', 'read', 'edit', 'write', 'glob', 'grep']));
    const read = toolParameters(dialect, first, 'read');
    expect(read.required).toEqual(['filePath']);
    expect(read.properties.filePath.type).toBe('string');
    // opencode ran its read tool: the call came back in history and the file's text as its linked result.
    expect(toolCalls(dialect, second)).toEqual([{ name: 'read', args: { filePath: file } }]);
    const results = toolResults(dialect, second);
    expect(results.map((t) => t.id)).toEqual([dialect === 'anthropic' ? 'toolu_1' : 'call_openai_responses_1']);
    expect(results[0]!.output).toContain(SECRET);
  });
});
