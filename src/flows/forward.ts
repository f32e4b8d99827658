/**
 * Same-dialect forwarding without parsing. A chat request whose every target speaks the caller's
 * dialect goes to the upstream as the caller's own bytes: never decoded to text, never parsed,
 * byte for byte but for its top-level `model` when the route renames it (one string spliced,
 * src/canonical/json-peek.ts); the dialect's `forwardRequest` sets path and credentials as
 * `encodePassthrough` does. The body is scanned, not parsed: its structure is checked here (a body
 * that fails the scan takes the usual path, whose parse gives bad JSON its 400), what is inside its
 * strings is the upstream's to check, which speaks the caller's dialect and answers in it.
 *
 * Anything that needs the decoded request takes the usual path instead: a target of another
 * dialect (or a Responses reference toward one), strict mode, a dry run, debug dumps and the
 * inspector, telemetry, carried signatures from another vendor, a stream framed otherwise on the
 * way, a host that wants the body otherwise, an image model answering a chat call.
 */
import { mayCarrySignatureBytes, peekJson, withModel, type ChatRequest } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import { providerOf } from '../upstream/providers/index.ts';
import { resolveModel, type ResolvedRoute } from '../upstream/resolve.ts';
import { isOpenAIImageTarget } from './chat-to-images.ts';
import { chatUpstreamOf, streamFramingOf, withTargetHeaders, type ChatCall, type FlowDeps } from './context.ts';
import { planCall, upstreamTarget, type PlannedAttempt } from './plan.ts';

export interface ForwardPlan {
  /** The request as far as the flow needs it: model and stream flag (nothing else is decoded). */
  req: ChatRequest;
  attempts: PlannedAttempt[];
  defaultMaxTokens?: number;
}

/** The forwarding plan for `call`, or undefined when it must be decoded (see above). */
export function forwardPlan(deps: FlowDeps, scope: RequestScope, call: ChatCall): ForwardPlan | undefined {
  const { caller, rawBytes } = call;
  if (!rawBytes || !caller.peekRequest || scope.dump || scope.trace || scope.flags.strict || scope.flags.dryRun) return undefined;
  const top = peekJson(rawBytes);
  if (!top) return undefined;
  const peeked = caller.peekRequest(call.input, { bytes: rawBytes, top }, scope);
  if (!peeked) return undefined;
  let resolved: ResolvedRoute;
  try {
    resolved = resolveModel(deps.config, peeked.model);
  } catch {
    return undefined; // (an unknown model: the usual path answers it, after checking the request)
  }
  const { targets, route } = resolved;
  if (route?.strict || targets.length === 0 || isOpenAIImageTarget(targets[0]!)) return undefined;
  const framing = streamFramingOf(call);
  for (const t of targets) {
    const upstream = chatUpstreamOf(deps, t);
    if (upstream.id !== caller.id || !upstream.forwardRequest) return undefined;
    if (peeked.stream && (framing !== 'sse' || providerOf(t.upstream).streamParser)) return undefined;
  }
  if (mayCarrySignatureBytes(rawBytes)) return undefined;

  const defaultMaxTokens = route?.defaultMaxTokens;
  const shells = targets.map((t) => {
    const target = upstreamTarget(t, call.callerKey, deps.config, defaultMaxTokens);
    const warnings: PlannedAttempt['warnings'] = [];
    return { target, warnings, shell: chatUpstreamOf(deps, t).forwardRequest!(call.input, peeked, target, warnings) };
  });
  if (shells.some((s) => !s.shell)) return undefined;
  let i = 0;
  const attempts = planCall(scope, targets, () => {
    const { target, warnings, shell } = shells[i++]!;
    const body = shell!.model === undefined ? rawBytes : withModel(rawBytes, top, shell!.model);
    return { request: withTargetHeaders({ ...shell!.request, body }, target.options.headers), warnings, passthrough: true };
  });
  return { req: { model: peeked.model, stream: peeked.stream, system: [], messages: [] }, attempts, defaultMaxTokens };
}
