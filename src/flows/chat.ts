/**
 * The one generic chat flow: decode → route → plan (encode per target) → call → decode → encode,
 * for every pair of dialects, with same-dialect passthrough as the fast, lossless special case.
 * `n > 1` against a one-choice upstream goes to the fan-out flow; image output asked of an OpenAI
 * image model to the chat-to-images flow.
 */
import { ProxyError, asksLongCacheTtl, isSignatureRefusal, withoutSignatures, type ChatRequest, type ReasoningConfig } from '../canonical/index.ts';
import type { ForcedReasoning } from '../config/load.ts';
import { asksForImages } from './image-chat.ts';
import type { RequestScope } from '../observe/scope.ts';
import { inlineRemoteMedia } from '../upstream/guarded-fetch.ts';
import { requestRoutes, type ResolvedTarget } from '../upstream/resolve.ts';
import { chatImageFlow, isOpenAIImageTarget } from './chat-to-images.ts';
import { compactBeforeTurn, compactionFlow, upstreamCompacts } from './compaction.ts';
import { applyContextEdits } from './context-edits.ts';
import { callPlanned, chatUpstreamOf, streamReply, type ChatCall, type FlowDeps } from './context.ts';
import { assertEventStream, decodeText, keptUpstreamHeaders, readBodyText, readResponse } from './upstream-answer.ts';
import { fanOutFlow } from './fan-out.ts';
import { forwardPlan } from './forward/index.ts';
import { dryRunReply, planChat, type PlannedAttempt } from './plan.ts';
import { jsonReply, proxyHeaders, type Reply } from './reply.ts';
import { sessionHash, sessionOfBody } from './session.ts';
import { mintingEncoder, mintsIds, resolveState, terminalHold, withoutUpstreamId } from './state.ts';
import { runsWebTools, webSearchFlow } from './web-search.ts';

export async function chatFlow(deps: FlowDeps, scope: RequestScope, asked: ChatCall): Promise<Reply> {
  const { caller } = asked;
  scope.log.caller = caller.id;
  // The request's routes: each model it names resolved once, for every step below.
  const routes = requestRoutes(deps.config);
  // Every target speaks the caller's dialect: the bytes go as they are, never decoded.
  const forward = await forwardPlan(deps, scope, asked, routes);
  if (forward) {
    scope.log.model = forward.model;
    // The stream steps are given the request as far as it is known: its model and stream flag.
    const known: ChatRequest = { model: forward.model, stream: forward.stream, system: [], messages: [] };
    const decode = () => decodeCall(scope, asked);
    return callAndReply(deps, scope, asked, known, forward.attempts, { decoded: decode, defaultMaxTokens: forward.defaultMaxTokens });
  }

  asked.session = await sessionHash(deps, sessionOfBody(asked.input.headers, asked.input.body));
  // References to earlier answers (Responses) resolved from the store, toward a stateless upstream
  // (a malformed one refused first: the store is read only for well-formed ones).
  caller.checkReferences?.(asked.input.body);
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
    if (edited.compact) req = await compactBeforeTurn(deps, scope, call, req, resolved.targets, { defaultMaxTokens: resolved.route?.defaultMaxTokens, ...edited.compact });
  }
  // A compaction asked of an upstream that does not make it: the proxy does.
  if (req.compact && !(call === asked && upstreamCompacts(deps, call, first))) return compactionFlow(deps, scope, call, req, resolved.targets, { answer: 'turn', defaultMaxTokens: resolved.route?.defaultMaxTokens, keep });
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

  const defaultMaxTokens = resolved.route?.defaultMaxTokens;
  // A hosted web search or fetch the upstream has not: run by the proxy on the configured backend.
  if (runsWebTools(deps, scope, req, first)) return webSearchFlow(deps, scope, call, req, resolved.targets, { defaultMaxTokens, keep });
  // History rebuilt from the store is encoded anew for every target, a fallback of the caller's own
  // dialect included: it never sees the ids the proxy minted as if it had issued them.
  // A route's forced reasoning is in the decoded request only: the caller's bytes do not go as they are.
  const attempts = planChat(deps, scope, call, req, resolved.targets, { defaultMaxTokens, allowPassthrough: call === asked && !forced });
  if (scope.flags.dryRun) return dryRunReply(scope, attempts);
  // Translated for every target: the caller's bytes are not needed again (a 2 MB body in flight
  // holds one copy less; docs/performance.md, At agent scale).
  if (!attempts.some((a) => a.passthrough)) asked.release?.(true);
  const decoded = req;
  return callAndReply(deps, scope, call, req, attempts, { decoded: () => decoded, keep, defaultMaxTokens });
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

/** Call the planned attempts and answer the caller: the upstream's bytes forwarded, or translated. */
async function callAndReply(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  planned: ChatRequest,
  attempts: PlannedAttempt[],
  o: {
    /** The decoded request (a forwarded one is decoded only to retry without its signatures). */
    decoded: () => ChatRequest;
    keep?: (answer: unknown) => Promise<void>;
    defaultMaxTokens?: number;
  },
): Promise<Reply> {
  const { caller } = call;
  const { keep } = o;
  const decodeError = (t: ResolvedTarget) => chatUpstreamOf(deps, t).decodeError;
  let req = planned;
  let success;
  try {
    success = await callPlanned(deps, scope, attempts, decodeError, call.session);
  } catch (e) {
    // A replayed reasoning signature the upstream no longer accepts (the conversation moved to
    // another model): once more on the same upstream without it, said in the loss report.
    if (!(e instanceof ProxyError) || !isSignatureRefusal(e) || scope.flags.strict) throw e;
    const stripped = withoutSignatures(o.decoded());
    if (stripped.warnings.length === 0) throw e;
    scope.warn(stripped.warnings);
    req = stripped.value;
    const again = planChat(deps, scope, call, req, [attempts[0]!.target], { defaultMaxTokens: o.defaultMaxTokens, allowPassthrough: false });
    success = await callPlanned(deps, scope, again, decodeError, call.session);
  }
  const upstream = chatUpstreamOf(deps, success.attempt.target);
  const { res } = success;

  if (success.attempt.passthrough) {
    const headers = keptUpstreamHeaders(res);
    if (req.stream) {
      await assertEventStream(success, scope);
      return streamReply(deps, scope, call, req, [success], { passthrough: true, headers });
    }
    // Forward the bytes untouched, but only once they are known to be a response.
    const text = await readBodyText(success, scope);
    decodeText(text, success, upstream, req, scope, false);
    return { status: res.status, headers: proxyHeaders(scope, headers), body: text };
  }

  // Toward another dialect's upstream a stateful caller's ids are ours, never the upstream's.
  const mint = mintsIds(caller, upstream);
  if (req.stream) {
    await assertEventStream(success, scope);
    const hold = keep && caller.state ? terminalHold(caller.state, keep) : undefined;
    return streamReply(deps, scope, call, req, [success], { passthrough: false, tap: mint ? mintingEncoder : undefined, hold });
  }
  const decoded = await readResponse(success, upstream, req, scope);
  const response = mint ? withoutUpstreamId(decoded) : decoded;
  // Kept, the answer may hold more than the caller is shown (`encodeKept`).
  if (keep && caller.encodeKept) {
    const { answer, kept } = caller.encodeKept(response, req, scope);
    await keep(kept);
    return jsonReply(scope, answer, 200);
  }
  const answer = caller.encodeResponse(response, req, scope);
  await keep?.(answer);
  return jsonReply(scope, answer, 200);
}
