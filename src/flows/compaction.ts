/**
 * Compaction toward an upstream that does not compact (docs/responses.md "Compaction"): the
 * caller asked for the conversation to be compacted (Responses `compaction_trigger`,
 * `POST /responses/compact`), and the routed upstream speaks another dialect, so the proxy runs
 * one summarising turn on it — the conversation as it is, the upstream's own reasoning replayed
 * to it as on any turn, then an instruction to summarise what a successor needs — and answers
 * the caller's compaction with that summary in our carrier (src/canonical/carrier.ts). A later
 * request that brings the compaction back sends the summary in its place (`Message.summary`).
 *
 * An upstream of the caller's own dialect is sent the request as it is (the chat flow forwards it
 * before this flow is reached); a caller dialect without compaction never asks for one.
 */
import { ProxyError, mayCarrySignatures, textOf, type ChatRequest, type Compaction, type Message, type Part, type Tool } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import { contentTypeOf, createTextSerializer } from '../sse/serialize.ts';
import { requestRoutes, type ResolvedTarget, type RoutedTarget } from '../upstream/resolve.ts';
import { callPlanned, chatUpstreamOf, type ChatCall, type FlowDeps } from './context.ts';
import { upstreamJson, keptUpstreamHeaders, readBodyText, readResponse } from './upstream-answer.ts';
import { dryRunReply, planChat } from './plan.ts';
import { jsonReply, proxyHeaders, type Reply } from './reply.ts';
import { resolveState } from './state.ts';

/** The instruction of the summarising turn, after the conversation. */
export const SUMMARY_PROMPT = [
  'Stop here: do not call any tool and do not continue the task. Your context is about to be compacted.',
  'Write a hand-over summary of this whole conversation for another instance of you who will continue it without seeing the conversation itself.',
  'Keep, under these headings:',
  '## Task — what the user asked for, in their own words where they matter, and every constraint or preference they stated;',
  '## Decisions — what was decided and why, and what was tried and ruled out;',
  '## Files and state — every file, path, command, identifier and value that was read, created or changed, and its current state;',
  '## Progress — what is done, and what the last tool results showed;',
  '## Open threads — what remains to do, next steps in order, unanswered questions and known problems.',
  'Be specific and complete; leave out pleasantries. Answer with the summary only.',
].join('\n');

/** How the summary opens when it is sent in the conversation's place. */
export const SUMMARY_HEAD =
  'The conversation so far was compacted. This is the hand-over summary written for you: continue the task from it.';

/** Function definitions for the tools the history calls, when the request names none (Anthropic refuses tool_use blocks without tools). */
function toolsOfHistory(messages: readonly Message[]): Tool[] {
  const names = new Set<string>();
  for (const m of messages) for (const p of m.content) if (p.type === 'tool-call') names.add(p.name);
  return [...names].map((name) => ({ name, parameters: { type: 'object' } }));
}

/**
 * The summarising turn (pure): the conversation as it is, the instruction last in a user turn,
 * the tools offered but none to be called, one plain-text answer not streamed.
 */
export function summarisingRequest(req: ChatRequest, instructions?: string): ChatRequest {
  const prompt: Part = { type: 'text', text: instructions ? `${SUMMARY_PROMPT}\n\nAlso: ${instructions}` : SUMMARY_PROMPT };
  const last = req.messages.at(-1);
  const messages: Message[] =
    last?.role === 'user' && !last.summary ? [...req.messages.slice(0, -1), { ...last, content: [...last.content, prompt] }] : [...req.messages, { role: 'user', content: [prompt] }];
  const tools = req.tools?.length ? req.tools : toolsOfHistory(req.messages);
  const {
    compact: _compact,
    toolChoice: _toolChoice,
    nativeTools: _nativeTools,
    responseFormat: _format,
    candidateCount: _n,
    logprobs: _logprobs,
    topLogprobs: _top,
    streamUsage: _usage,
    modalities: _modalities,
    tools: _tools,
    ...rest
  } = req;
  return { ...rest, messages, stream: false, ...(tools.length > 0 ? { tools, toolChoice: { type: 'none' as const } } : {}) };
}

/** One summarising turn of `req` on `targets`: its compaction (a dry run: the plan, as the reply). */
async function summarise(deps: FlowDeps, scope: RequestScope, call: ChatCall, req: ChatRequest, targets: readonly RoutedTarget[], instructions?: string): Promise<Compaction | Reply> {
  const ask = summarisingRequest(req, instructions);
  const attempts = planChat(deps, scope, call, ask, targets, { allowPassthrough: false });
  if (scope.flags.dryRun) return dryRunReply(scope, attempts);
  const success = await callPlanned(deps, scope, attempts, (t) => chatUpstreamOf(deps, t).decodeError, call.session);
  const upstream = chatUpstreamOf(deps, success.attempt.target);
  const res = await readResponse(success, upstream, ask, scope);
  const summary = textOf(res.choices[0]?.content ?? []).trim();
  if (!summary) {
    throw new ProxyError('upstream', `Upstream ${success.attempt.target.upstream.name} wrote no summary: the conversation was not compacted.`, { code: 'compaction_failed' });
  }
  return {
    summary: `${SUMMARY_HEAD}\n\n${summary}`,
    origin: upstream.vendor,
    model: req.model,
    created: Math.floor(scope.now() / 1000),
    ...(res.usage && { usage: res.usage }),
  };
}

/**
 * The request answered on its compacted conversation: the summary in place of the conversation,
 * the last user turn kept as it is when it asks something new (not tool results, which need the
 * calls the summary took in), the compaction to be shown first (`compacted`).
 */
