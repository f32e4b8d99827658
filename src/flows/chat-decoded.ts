/**
 * The chat flow's decoded path (src/flows/chat.ts): a request whose bytes cannot go as they are is
 * made ready for its plan here: its references to earlier answers resolved, decoded, its route's
 * forced reasoning and its context edits applied, remote media inlined; or it is handed to the
 * flow that serves it (compaction, image output, fan-out, hosted web tools).
 */
import { asksLongCacheTtl, type ChatRequest, type ReasoningConfig } from '../canonical/index.ts';
import type { ForcedReasoning } from '../config/load.ts';
import type { RequestScope } from '../observe/scope.ts';
import { inlineRemoteMedia } from '../upstream/guarded-fetch.ts';
import type { Routes, RoutedTarget } from '../upstream/resolve.ts';
import { chatImageFlow, isOpenAIImageTarget } from './chat-to-images.ts';
import { compactBeforeTurn, compactionFlow, upstreamCompacts } from './compaction.ts';
import { applyContextEdits } from './context-edits.ts';
import { chatUpstreamOf, type ChatCall, type FlowDeps } from './context.ts';
import { fanOutFlow } from './fan-out.ts';
import { asksForImages } from './image-chat.ts';
import type { Reply } from './reply.ts';
import { resolveState } from './state.ts';
import { runsWebTools, webSearchFlow } from './web-search.ts';

/** A request made ready for its plan: the call as planned, the request, its targets, and how its answer is kept. */
export interface Prepared {
  call: ChatCall;
  req: ChatRequest;
  targets: readonly RoutedTarget[];
  keep?: (answer: unknown) => Promise<void>;
  /** The route forces reasoning: the caller's bytes do not go as they are. */
  forced?: boolean;
}

/**
 * A decoded request: its references resolved, decoded, its route's reasoning and context edits
 * applied, its media inlined; or the reply of the flow it is handed to (compaction, images,
 * fan-out, web search).
 */
export async function decodedRequest(deps: FlowDeps, scope: RequestScope, asked: ChatCall, routes: Routes): Promise<Prepared | Reply> {
  // References to earlier answers (Responses) resolved from the store, toward a stateless upstream
  // (a malformed one refused first: the store is read only for well-formed ones).
  asked.caller.checkReferences?.(asked.input.body);
  const { call, keep } = await resolveState(deps, scope, asked, routes);

  let req = decodeCall(scope, call);
  asked.release?.();
  scope.trace?.chat(req);

  const resolved = routes(req.model);
  if (resolved.route?.strict) scope.flags.strict = true;
  const forced = resolved.route?.reasoning;
  if (forced) req = withRouteReasoning(scope, req, forced);
  const first = resolved.targets[0]!;
  // Anthropic prices an hour's cache writes higher: said for the cost when its usage does not split them.
  if (first.upstream.dialect === 'anthropic') scope.longCacheTtl = asksLongCacheTtl(req);
  // Context editing asked of an upstream of another dialect: applied to the history here, reported.
  if (req.contextManagement && chatUpstreamOf(deps, first).id !== req.contextManagement.dialect) {
    const edited = applyContextEdits(req, call.caller.compaction?.beforeTurn === true && !req.compact);
    scope.warn(edited.warnings);
    req = edited.value;
    // Server-side compaction whose threshold the conversation reached: summarised first.
    if (edited.compact) req = await compactBeforeTurn(deps, scope, call, req, resolved.targets, edited.compact);
  }
  // A compaction asked of an upstream that does not make it: the proxy does.
  if (req.compact && !(call === asked && upstreamCompacts(deps, call, first))) return compactionFlow(deps, scope, call, req, resolved.targets, { answer: 'turn', keep });
  // Image output asked of an OpenAI image model: an images call, not a chat call.
  if (asksForImages(req) && isOpenAIImageTarget(first)) return chatImageFlow(deps, scope, call, req, first);
  // The upstream cannot return several choices in one call.
  const n = req.candidateCount ?? 1;
  if (n > 1 && !chatUpstreamOf(deps, first).multipleChoices) return fanOutFlow(deps, scope, call, req, resolved, n);

  // Media the upstream cannot fetch itself is fetched (guarded) and inlined first; a dry-run
  // shows the URLs instead of fetching them.
  if ((chatUpstreamOf(deps, first).inlineMediaOnly || first.upstream.inlineMedia) && !scope.flags.dryRun) {
    req = await inlineRemoteMedia(req, deps.guardedFetch, scope);
  }
  // A hosted web search or fetch the upstream has not: run by the proxy on the configured backend.
  if (runsWebTools(deps, scope, req, first)) return webSearchFlow(deps, scope, call, req, resolved.targets, { keep });
  return { call, req, targets: resolved.targets, keep, forced: forced !== undefined };
}

/**
 * The route's reasoning in place of what the caller asked (`effort: 'none'` turns it off); whether
 * thoughts are shown stays the caller's choice. A request that asked for something else is told.
 */
function withRouteReasoning(scope: RequestScope, req: ChatRequest, forced: ForcedReasoning): ChatRequest {
  const { effort, budgetTokens } = forced;
  const reasoning: ReasoningConfig =
    effort === 'none'
      ? { enabled: false }
      : { ...(effort && { effort }), ...(budgetTokens !== undefined && { budgetTokens }), ...(req.reasoning?.includeThoughts !== undefined && { includeThoughts: req.reasoning.includeThoughts }) };
  const asked = req.reasoning;
  if (asked && (asked.effort !== reasoning.effort || asked.budgetTokens !== reasoning.budgetTokens || (asked.enabled === false) !== (reasoning.enabled === false))) {
    scope.warn([{ code: 'approximated', path: 'reasoning', detail: 'route' }]);
  }
  return { ...req, reasoning };
}

function decodeCall(scope: RequestScope, call: ChatCall): ChatRequest {
  const decoded = call.caller.decodeRequest(call.input, scope);
  scope.warn(decoded.warnings);
  scope.log.model = decoded.value.model;
  return decoded.value;
}
