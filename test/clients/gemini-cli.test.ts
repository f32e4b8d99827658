/**
 * Gemini CLI (`gemini -p`, the real binary from npm) through Interlingua to an Anthropic upstream,
 * its web search included: the model calls `google_web_search`; the CLI then sends its own
 * generateContent with `tools: [{googleSearch: {}}]`; the proxy asks Claude with its hosted
 * `web_search` server tool, and gives the CLI Claude's search back as `groundingMetadata` (the
 * pages as `groundingChunks`, the cited stretches as `groundingSupports` with UTF-8 byte
 * segments), which the CLI turns into citation markers and a "Sources:" list in the tool's result
 * for the main loop. The CLI must exit 0, print the answer, and reach no host but 127.0.0.1.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MockReply, ReceivedRequest } from '../support/mock-upstream.ts';
import { run } from '../support/processes.ts';
import { INBOUND_KEY, clientsConfig, useClientsHarness } from './harness.ts';
import { proxyEnv, startTrap } from './trap.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GEMINI_BIN = path.join(ROOT, 'node_modules/.bin/gemini');

const FOUND = 'Spain won Euro 2024, beating England 2–1 in the final.';
const PAGE = { url: 'https://www.uefa.com/euro2024/news/final-report', title: 'Spain crowned champions | UEFA EURO 2024' };
const DONE = 'Spain won Euro 2024 (source: UEFA).';
const usage = { input_tokens: 12, output_tokens: 9 };

type Block = Record<string, unknown>;

/** An Anthropic answer with these blocks, as JSON or as the service streams it. */
function claude(req: ReceivedRequest, blocks: Block[], stop = 'end_turn'): MockReply {
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: blocks, stop_reason: stop, stop_sequence: null, usage };
  if (!req.json?.stream) return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) };
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const chunks = [ev('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 0 } } })];
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      chunks.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      chunks.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } }));
    } else if (b.type === 'tool_use') {
      chunks.push(ev('content_block_start', { index, content_block: { ...b, input: {} } }));
      chunks.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } }));
    } else chunks.push(ev('content_block_start', { index, content_block: b }));
    chunks.push(ev('content_block_stop', { index }));
  });
  chunks.push(ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 9 } }), ev('message_stop', {}));
  return { headers: { 'content-type': 'text/event-stream' }, chunks };
}

/** What Claude would answer each of the CLI's requests. */
function anthropic(req: ReceivedRequest): MockReply {
  if (req.method !== 'POST' || !req.url.startsWith('/v1/messages')) return { status: 404, body: '{"type":"error","error":{"type":"not_found_error","message":"no"}}' };
  const tools = JSON.stringify(req.json?.tools ?? []);
  if (tools.includes('web_search_20250305')) {
    // The CLI's web search request: Claude's own hosted search and a cited answer.
    return claude(req, [
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'who won euro 2024' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: PAGE.url, title: PAGE.title, encrypted_content: 'EqClaudePage', page_age: null }] },
      { type: 'text', text: FOUND, citations: [{ type: 'web_search_result_location', url: PAGE.url, title: PAGE.title, cited_text: 'Spain beat England 2–1.', encrypted_index: 'EoClaude' }] },
    ]);
  }
  const history = JSON.stringify(req.json?.messages ?? []);
  if (history.includes('tool_result')) return claude(req, [{ type: 'text', text: DONE }]);
  if (tools.includes('google_web_search')) return claude(req, [{ type: 'tool_use', id: 'toolu_1', name: 'google_web_search', input: { query: 'who won euro 2024' } }], 'tool_use');
  // The CLI's own utility requests (a next-speaker check, a summary…): a plain, valid answer.
  return claude(req, [{ type: 'text', text: '{"reasoning":"done","next_speaker":"user"}' }]);
}

describe('Gemini CLI → Interlingua → Anthropic upstream: google_web_search', () => {
  const h = useClientsHarness((mockUrl) => clientsConfig(mockUrl, { 'gemini-*': { upstream: 'anthropic', model: 'claude-sonnet-4-5' } }));

  it('the search runs on Claude and its sources reach the main loop; gemini exits 0', { timeout: 150_000 }, async () => {
    h.mock.reply(anthropic);
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'gemini-work-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'gemini-home-'));
    const trap = await startTrap();
    try {
      await mkdir(path.join(home, '.gemini'), { recursive: true });
      const settings = {
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        security: { auth: { selectedType: 'gemini-api-key' } },
      };
      await writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
      const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: os.tmpdir(),
        GOOGLE_GEMINI_BASE_URL: h.proxy.url,
        GEMINI_API_KEY: INBOUND_KEY,
        GEMINI_CLI_NO_RELAUNCH: 'true',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        NO_COLOR: '1',
        ...proxyEnv(trap.url),
      };
      const args = ['-p', 'Search the web: who won Euro 2024?', '-m', 'gemini-2.5-flash', '--output-format', 'json'];
      const r = await run(GEMINI_BIN, args, { cwd, env, timeoutMs: 120_000, stdin: 'ignore' });
      const detail = `exit ${r.status}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}\n--- upstream\n${h.mock.requests.map((q) => `${q.method} ${q.url} ${JSON.stringify(q.json?.tools ?? []).slice(0, 120)}`).join('\n')}`;
      expect(r.status, detail).toBe(0);
      expect(r.stdout, detail).toContain(DONE);

      const posts = h.mock.requests.filter((q) => q.method === 'POST');
      const search = posts.find((q) => JSON.stringify(q.json.tools ?? []).includes('web_search_20250305'));
      expect(search, detail).toBeDefined();
      // Google Search as Claude's own server tool.
      expect(search!.json.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
      // The CLI read our groundingMetadata: its tool result has the citation marker and the source.
      const answered = posts.find((q) => JSON.stringify(q.json.messages ?? []).includes('tool_result'));
      const result = JSON.stringify(answered?.json.messages.at(-1));
      expect(result, detail).toContain(`${FOUND}[1]`);
      expect(result).toContain(`[1] ${PAGE.title} (${PAGE.url})`);
      expect(result).not.toContain('EqClaudePage');
      expect(trap.seen, detail).toEqual([]);
    } finally {
      await trap.close();
      await rm(cwd, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });
});
