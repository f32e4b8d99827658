/**
 * Codex CLI (`codex exec`, the real binary) compacting remotely through Interlingua to upstreams
 * that have no compaction of their own. Its provider is named "OpenAI", so Codex compacts on the
 * server: with a small `model_auto_compact_token_limit` and a first answer that reports a large
 * context, it sends, after the shell tool's output, a streamed `/responses` whose last input item
 * is a `compaction_trigger`, expects exactly one `compaction` item back, and restarts the turn from
 * it. The proxy answers that item from one summarising turn on the routed upstream; the restarted
 * turn carries the summary instead, runs one more shell command and finishes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODEX_MODEL, runCodex } from './codex.ts';
import { INBOUND_KEY, clientsConfig, useClientsHarness } from './harness.ts';
import { isStream, reply, toolResults, type Dialect } from './scripted-upstream.ts';
import type { MockHandler, MockReply } from '../support/mock-upstream.ts';
import type { TargetKind } from '../support/proxy.ts';

const NOTES = 'hello from the original file\n';
const SUMMARY = 'SUMMARY-7Q: the user asked to read notes.txt and then record that the context was compacted; notes.txt was read.';
const DONE = 'Read notes.txt, compacted, and wrote done.txt.';
/** The proxy's summarising instruction (src/flows/compaction.ts), as the upstream sees it. */
const SUMMARISING = 'Stop here: do not call any tool';

/** Codex's config with its provider named "OpenAI" (remote compaction) and a low compaction limit. */
const compacting = (toml: string) => `model_auto_compact_token_limit = 2000\n${toml.replace(/^name = "[^"]*"/m, 'name = "OpenAI"')}`;

/** The reply reporting a context far above the limit, in each dialect's usage fields. */
function large(r: MockReply): MockReply {
  const big = (s: string) => s.replace(/"(input_tokens|prompt_tokens|promptTokenCount|total_tokens|totalTokenCount)":\d+/g, '"$1":50000');
  return { ...r, ...(typeof r.body === 'string' && { body: big(r.body) }), ...(r.chunks && { chunks: r.chunks.map((c) => (typeof c === 'string' ? big(c) : c)) }) };
}

/**
 * The model: a shell call first (reporting a large context); the summary when asked to
 * summarise; after the compaction (the summary in the request, no tool output yet) a second shell
 * call; then the answer.
 */
function model(dialect: Dialect): MockHandler {
  return (req) => {
    if (dialect === 'gemini' && req.method === 'GET') return { status: 404, body: '{}' };
    const wire = JSON.stringify(req.json ?? {});
    const stream = isStream(dialect, req);
    if (wire.includes(SUMMARISING)) return reply(dialect, { text: SUMMARY }, stream, 90);
    if (!wire.includes('SUMMARY-7Q')) return large(reply(dialect, { tool: 'exec_command', args: { cmd: 'cat notes.txt' } }, stream, 1));
    if (toolResults(dialect, req.json).length === 0) return reply(dialect, { tool: 'exec_command', args: { cmd: 'printf compacted > done.txt' } }, stream, 2);
    return reply(dialect, { text: DONE }, stream, 3);
  };
}

/** On Node toward each dialect without compaction, and as the Worker in workerd toward Anthropic. */
const RUNS: Array<[Dialect, TargetKind]> = [['anthropic', 'node'], ['gemini', 'node'], ['openai', 'node'], ['anthropic', 'worker']];

describe.each(RUNS)('Codex CLI (provider "OpenAI", remote compaction) → Interlingua → %s upstream (%s)', (dialect, kind) => {
  const h = useClientsHarness((mockUrl) => clientsConfig(mockUrl, { [CODEX_MODEL]: { upstream: dialect, model: `${dialect}-model` } }), kind);
  let cwd: string;
  beforeEach(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'codex-compact-'));
    await writeFile(path.join(cwd, 'notes.txt'), NOTES);
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it('compacts after the tool output, restarts from the compaction item and finishes the shell task', { timeout: 90_000 }, async () => {
    h.mock.reply(model(dialect));
    const run = await runCodex(h.proxy.url, INBOUND_KEY, cwd, 'Read notes.txt, then write done.txt.', { config: compacting });
    const posts = h.mock.requests.filter((r) => r.method === 'POST');
    const detail = `exit ${run.code} in ${run.ms} ms\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}\n--- upstream\n${posts.map((p) => p.url).join('\n')}`;
    expect(run.code, detail).toBe(0);
    expect(run.escaped, detail).toEqual([]);
    expect(run.stdout, detail).toContain(DONE);
    expect(await readFile(path.join(cwd, 'done.txt'), 'utf8'), detail).toBe('compacted');

    const wires = posts.map((p) => JSON.stringify(p.json));
    // The first turn, the summarising turn (with the shell output it summarises), then the restarted turn and its end.
    const summarising = wires.findIndex((w) => w.includes(SUMMARISING));
    expect(summarising, detail).toBe(1);
    expect(toolResults(dialect, posts[1]!.json)[0]!.output, detail).toContain(NOTES.trim());
    expect(wires.filter((w) => w.includes(SUMMARISING)), detail).toHaveLength(1);
    // After it: the summary instead of the conversation, never the carrier; no earlier tool output.
    const after = posts.slice(2);
    expect(after.length, detail).toBe(2);
    for (const p of after) {
      const w = JSON.stringify(p.json);
      expect(w).toContain('SUMMARY-7Q');
      expect(w).not.toContain('/2lsM2');
      expect(w).not.toContain(NOTES.trim());
    }
    // The second shell call's output went back, and the turn ended on it.
    expect(toolResults(dialect, after[1]!.json), detail).toHaveLength(1);
  });
});
