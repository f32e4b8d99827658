/**
 * Codex CLI (`codex exec`, the real binary from npm) through Interlingua: the scripted model asks
 * for a shell command (`exec_command`), then edits a file with the freeform `apply_patch` tool —
 * lowered by the proxy to a one-string function for upstreams without freeform tools, raised
 * back to a `custom_tool_call` for Codex — then answers. The file in the temporary working
 * directory must really change, Codex must exit 0, and it must reach no host but 127.0.0.1.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODEX_MODEL, runCodex } from './codex.ts';
import type { TargetKind } from '../support/proxy.ts';
import { DIALECTS, INBOUND_KEY, clientsConfig, useClientsHarness } from './harness.ts';
import { scripted, signatures, thinkingBlocks, toolCalls, toolNames, toolResults, type Dialect, type Turn } from './scripted-upstream.ts';

const BEFORE = 'hello from the original file\n';
const AFTER = 'hello, patched through Interlingua\n';
const PATCH = `*** Begin Patch\n*** Update File: notes.txt\n@@\n-${BEFORE}+${AFTER}*** End Patch\n`;
const DONE = 'I read notes.txt and patched it.';

/** The model's turns as each upstream wire carries them (freeform only on a Responses upstream). */
function script(dialect: Dialect): Turn[] {
  const patch: Turn = dialect === 'openai-responses' ? { custom: 'apply_patch', input: PATCH } : { tool: 'apply_patch', args: { input: PATCH } };
  const turns: Turn[] = [{ tool: 'exec_command', args: { cmd: 'cat notes.txt' } }, patch, { text: DONE }];
  return turns.map((t, i) => ({ ...t, thinking: thoughts(dialect)[i] }));
}

/** The signed reasoning of each scripted turn. */
const thoughts = (dialect: Dialect) => [1, 2, 3].map((i) => ({ text: `**Step ${i}**\n\nDeciding what to do.`, signature: `sig-${dialect}-${i}` }));

/**
 * Codex's model name routed to the upstream of each dialect, one proxy per dialect: on Node for
 * every dialect, and as the Worker in workerd toward Anthropic.
 */
const RUNS: Array<[Dialect, TargetKind]> = [...DIALECTS.map((d): [Dialect, TargetKind] => [d, 'node']), ['anthropic', 'worker']];

describe.each(RUNS)('Codex CLI → Interlingua → %s upstream (%s): exec_command, then an apply_patch edit', (dialect, kind) => {
  const h = useClientsHarness((mockUrl) => clientsConfig(mockUrl, { [CODEX_MODEL]: { upstream: dialect, model: dialect === 'openai-responses' ? CODEX_MODEL : `${dialect}-model` } }), kind);
  let cwd: string;
  beforeEach(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'codex-work-'));
    await writeFile(path.join(cwd, 'notes.txt'), BEFORE);
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it('the file really changes and codex exits 0', { timeout: 90_000 }, async () => {
    h.mock.reply(scripted(dialect, script(dialect)));
    const run = await runCodex(h.proxy.url, INBOUND_KEY, cwd, 'Read notes.txt, then patch its line.');
    const detail = `exit ${run.code} in ${run.ms} ms\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
    expect(run.code, detail).toBe(0);
    expect(await readFile(path.join(cwd, 'notes.txt'), 'utf8'), detail).toBe(AFTER);
    expect(run.stdout, detail).toContain(DONE);
    expect(run.escaped, detail).toEqual([]);

    const posts = h.mock.requests.filter((r) => r.method === 'POST');
    const turns = posts.map((r) => toolResults(dialect, r.json));
    // Three model turns: none, then the shell result, then both results.
    expect(turns.map((t) => t.length)).toEqual([0, 1, 2]);
    // The shell ran in the working directory and its output went back to the model…
    expect(turns[1]![0]!.output).toContain(BEFORE.trim());
    // …and apply_patch's success went back linked to the patch call.
    expect(turns[2]![1]!.output).toMatch(/notes\.txt/);
    const patchCallId = { openai: 'call_openai_2', anthropic: 'toolu_2', gemini: 'apply_patch', 'openai-responses': 'call_openai_responses_2' }[dialect];
    expect(turns[2]![1]!.id).toBe(patchCallId);
    if (process.env.INTERLINGUA_CLIENTS_DEBUG) console.error(dialect, run.ms, 'ms', JSON.stringify(turns));
    // The patch call came back in history exactly as the model made it (lowered again where needed).
    const patchCall = toolCalls(dialect, posts[2]!.json)[1];
    expect(patchCall).toEqual({ name: 'apply_patch', args: dialect === 'openai-responses' ? PATCH : { input: PATCH } });
    // Signed reasoning (Anthropic thinking, Gemini thought signatures) went to Codex as reasoning
    // items and came back to its own vendor on every later turn (Codex sends store: false).
    if (dialect === 'anthropic' || dialect === 'gemini') {
      expect(signatures(dialect, posts[1]!.json)).toEqual([`sig-${dialect}-1`]);
      expect(signatures(dialect, posts[2]!.json)).toEqual([`sig-${dialect}-1`, `sig-${dialect}-2`]);
    }
    // Anthropic signs the thinking text: it must come back unchanged beside its signature.
    if (dialect === 'anthropic') expect(thinkingBlocks(posts[2]!.json)).toEqual(thoughts(dialect).slice(0, 2));
    // The upstream was offered both tools; a freeform one as itself only on a Responses upstream.
    const first = posts[0]!.json;
    expect(toolNames(dialect, first)).toEqual(expect.arrayContaining(['exec_command', 'apply_patch']));
    if (dialect === 'openai-responses') expect(first.tools.find((t: { name?: string }) => t.name === 'apply_patch').type).toBe('custom');
    else expect(JSON.stringify(first)).toContain('"input"');
  });
});
