/**
 * Codex CLI over the Responses WebSocket: the documented provider with `supports_websockets =
 * true`, through Interlingua to an upstream of every dialect on Node (none of them a WebSocket)
 * and to Anthropic in workerd, finishing the same shell-then-patch task as codex.test.ts. Codex falls back to HTTP without a word when the
 * upgrade fails, so the proxy's log must show the upgrade (101) and every turn served on it
 * (`responses.socket`, then `responses` lines with no HTTP request of their own), and the upstream
 * must have seen the whole history on each turn though Codex sent only what was new.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodex } from './codex.ts';
import { DIALECTS, INBOUND_KEY, clientsConfig, useClientsHarness } from './harness.ts';
import { scripted, toolResults, type Dialect, type Turn } from './scripted-upstream.ts';
import type { TargetKind } from '../support/proxy.ts';
import { CODEX_MODEL } from './codex.ts';

const BEFORE = 'hello from the original file\n';
const AFTER = 'hello, patched over a WebSocket\n';
const PATCH = `*** Begin Patch\n*** Update File: notes.txt\n@@\n-${BEFORE}+${AFTER}*** End Patch\n`;
const DONE = 'I read notes.txt and patched it.';

/** The model's turns as each upstream wire carries them (freeform only on a Responses upstream). */
const script = (dialect: Dialect): Turn[] => [
  { tool: 'exec_command', args: { cmd: 'cat notes.txt' } },
  dialect === 'openai-responses' ? { custom: 'apply_patch', input: PATCH } : { tool: 'apply_patch', args: { input: PATCH } },
  { text: DONE },
];

const RUNS: Array<[Dialect, TargetKind]> = [...DIALECTS.map((d): [Dialect, TargetKind] => [d, 'node']), ['anthropic', 'worker']];

/** The documented config with the provider marked as speaking WebSocket. */
const withWebsockets = (toml: string) => toml.replace(/^wire_api = "responses"$/m, 'wire_api = "responses"\nsupports_websockets = true');

const logLines = (logs: string[]) =>
  logs.flatMap((l) => {
    try {
      return [JSON.parse(l) as { route?: string; status?: number; requestId?: string; socket?: string }];
    } catch {
      return [];
    }
  });

describe.each(RUNS)('Codex CLI over WebSocket → Interlingua → %s upstream (%s)', (dialect, kind) => {
  const model = dialect === 'openai-responses' ? CODEX_MODEL : `${dialect}-model`;
  const h = useClientsHarness((mockUrl) => clientsConfig(mockUrl, { [CODEX_MODEL]: { upstream: dialect, model } }, { log: { requests: true } }), kind);
  let cwd: string;
  beforeEach(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'codex-ws-work-'));
    await writeFile(path.join(cwd, 'notes.txt'), BEFORE);
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it('finishes the shell-then-patch task, every turn on the socket', { timeout: 90_000 }, async () => {
    h.proxy.logs.length = 0;
    h.mock.reply(scripted(dialect, script(dialect)));
    const run = await runCodex(h.proxy.url, INBOUND_KEY, cwd, 'Read notes.txt, then patch its line.', { config: withWebsockets });
    const detail = `exit ${run.code} in ${run.ms} ms\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}\n--- proxy\n${h.proxy.logs.join('\n')}`;
    expect(run.code, detail).toBe(0);
    expect(await readFile(path.join(cwd, 'notes.txt'), 'utf8'), detail).toBe(AFTER);
    expect(run.stdout, detail).toContain(DONE);
    expect(run.escaped, detail).toEqual([]);

    const lines = logLines(h.proxy.logs);
    // The upgrade happened, and every turn (the warm-up first) came on that socket, none over HTTP.
    const sockets = lines.filter((l) => l.route === 'responses.socket');
    expect(sockets.map((l) => l.status), detail).toEqual([101]);
    const turns = lines.filter((l) => l.route === 'responses' || l.route === 'responses.warmup');
    expect(turns.map((l) => [l.route, l.status, l.socket]), detail).toEqual([
      ['responses.warmup', 200, sockets[0]!.requestId],
      ...[1, 2, 3].map(() => ['responses', 200, sockets[0]!.requestId]),
    ]);

    // Three model turns, each with the whole history, though Codex sent only the new items.
    const posts = h.mock.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => toolResults(dialect, r.json).length), detail).toEqual([0, 1, 2]);
    expect(toolResults(dialect, posts[1]!.json)[0]!.output).toContain(BEFORE.trim());
    expect(posts[2]!.body).toContain('Read notes.txt, then patch its line.');
    // A Responses upstream gets the whole input too: no previous_response_id it never issued.
    if (dialect === 'openai-responses') {
      for (const p of posts) expect(p.json.previous_response_id).toBeUndefined();
      // Nor the beta that asked for the socket: its calls are over HTTP.
      for (const p of posts) expect(String(p.headers['openai-beta'] ?? '')).not.toContain('responses_websockets');
    }
  });
});
