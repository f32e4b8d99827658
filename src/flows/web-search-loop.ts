/**
 * The search loop's rounds (web-search.ts, web-search-stream.ts): which of the caller's hosted web
 * tools the upstream lacks, the functions offered in their place, the request of each round, and
 * what the caller is shown of a round.
 */
import { ownWebSearch, type ChatRequest, type Message, type NativeTool, type Part, type Tool, type ToolCallPart, type WebTool } from '../canonical/index.ts';
import type { ChatUpstream } from '../../translators/types.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { ResolvedTarget, RoutedTarget } from '../upstream/resolve.ts';
import { createSearchBackend } from '../upstream/search/index.ts';
import { chatUpstreamOf, type ChatCall, type FlowDeps } from './context.ts';
import { planChat, type PlannedAttempt } from './plan.ts';
import { upstreamTarget } from '../upstream/target.ts';
import { WEB_FUNCTIONS, WebRunner, type WebOutcome } from './web-search-run.ts';

/** Most upstream calls of one request's search loop; the last is asked to answer without searching. */
export const MAX_ROUNDS = 8;

/** The caller's hosted web tools the first target's upstream does not run itself. */
export function emulatedTools(deps: FlowDeps, req: ChatRequest, first: ResolvedTarget): NativeTool[] {
  // Every translated chat request asks: one without a web tool answers at once, no target built.
  if (!req.nativeTools?.some((t) => t.web)) return [];
  const upstream = chatUpstreamOf(deps, first);
  const hosted = upstream.hostedWebTools(upstreamTarget(first, undefined, deps.config));
  const seen = new Set<WebTool['kind']>();
  return (req.nativeTools ?? []).filter((t) => {
    if (!t.web || t.dialect === upstream.id || hosted.has(t.web.kind) || seen.has(t.web.kind)) return false;
    seen.add(t.web.kind);
    return true;
  });
}

/** The request each round sends, and who runs the model's web calls. */
export interface WebLoop {
  /** The request as the caller made it (its encoder's). */
  asked: ChatRequest;
  /** The first round's request: the web functions in place of the emulated hosted tools. */
  req: ChatRequest;
  runner: WebRunner;
}

/** The first round's request: the hosted tools the upstream lacks become functions named apart from the caller's own. */
export function webLoopOf(deps: FlowDeps, scope: RequestScope, req: ChatRequest, first: ResolvedTarget): WebLoop {
  const emulated = emulatedTools(deps, req, first);
  const taken = new Set((req.tools ?? []).map((t) => t.name));
  const names = new Map<string, WebTool>();
  const functions: Tool[] = [];
  const byKind = new Map<WebTool['kind'], string>();
  for (const t of emulated) {
    const f = WEB_FUNCTIONS[t.web!.kind];
    const name = taken.has(f.name) ? `interlingua_${f.name}` : f.name;
    names.set(name, t.web!);
    byKind.set(t.web!.kind, name);
    functions.push({ name, description: f.description, parameters: structuredClone(f.parameters) as Record<string, unknown> });
  }
  const forced = req.toolChoice?.type === 'web' ? byKind.get(req.toolChoice.kind) : undefined;
  const search = deps.config.search!;
  const runner = new WebRunner({ scope, backend: createSearchBackend(search, deps.fetch), guardedFetch: deps.guardedFetch, maxResults: search.maxResults }, names);
  return {
    asked: req,
    req: {
      ...req,
      messages: searchesAsCalls(req.messages, byKind, chatUpstreamOf(deps, first).id),
      nativeTools: (req.nativeTools ?? []).filter((t) => !emulated.includes(t)),
      tools: [...(req.tools ?? []), ...functions],
      ...(forced && { toolChoice: { type: 'tool' as const, name: forced } }),
    },
    runner,
  };
}

/**
 * Earlier searches in the history that this upstream cannot replay (a search another vendor ran,
 * or one the proxy ran), as the model would have made them here: a call to the web function and
 * its result (the pages found), so the model still knows what it read; the encoder would drop
 * them otherwise. A kind the request does not emulate stays as it is (dropped and reported).
 */
export function searchesAsCalls(messages: readonly Message[], byKind: ReadonlyMap<WebTool['kind'], string>, dialect: ChatUpstream['id']): Message[] {
  if (!messages.some((m) => m.role === 'assistant' && m.content.some((p) => p.type === 'web-search'))) return [...messages];
  return messages.flatMap((m): Message[] => {
    if (m.role !== 'assistant') return [m];
    const out: Message[] = [];
    let segment: Part[] = [];
    for (const p of m.content) {
      const name = p.type === 'web-search' && !ownWebSearch(p, dialect) ? byKind.get(p.kind) : undefined;
      if (p.type !== 'web-search' || !name) {
        segment.push(p);
        continue;
      }
      const args = p.kind === 'search' ? { query: (p.queries ?? []).join(' | ') } : { url: p.url ?? p.results[0]?.url ?? '' };
      out.push({ ...m, content: [...segment, { type: 'tool-call', id: p.id, name, arguments: JSON.stringify(args) }] });
      const pages = p.results.map((r, i) => `${i + 1}. ${r.title ?? r.url}\nURL: ${r.url}`).join('\n\n');
      const text = p.error ? `Error (${p.error})` : pages || 'No results.';
      out.push({ role: 'user', content: [{ type: 'tool-result', callId: p.id, name, content: [{ type: 'text', text }], ...(p.error && { isError: true }) }] });
      segment = [];
    }
    if (segment.length > 0 || out.length === 0) out.push({ ...m, content: segment });
    return out;
  });
}

/** The next round's request: the model's turn and the results of its web calls appended. */
export function nextRound(req: ChatRequest, said: Part[], outcomes: readonly WebOutcome[], round: number): ChatRequest {
  const messages: Message[] = [...req.messages, { role: 'assistant', content: said }, { role: 'user', content: outcomes.map((o) => o.result) }];
  // A forced search is forced once; the last round answers without searching.
  const choice = req.toolChoice;
  const forcedDone = choice?.type === 'tool' && outcomes.some((o) => o.result.name === choice.name);
  const toolChoice = round + 1 >= MAX_ROUNDS - 1 ? { type: 'none' as const } : forcedDone ? { type: 'auto' as const } : choice;
  return { ...req, messages, ...(toolChoice && { toolChoice }) };
}

/** What the caller sees of a round: its parts, the web calls replaced by their searches (in place). */
export function shownOfRound(content: readonly Part[], runner: WebRunner, outcomes: ReadonlyMap<string, WebOutcome>): Part[] {
  return content.flatMap((p): Part[] => {
    if (p.type !== 'tool-call' || !runner.owns(p)) return [p];
    const o = outcomes.get(p.id);
    return o ? [o.part] : [];
  });
}

/** Run each of the model's web calls, in order (a use limit counts them in the order they came). */
export async function runCalls(runner: WebRunner, calls: readonly ToolCallPart[]): Promise<Map<string, WebOutcome>> {
  const out = new Map<string, WebOutcome>();
  for (const c of calls) out.set(c.id, await runner.run(c));
  return out;
}

/** Plan one round (later rounds report no loss again: the first one did). */
export function planRound(deps: FlowDeps, scope: RequestScope, call: ChatCall, req: ChatRequest, targets: readonly RoutedTarget[], round: number): PlannedAttempt[] {
  const attempts = planChat(deps, scope, call, req, targets, { allowPassthrough: false });
  return round === 0 ? attempts : attempts.map((a) => ({ ...a, warnings: [] }));
}

