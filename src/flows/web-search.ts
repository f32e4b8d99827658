/**
 * Hosted web search and fetch toward an upstream that has none (docs/hosted-tools.md "Search run
 * by Interlingua"): the caller offered its vendor's hosted tool (`NativeTool.web`), the routed
 * upstream does not run that kind itself (`ChatUpstream.hostedWebTools`), and the config names a
 * search backend. The model is offered functions in its place (`web_search {query}`, `web_fetch
 * {url}`); each call the model makes is run here (web-search-run.ts) and its result fed back, round
 * after round, until the model answers (at most `MAX_ROUNDS` calls). The caller gets one answer
 * in its own shape: a `web-search` part per search before the text that used it, citations where
 * the text names a result's URL, the usage of every round summed. A call to one of the caller's
 * own tools ends the loop and goes to the caller as usual. Streamed, each round is a streamed
 * call whose text goes to the caller as it comes (web-search-stream.ts).
 *
 * Without a backend the encoder drops the tool and says so (strict mode: a 400 saying why).
 */
import { ProxyError, sumUsage, type ChatRequest, type ChatResponse, type Part, type ToolCallPart } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { ResolvedTarget, RoutedTarget } from '../upstream/resolve.ts';
import { callPlanned, chatUpstreamOf, type ChatCall, type FlowDeps } from './context.ts';
import { readResponse } from './upstream-answer.ts';
import { dryRunReply, type PlannedAttempt } from './plan.ts';
import { jsonReply, type Reply } from './reply.ts';
import { mintsIds, withoutUpstreamId } from './state.ts';
import { citeResults } from './web-search-cite.ts';
import { MAX_ROUNDS, emulatedTools, nextRound, planRound, runCalls, shownOfRound, webLoopOf, type WebLoop } from './web-search-loop.ts';
import { webStreamReply } from './web-search-stream.ts';

/**
 * Whether the proxy runs the request's web tools itself (then `webSearchFlow` answers it).
 * Without a backend: no, the encoder reports the tool dropped; in strict mode a 400 says why.
 */
export function runsWebTools(deps: FlowDeps, scope: RequestScope, req: ChatRequest, first: ResolvedTarget): boolean {
  if ((req.candidateCount ?? 1) > 1) return false;
  const emulated = emulatedTools(deps, req, first);
  if (emulated.length === 0) return false;
  if (deps.config.search) return true;
  if (scope.flags.strict) {
    const what = emulated.map((t) => t.path ?? t.web!.kind).join(', ');
    throw new ProxyError(
      'invalid-request',
      `Upstream ${first.upstream.name} has no hosted web ${emulated.map((t) => t.web!.kind).join(' or ')} for ${what}, and no search backend is configured (config "search"): strict mode refuses to drop it.`,
      { code: 'strict_mode_violation', param: 'tools' },
    );
  }
  return false;
}

/** The chat flow's answer when the proxy runs the web tools (`runsWebTools`). */
export async function webSearchFlow(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  asked: ChatRequest,
  targets: readonly RoutedTarget[],
  o: { keep?: (answer: unknown) => Promise<void> },
): Promise<Reply> {
  const loop = webLoopOf(deps, scope, asked, targets[0]!);
  const first = planRound(deps, scope, call, loop.req, targets, 0);
  // A dry run shows the first round as planned: the functions in place of the hosted tools.
  if (scope.flags.dryRun) return dryRunReply(scope, first);
  if (asked.stream) return webStreamReply(deps, scope, call, loop, targets, first, o);
  const response = await jsonLoop(deps, scope, call, loop, targets, first);
  const { caller } = call;
  const answered = mintsIds(caller, chatUpstreamOf(deps, targets[0]!)) ? withoutUpstreamId(response) : response;
  if (o.keep && caller.encodeKept) {
    const { answer, kept } = caller.encodeKept(answered, asked, scope);
    await o.keep(kept);
    return jsonReply(scope, answer, 200);
  }
  const answer = caller.encodeResponse(answered, asked, scope);
  await o.keep?.(answer);
  return jsonReply(scope, answer, 200);
}

/** The rounds, not streamed: one answer holding every round's text and searches. */
async function jsonLoop(deps: FlowDeps, scope: RequestScope, call: ChatCall, loop: WebLoop, targets: readonly RoutedTarget[], first: PlannedAttempt[]): Promise<ChatResponse> {
  let req = loop.req;
  let attempts = first;
  const shown: Part[] = [];
  const usages: ChatResponse['usage'][] = [];
  for (let round = 0; ; round++) {
    const success = await callPlanned(deps, scope, attempts, (t) => chatUpstreamOf(deps, t).decodeError, call.session);
    const res = await readResponse(success, chatUpstreamOf(deps, success.attempt.target), req, scope);
    usages.push(res.usage);
    const choice = res.choices[0];
    const calls = (choice?.content ?? []).filter((p): p is ToolCallPart => p.type === 'tool-call');
    const ours = calls.filter((c) => loop.runner.owns(c));
    // The last round (asked to answer without tools): a web call it still makes is not run.
    if (!choice || ours.length === 0 || round >= MAX_ROUNDS - 1) {
      if (ours.length > 0) scope.note('web-search:max-rounds');
      shown.push(...(choice?.content ?? []).filter((p) => !(p.type === 'tool-call' && loop.runner.owns(p))));
      return finalResponse(res, shown, usages, calls.length > ours.length);
    }
    const outcomes = await runCalls(loop.runner, ours);
    shown.push(...shownOfRound(choice.content, loop.runner, outcomes));
    scope.searched(outcomes.size);
    // The caller's own tool called too: its call goes to the caller, with the searches of this turn.
    if (calls.length > ours.length) return finalResponse(res, shown, usages, true);
    // Each round is metered with the next (limits, cost, the log line).
    scope.settleUsage();
    req = nextRound(req, choice.content, [...outcomes.values()], round);
    attempts = planRound(deps, scope, call, req, targets, round + 1);
  }
}

/** The last round's answer with every round's parts, citations added, usage summed. */
function finalResponse(last: ChatResponse, shown: Part[], usages: ChatResponse['usage'][], toolCalls: boolean): ChatResponse {
  const content = citeResults(shown);
  const usage = sumUsage(usages);
  const choice = last.choices[0]!;
  // It stopped for the caller's tool calls, or (its web calls not run) it simply stopped.
  const reason = toolCalls ? 'tool-calls' : choice.finishReason.unified === 'tool-calls' ? 'stop' : undefined;
  return {
    ...last,
    choices: [{ ...choice, content, ...(reason && { finishReason: { unified: reason, raw: choice.finishReason.raw } }) }],
    ...(usage && { usage }),
  };
}
