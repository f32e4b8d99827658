/**
 * `n > 1` against an upstream that returns one choice per call: n calls in parallel, merged into
 * choices by index (usage summed, tool-call ids kept unique). Streams go through the one pipeline,
 * which merges the n upstream streams as their events arrive (sse/fan-in.ts).
 */
import { inCallerTerms, sumUsage, type ChatRequest, type ChatResponse } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { RequestRoute } from '../upstream/resolve.ts';
import { callPlanned, chatUpstreamOf, type ChatCall, type FlowDeps } from './context.ts';
import { assertEventStream, readResponse } from './upstream-answer.ts';
import { dryRunReply, planChat } from './plan.ts';
import { jsonReply, streamReply, type Reply } from './reply.ts';

/** Several one-choice responses as one response of several choices. */
export function mergeChoices(results: ChatResponse[]): ChatResponse {
  const seen = new Set<string>();
  return {
    ...results[0]!,
    choices: results.flatMap((r, i) =>
      r.choices.slice(0, 1).map((c) => ({
        ...c,
        index: i,
        content: c.content.map((p) => {
          if (p.type !== 'tool-call') return p;
          const id = seen.has(p.id) ? `${p.id}_${i}` : p.id;
          seen.add(id);
          return { ...p, id };
        }),
      })),
    ),
    usage: sumUsage(results.map((r) => r.usage)),
  };
}

export async function fanOutFlow(deps: FlowDeps, scope: RequestScope, call: ChatCall, req: ChatRequest, resolved: RequestRoute, n: number): Promise<Reply> {
  scope.warn(inCallerTerms([{ code: 'approximated', path: 'candidateCount', detail: 'fan-out' }], call.caller.settingNames));
  const one = { ...req, candidateCount: 1 };
  const attempts = planChat(deps, scope, call, one, resolved.targets, { allowPassthrough: false });
  if (scope.flags.dryRun) return dryRunReply(scope, attempts);
  const calls = await Promise.all(Array.from({ length: n }, () => callPlanned(deps, scope, attempts, (t) => chatUpstreamOf(deps, t).decodeError, call.session)));
  if (req.stream) {
    for (const c of calls) await assertEventStream(c, scope);
    return streamReply(deps, scope, call, one, calls, { passthrough: false });
  }
  const results = await Promise.all(calls.map((c) => readResponse(c, chatUpstreamOf(deps, c.attempt.target), one, scope)));
  const merged = mergeChoices(results);
  scope.usage(merged.usage);
  return jsonReply(scope, call.caller.encodeResponse(merged, req, scope), 200);
}
