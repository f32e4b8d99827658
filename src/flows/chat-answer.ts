/**
 * The chat flow's last step (src/flows/chat.ts): the planned attempts called (once more without
 * carried signatures should the upstream refuse one) and the caller answered, the upstream's bytes
 * forwarded or its answer translated, streamed or not, kept when the caller's dialect keeps state.
 */
import { ProxyError, isSignatureRefusal, type ChatRequest } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { UpstreamSuccess } from '../upstream/call.ts';
import { callPlanned, chatUpstreamOf, type ChatCall, type FlowDeps } from './context.ts';
import type { ChatPlan, PlannedAttempt } from './plan.ts';
import { jsonReply, proxyHeaders, streamReply, type Reply } from './reply.ts';
import { mintingEncoder, mintsIds, terminalHold, withoutUpstreamId } from './state.ts';
import { assertEventStream, decodeText, keptUpstreamHeaders, readBodyText, readResponse } from './upstream-answer.ts';

/** Call the plan's attempts and answer the caller: the upstream's bytes forwarded, or translated. */
export async function answer(deps: FlowDeps, scope: RequestScope, call: ChatCall, plan: ChatPlan, keep?: (answer: unknown) => Promise<void>): Promise<Reply> {
  const { caller } = call;
  const { success, req } = await called(deps, scope, call, plan);
  const upstream = chatUpstreamOf(deps, success.attempt.target);
  const { res, attempt } = success;
  const { passthrough } = attempt;
  // Toward another dialect's upstream a stateful caller's ids are ours, never the upstream's.
  const mint = !passthrough && mintsIds(caller, upstream);
  if (req.stream) {
    await assertEventStream(success, scope);
    // Forwarded frame by frame; or translated, its last frames held until the answer they carry is kept.
    const how = passthrough
      ? { passthrough, headers: keptUpstreamHeaders(res) }
      : { passthrough, tap: mint ? mintingEncoder : undefined, hold: keep && caller.state ? terminalHold(caller.state, keep) : undefined };
    return streamReply(deps, scope, call, req, [success], how);
  }
  if (passthrough) {
    // Forward the bytes untouched, but only once they are known to be a response.
    const text = await readBodyText(success, scope);
    decodeText(text, success, upstream, req, scope, false);
    return { status: res.status, headers: proxyHeaders(scope, keptUpstreamHeaders(res)), body: text };
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

/** The plan called, with the request as it was sent: once more without the signatures it replays, should the upstream refuse one. */
async function called(deps: FlowDeps, scope: RequestScope, call: ChatCall, plan: ChatPlan): Promise<{ success: UpstreamSuccess<PlannedAttempt>; req: ChatRequest }> {
  let { req, attempts } = plan;
  for (let retried = false; ; retried = true) {
    try {
      return { req, success: await callPlanned(deps, scope, attempts, (t) => chatUpstreamOf(deps, t).decodeError, call.session) };
    } catch (e) {
      // A replayed reasoning signature the upstream no longer accepts (the conversation moved to
      // another model): once more on the same upstream without it, said in the loss report.
      const again = !retried && e instanceof ProxyError && isSignatureRefusal(e) && !scope.flags.strict ? plan.unsigned() : undefined;
      if (!again) throw e;
      ({ req, attempts } = again);
    }
  }
}
