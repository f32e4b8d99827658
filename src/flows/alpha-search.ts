/**
 * Codex's standalone web search, `POST /v1/alpha/search` (a provider that declares
 * `supports_standalone_web_search` gets Codex's searches here instead of a hosted tool), served
 * from the configured search backend. The request is Codex's `SearchRequest`
 * (codex-rs/codex-api/src/search.rs): `id`, `model`, `commands` — `search_query` (`q`, `domains`),
 * `open` and `find` by URL (`ref_id`, `pattern`), and others this backend cannot answer —
 * and `settings.filters` (`allowed_domains`, `blocked_domains`). The answer is its
 * `SearchResponse`: `{"encrypted_output": null, "output": "…"}`, the results as text. Each
 * search and page read is run as the search loop runs them (web-search-run.ts): the guarded
 * fetcher for pages, on the log line, a span, the inspector.
 */
import { ProxyError, type ToolCallPart, type WebTool } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import { createSearchBackend } from '../upstream/search/index.ts';
import type { FlowDeps } from './context.ts';
import { jsonReply, type Reply } from './reply.ts';
import { WebRunner } from './web-search-run.ts';

/** Most commands of one request run (the rest are said to be skipped). */
const MAX_COMMANDS = 10;

const strings = (v: unknown): string[] | undefined => {
  const out = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];
  return out.length ? out : undefined;
};
const objects = (v: unknown): Array<Record<string, unknown>> => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x)) : []);

function invalid(message: string, param: string): ProxyError {
  return new ProxyError('invalid-request', message, { param, code: 'invalid_value' });
}

export async function alphaSearchFlow(deps: FlowDeps, scope: RequestScope, body: unknown): Promise<Reply> {
  scope.log.caller = 'openai-responses';
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('The request body must be a JSON object.', 'body');
  const b = body as Record<string, unknown>;
  if (typeof b.model === 'string') scope.log.model = b.model;
  const commands = b.commands && typeof b.commands === 'object' && !Array.isArray(b.commands) ? (b.commands as Record<string, unknown>) : undefined;
  if (!commands) throw invalid('The request has no commands to run.', 'commands');
  const search = deps.config.search;
  if (!search) throw new ProxyError('not-found', 'Standalone web search needs a search backend, and none is configured (config "search").', { code: 'standalone_search_disabled' });

  const filters = (b.settings as { filters?: { allowed_domains?: unknown; blocked_domains?: unknown } } | undefined)?.filters;
  const allowed = strings(filters?.allowed_domains);
  const blocked = strings(filters?.blocked_domains);
  const backend = createSearchBackend(search, deps.fetch);
  const runner = (tool: WebTool) => new WebRunner({ scope, backend, guardedFetch: deps.guardedFetch, maxResults: search.maxResults }, new Map([[tool.kind, tool]]));
  const limits = { ...(allowed && { allowedDomains: allowed }), ...(blocked && { blockedDomains: blocked }) };
  let n = 0;
  const call = (kind: 'search' | 'fetch', args: Record<string, string>): ToolCallPart => ({ type: 'tool-call', id: `alpha_${++n}`, name: kind, arguments: JSON.stringify(args) });

  const sections: string[] = [];
  let ran = 0;
  const budget = () => ran++ < MAX_COMMANDS;
  for (const q of [...objects(commands.search_query), ...objects(commands.image_query)]) {
    if (typeof q.q !== 'string' || !budget()) continue;
    const domains = strings(q.domains);
    const o = await runner({ kind: 'search', ...limits, ...(domains && { allowedDomains: domains }) }).run(call('search', { query: q.q }));
    sections.push(textOf(o.result.content));
  }
  for (const op of objects(commands.open)) {
    if (typeof op.ref_id !== 'string' || !budget()) continue;
    const o = await runner({ kind: 'fetch', ...limits }).run(call('fetch', { url: op.ref_id }));
    sections.push(textOf(o.result.content));
  }
  for (const op of objects(commands.find)) {
    if (typeof op.ref_id !== 'string' || typeof op.pattern !== 'string' || !budget()) continue;
    const o = await runner({ kind: 'fetch', ...limits }).run(call('fetch', { url: op.ref_id }));
    const text = textOf(o.result.content);
    sections.push(o.result.isError ? text : findIn(text, op.ref_id, op.pattern));
  }
  const skipped = ['click', 'screenshot', 'finance', 'weather', 'sports', 'time'].filter((k) => objects(commands[k]).length > 0);
  if (skipped.length) sections.push(`Not supported by this search backend: ${skipped.join(', ')}.`);
  if (ran > MAX_COMMANDS) sections.push(`Only the first ${MAX_COMMANDS} commands were run.`);
  scope.searched(Math.min(ran, MAX_COMMANDS));
  return jsonReply(scope, { encrypted_output: null, output: sections.join('\n\n---\n\n') || 'No commands to run.' }, 200);
}

const textOf = (parts: ReadonlyArray<{ type: string; text?: string }>) => parts.map((p) => p.text ?? '').join('');

/** The lines of a page that hold `pattern` (case-insensitive), numbered. */
function findIn(page: string, url: string, pattern: string): string {
  const needle = pattern.toLowerCase();
  const hits = page
    .split('\n')
    .map((line, i) => ({ line, i }))
    .filter((l) => l.line.toLowerCase().includes(needle))
    .slice(0, 20)
    .map((l) => `L${l.i + 1}: ${l.line}`);
  return hits.length ? `Matches of "${pattern}" in ${url}:\n${hits.join('\n')}` : `No match of "${pattern}" in ${url}.`;
}
