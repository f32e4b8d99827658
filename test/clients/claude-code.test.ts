/**
 * Claude Code (`claude -p`, the real binary from npm) through Interlingua to a Gemini upstream,
 * its WebSearch tool included: the model calls WebSearch; Claude Code then sends its own request
 * with Anthropic's `web_search_20250305` server tool forced by `tool_choice`; the proxy asks
 * Gemini with Google Search, and gives Claude Code the search back as `server_tool_use` and
 * `web_search_tool_result` blocks — which it turns into the "Links" of the tool's result for the
 * main loop. Behind translating proxies this search is the one that prints "Did 0 searches".
 * Every turn also carries Claude Code's context editing (`context_management`), which the proxy
 * applies toward Gemini without a loss. Claude Code must exit 0 and reach no host but 127.0.0.1.
 * The same toward an OpenAI Chat model, which has no hosted search: the proxy runs the search on
 * its configured backend (a mock Brave) and answers Claude Code's search request with the blocks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MockReply, ReceivedRequest } from '../support/mock-upstream.ts';
import { run } from '../support/processes.ts';
import type { TargetKind } from '../support/proxy.ts';
import { INBOUND_KEY, clientsConfig, useClientsHarness } from './harness.ts';
import { proxyEnv, startTrap } from './trap.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLAUDE_BIN = path.join(ROOT, 'node_modules/.bin/claude');
const MODEL = 'claude-sonnet-4-5';

const FOUND = 'Spain won Euro 2024, beating England 2–1 in the final.';
const PAGE = { uri: 'https://www.uefa.com/euro2024/news/final-report', title: 'Spain crowned champions | UEFA EURO 2024' };
const DONE = 'Spain won Euro 2024 (source: UEFA).';
const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 9, totalTokenCount: 21 };
const bytes = (s: string) => new TextEncoder().encode(s).length;

const sse = (chunks: unknown[]): MockReply => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`) });
const answer = (parts: unknown[], extra: Record<string, unknown> = {}) => sse([{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0, ...extra }], usageMetadata, modelVersion: 'gemini-2.5-flash' }]);

/** What a Gemini model would answer each of Claude Code's requests. */
function gemini(req: ReceivedRequest): MockReply {
  if (req.method === 'GET') return { status: 404, body: '{}' };
  const tools = JSON.stringify(req.json?.tools ?? []);
  if (tools.includes('googleSearch')) {
    // The WebSearch tool's own request: Google Search grounding, as Gemini reports it.
    return answer([{ text: FOUND }], {
      groundingMetadata: {
        webSearchQueries: ['who won euro 2024'],
        groundingChunks: [{ web: PAGE }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: bytes(FOUND), text: FOUND }, groundingChunkIndices: [0] }],
      },
    });
  }
  const answered = JSON.stringify(req.json?.contents ?? []).includes('functionResponse');
  return answered ? answer([{ text: DONE }]) : answer([{ functionCall: { name: 'WebSearch', args: { query: 'who won euro 2024' } } }]);
}

/** What an OpenAI Chat model would answer each of Claude Code's requests (the WebSearch request offered our `web_search` function). */
const BRAVE_KEY = 'brave-SECRET-claude-code-7777';
function chat(req: ReceivedRequest): MockReply {
  if (req.url.startsWith('/res/v1/web/search')) {
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ web: { results: [{ title: PAGE.title, url: PAGE.uri, description: FOUND }] } }) };
  }
  if (req.method === 'GET') return { status: 404, body: '{}' };
  const names = ((req.json?.tools ?? []) as Array<{ function?: { name?: string } }>).map((t) => t.function?.name);
  const answered = ((req.json?.messages ?? []) as Array<{ role: string }>).some((m) => m.role === 'tool');
  const message = names.includes('web_search')
    ? answered ? { content: `${FOUND} (${PAGE.uri})` } : { tool_calls: [{ id: 'call_s', type: 'function', function: { name: 'web_search', arguments: JSON.stringify({ query: 'who won euro 2024' }) } }] }
    : names.includes('WebSearch') && !answered
      ? { tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'WebSearch', arguments: JSON.stringify({ query: 'who won euro 2024' }) } }] }
      : { content: DONE };
  const finish = 'tool_calls' in message ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 };
  const head = { id: 'chatcmpl-cc', created: 1, model: 'gpt-4o-mini' };
  if (!req.json?.stream) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...head, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }], usage }) };
  const delta = 'tool_calls' in message ? { role: 'assistant', tool_calls: message.tool_calls!.map((c, index) => ({ index, ...c })) } : { role: 'assistant', content: message.content };
  const chunks = [
    { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] },
    { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] },
    { ...head, object: 'chat.completion.chunk', choices: [], usage },
  ];
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'] };
}

const RUNS: TargetKind[] = ['node', 'worker'];

/** Claude Code's environment: its home and work directories apart, no traffic but to the proxy. */
function claudeEnv(proxyUrl: string, home: string, trapUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: os.tmpdir(),
    ANTHROPIC_BASE_URL: proxyUrl,
    ANTHROPIC_API_KEY: INBOUND_KEY,
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Every tool in the request (not deferred behind ToolSearch), so the model can call WebSearch.
    ENABLE_TOOL_SEARCH: 'false',
    ...proxyEnv(trapUrl),
  };
}