export function compactedRequest(req: ChatRequest, c: Compaction): ChatRequest {
  const last = req.messages.at(-1);
  const tail = last && last.role === 'user' && !last.summary && !last.sealed && !last.content.some((p) => p.type === 'tool-result') ? [last] : [];
  const { compact: _compact, ...rest } = req;
  return { ...rest, messages: [{ role: 'user', content: [{ type: 'text', text: c.summary }], summary: true }, ...tail], compacted: c };
}

/**
 * Server-side compaction toward an upstream without it (Responses `context_management`, Anthropic
 * `compact_20260112` with its `instructions` added to the prompt): the
 * conversation reached the caller's threshold, so it is summarised first and the turn answered on
 * the summary; a dry run plans the turn as it came.
 */
export async function compactBeforeTurn(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  req: ChatRequest,
  targets: readonly RoutedTarget[],
  o: { instructions?: string },
): Promise<ChatRequest> {
  if (scope.flags.dryRun) return req;
  const compaction = await summarise(deps, scope, call, req, targets, o.instructions);
  // The summarising turn is metered (limits, cost, the log line) with the turn after it.
  scope.settleUsage();
  return 'summary' in compaction ? compactedRequest(req, compaction) : req;
}

/**
 * Answer `req`'s compaction from one summarising turn on `targets` (in fallback order): in place
 * of a turn (`turn`, JSON or the whole stream) or as the dialect's compaction route answers
 * (`compacted`).
 */
export async function compactionFlow(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  req: ChatRequest,
  targets: readonly RoutedTarget[],
  o: { answer: 'turn' | 'compacted'; keep?: (answer: unknown) => Promise<void> },
): Promise<Reply> {
  const encode = call.caller.compaction;
  if (!encode?.turn || !encode.turnFrames || (o.answer === 'compacted' && !encode.compacted)) {
    throw new ProxyError('unsupported', `This API has no compaction to answer.`, { code: 'unsupported_value' });
  }
  const compaction = await summarise(deps, scope, call, req, targets);
  if (!('summary' in compaction)) return compaction;
  if (o.answer === 'compacted') return jsonReply(scope, encode.compacted!(compaction, req, scope));
  // Kept like any answer the caller asked kept (a later previous_response_id continues from it).
  if (!req.stream) {
    const answer = encode.turn(compaction, req, scope);
    await o.keep?.(answer);
    return jsonReply(scope, answer);
  }
  const frames = encode.turnFrames(compaction, req, scope);
  const state = call.caller.state;
  if (o.keep && state) await o.keep(frames.map((f) => state.finalOf(f)).find((a) => a !== undefined));
  const text = createTextSerializer('sse').push(frames) ?? '';
  return { status: 200, headers: proxyHeaders(scope, { 'content-type': contentTypeOf('sse'), 'cache-control': 'no-cache' }), body: text };
}

/**
 * Whether the upstream of `target` compacts `call` itself: it speaks the caller's dialect and the
 * body holds nothing the proxy made (which that upstream could not read: it is then translated,
 * and the proxy compacts).
 */
export function upstreamCompacts(deps: FlowDeps, call: ChatCall, target: ResolvedTarget): boolean {
  return chatUpstreamOf(deps, target).id === call.caller.id && !mayCarrySignatures(call.rawBody);
}

/**
 * The dialect's compaction route (Responses `POST /responses/compact`, body as `create`'s, also by
 * `previous_response_id`): to an upstream of the caller's dialect, the request as it is and its
 * answer as it came; to any other, the summarising turn (`compactionFlow`).
 */
export async function compactRouteFlow(deps: FlowDeps, scope: RequestScope, call: ChatCall): Promise<Reply> {
  const { caller } = call;
  scope.log.caller = caller.id;
  caller.checkReferences?.(call.input.body);
  const routes = requestRoutes(deps.config, call.callerKey);
  const { call: resolved } = await resolveState(deps, scope, call, routes);
  const decoded = caller.decodeRequest(resolved.input, scope);
  scope.warn(decoded.warnings);
  const req = decoded.value;
  scope.log.model = req.model;
  const route = routes(req.model);
  if (route.route?.strict) scope.flags.strict = true;
  if (upstreamCompacts(deps, call, route.targets[0]!)) {
    const same = route.targets.filter((t) => chatUpstreamOf(deps, t).id === caller.id);
    return forwardCompaction(deps, scope, call, req, same);
  }
  return compactionFlow(deps, scope, resolved, req, route.targets, { answer: 'compacted' });
}

/** The caller's compaction request to an upstream of its own dialect; its answer forwarded once it is JSON. */
async function forwardCompaction(deps: FlowDeps, scope: RequestScope, call: ChatCall, req: ChatRequest, targets: readonly RoutedTarget[]): Promise<Reply> {
  const attempts = planChat(deps, scope, call, req, targets, { allowPassthrough: true });
  if (scope.flags.dryRun) return dryRunReply(scope, attempts);
  const success = await callPlanned(deps, scope, attempts, (t) => chatUpstreamOf(deps, t).decodeError, call.session);
  const text = await readBodyText(success, scope);
  const name = success.attempt.target.upstream.name;
  const body = upstreamJson(text, name);
  if (!body || typeof body !== 'object') throw new ProxyError('upstream', `Upstream ${name} returned a compaction of an unexpected shape.`);
  return { status: success.res.status, headers: proxyHeaders(scope, keptUpstreamHeaders(success.res)), body: text };
}
