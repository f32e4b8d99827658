/**
 * The one generic chat flow, for every pair of dialects: route → forward or decode → session →
 * plan (encode per target) → call → answer, each step in its own file, the request handed from
 * one to the next. Same-dialect requests go as the caller's bytes, unparsed (forward/); any other
 * is decoded and made ready (chat-decoded.ts, which hands compaction, image output, `n > 1` and
 * hosted web tools to their flows); planning is plan.ts; calling and answering, chat-answer.ts.
 */
import type { ChatRequest } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import { requestRoutes } from '../upstream/resolve.ts';
import { answer } from './chat-answer.ts';
import { decodedRequest, type Prepared } from './chat-decoded.ts';
import type { ChatCall, FlowDeps } from './context.ts';
import { forwardable } from './forward/index.ts';
import { chatPlan, dryRunReply } from './plan.ts';
import type { Reply } from './reply.ts';
import { sessionOf } from './session.ts';

export async function chatFlow(deps: FlowDeps, scope: RequestScope, asked: ChatCall): Promise<Reply> {
  scope.log.caller = asked.caller.id;
  // The request's routes: each model it names resolved once, its targets with what their encoders
  // are told of them, for every step below.
  const routes = requestRoutes(deps.config, asked.callerKey);
  // Every target speaks the caller's dialect: the bytes go as they are, never decoded.
  const forwarded = forwardable(deps, scope, asked, routes);
  // The request's session: from its headers and its body's top-level fields, as scanned or as parsed.
  asked.session = await sessionOf(deps, asked.input.headers, forwarded ? forwarded.sessionFields : asked.input.body);
  let prepared: Prepared | Reply;
  if (forwarded) {
    scope.log.model = forwarded.model;
    // The steps below are given the request as far as it is known: its model and stream flag.
    const known: ChatRequest = { model: forwarded.model, stream: forwarded.stream, system: [], messages: [] };
    prepared = { call: asked, req: known, targets: forwarded.resolved.targets };
  } else {
    prepared = await decodedRequest(deps, scope, asked, routes);
    if ('status' in prepared) return prepared;
  }
  const { call, req, targets, keep } = prepared;
  // History rebuilt from the store is encoded anew for every target, a fallback of the caller's own
  // dialect included: it never sees the ids the proxy minted as if it had issued them.
  // A route's forced reasoning is in the decoded request only: the caller's bytes do not go as they are.
  const plan = chatPlan(deps, scope, call, req, targets, { allowPassthrough: call === asked && !prepared.forced, forwarded: forwarded?.body });
  if (scope.flags.dryRun) return dryRunReply(scope, plan.attempts);
  // Translated for every target: the caller's bytes are not needed again (a 2 MB body in flight
  // holds one copy less; docs/performance.md, At agent scale).
  if (!plan.attempts.some((a) => a.passthrough)) asked.release?.(true);
  return answer(deps, scope, call, plan, keep);
}