describe.each(RUNS)('Claude Code → Interlingua (%s) → OpenAI Chat upstream with a search backend: WebSearch', (kind) => {
  const h = useClientsHarness(
    (mockUrl) => clientsConfig(mockUrl, { 'claude-*': { upstream: 'openai', model: 'gpt-4o-mini' } }, { search: { provider: 'brave', apiKey: BRAVE_KEY, baseUrl: mockUrl } }),
    kind,
  );

  it('the proxy runs the search on its backend and its links reach the main loop; claude exits 0', { timeout: 120_000 }, async () => {
    h.mock.reply(chat);
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'claude-work-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'claude-home-'));
    const trap = await startTrap();
    try {
      const args = ['-p', 'Search the web: who won Euro 2024?', '--model', MODEL, '--allowedTools', 'WebSearch', '--output-format', 'json'];
      const r = await run(CLAUDE_BIN, args, { cwd, env: claudeEnv(h.proxy.url, home, trap.url), timeoutMs: 90_000, stdin: 'ignore' });
      const detail = `exit ${r.status}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;
      expect(r.status, detail).toBe(0);
      expect(JSON.parse(r.stdout).result, detail).toContain(DONE);
      const brave = h.mock.requests.filter((q) => q.url.startsWith('/res/v1/web/search'));
      expect(brave, detail).toHaveLength(1);
      expect(brave[0]!.headers['x-subscription-token']).toBe(BRAVE_KEY);
      // Claude Code read our web_search_tool_result: the page is in the WebSearch result it sent back.
      const posts = h.mock.requests.filter((q) => q.method === 'POST' && q.url.startsWith('/v1/chat/completions'));
      const main = posts.filter((q) => JSON.stringify(q.json.tools ?? []).includes('"WebSearch"')).at(-1)!;
      const result = JSON.stringify((main.json.messages as Array<{ role: string }>).filter((m) => m.role === 'tool'));
      expect(result, detail).toContain(PAGE.uri);
      expect(result).toContain(PAGE.title);
      const lines = h.proxy.logs.map((l) => JSON.parse(l) as { route?: string; webSearches?: number });
      expect(lines.filter((l) => l.route === 'messages' && l.webSearches === 1), detail).toHaveLength(1);
      expect(h.proxy.logs.join('\n')).not.toContain(BRAVE_KEY);
      expect(trap.seen, detail).toEqual([]);
    } finally {
      await trap.close();
      await rm(cwd, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe.each(RUNS)('Claude Code → Interlingua (%s) → Gemini upstream: WebSearch', (kind) => {
  const h = useClientsHarness((mockUrl) => clientsConfig(mockUrl, { 'claude-*': { upstream: 'gemini', model: 'gemini-2.5-flash' } }), kind);

  it('the search runs on Gemini and its links reach the main loop; claude exits 0', { timeout: 120_000 }, async () => {
    h.mock.reply(gemini);
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'claude-work-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'claude-home-'));
    const trap = await startTrap();
    try {
      const env = claudeEnv(h.proxy.url, home, trap.url);
      const args = ['-p', 'Search the web: who won Euro 2024?', '--model', MODEL, '--allowedTools', 'WebSearch', '--output-format', 'json'];
      const r = await run(CLAUDE_BIN, args, { cwd, env, timeoutMs: 90_000, stdin: 'ignore' });
      const detail = `exit ${r.status}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;
      expect(r.status, detail).toBe(0);
      expect(JSON.parse(r.stdout).result, detail).toContain(DONE);

      const posts = h.mock.requests.filter((q) => q.method === 'POST');
      const search = posts.find((q) => JSON.stringify(q.json.tools).includes('googleSearch'));
      expect(search, detail).toBeDefined();
      // Anthropic's server tool as Gemini's own; its forced tool_choice no function-calling config.
      expect(search!.json.tools).toEqual([{ googleSearch: {} }]);
      expect(search!.json.toolConfig).toBeUndefined();
      // Claude Code read our web_search_tool_result: the page is in the WebSearch result it sent back.
      const last = posts.at(-1)!.json.contents.at(-1);
      const result = JSON.stringify(last.parts[0].functionResponse);
      expect(last.parts[0].functionResponse.name).toBe('WebSearch');
      expect(result).toContain(PAGE.uri);
      expect(result).toContain(PAGE.title);
      expect(result).toContain('Spain won Euro 2024');
      // Claude Code sends Anthropic context editing (clear_thinking_20251015) with every turn: toward
      // Gemini the proxy applies it (src/flows/context-edits.ts), never drops it with a warning.
      const lines = h.proxy.logs.map((l) => JSON.parse(l) as { route?: string; upstream?: string; warnings?: string[] }).filter((l) => l.route === 'messages');
      expect(lines.length, detail).toBeGreaterThanOrEqual(3);
      expect(lines.every((l) => l.upstream === 'gemini')).toBe(true);
      const warnings = lines.flatMap((l) => l.warnings ?? []);
      expect(warnings.filter((w) => /context.management/.test(w) || /^dropped:tools\[\d+\](=|$)/.test(w))).toEqual([]);
      // The search's use limit has no Gemini field: reported, as each option the upstream cannot carry.
      expect(warnings).toContain('dropped:tools[0].maxUses');
      expect(trap.seen, detail).toEqual([]);
    } finally {
      await trap.close();
      await rm(cwd, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });
});
