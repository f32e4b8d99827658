/**
 * Planning an upstream call, a pure step before any I/O: each target of the route encoded for its
 * dialect (with what the encoding could not carry: a same-dialect target given the caller's own
 * body, or its bytes as they came when the fast path forwards them, context edits and freeform
 * tools lowered for another), the session's prompt cache key added, strict mode applied, the plan
 * again without carried signatures should the upstream refuse one, and the dry-run answer made
 * from the plan instead of from a call.
 *
 * Strict mode keeps only the targets that carry the request without loss: a lossless first
 * choice is still tried, a lossy fallback never is; when no target is lossless the request is a
 * 400 naming what could not be carried, and nothing is sent.
 */
import { ByteParts, withLeadingField, withModelParts, type Bytes, type PeekedJson } from '../kit/index.ts';
import { ProxyError, inCallerTerms, mayCarrySignatures, warningToken, withoutSignatures, type ChatRequest, type Warning } from '../canonical/index.ts';
import type { ChatUpstream, UpstreamHttpRequest, UpstreamTarget } from '../../translators/types.ts';
import type { Attempt } from '../upstream/call.ts';
import type { ResolvedTarget, RoutedTarget } from '../upstream/resolve.ts';
import { providerOf } from '../upstream/providers/index.ts';
import { redactHeaders } from '../upstream/secrets.ts';
import type { RequestScope } from '../observe/scope.ts';
import { elideBase64 } from '../observe/debug.ts';
import { applyContextEdits } from './context-edits.ts';
import { chatUpstreamOf, streamFramingOf, type ChatCall, type FlowDeps } from './context.ts';
import { lowerCustomTools } from './custom-tools.ts';
import { jsonReply, type Reply } from './reply.ts';

/** One planned attempt: where, what, what it loses, and whether it is a same-dialect passthrough. */
export interface PlannedAttempt extends Attempt {
  warnings: Warning[];
  passthrough: boolean;
}

/**
 * A body that goes to every target as the caller's bytes (src/flows/forward/): where its top level
 * lies, and for each target, in order, its request without the body (`forwardRequest`) and the
 * model the bytes must name there (undefined: as they are).
 */
export interface ForwardedBody {
  bytes: Bytes;
  top: PeekedJson;
  /** Where its top-level object opens (`objectStart`). */
  open: number;
  /** It sends a `prompt_cache_key` of its own: the session's is not added. */
  hasCacheKey: boolean;
  shells: ReadonlyArray<{ request: Omit<UpstreamHttpRequest, 'body'>; model?: string; warnings: Warning[] }>;
}

/** Dialects that take OpenAI's `prompt_cache_key`. */
const CACHE_KEY_DIALECTS: ReadonlySet<string> = new Set(['openai', 'openai-responses']);

/**
 * The target's upstream target with `session`, the request's session hash, as its
 * `prompt_cache_key`, toward an OpenAI Chat or Responses host that takes one.
 */
function withSession(t: RoutedTarget, session: string | undefined): UpstreamTarget {
  const target = t.upstreamTarget;
  if (session === undefined || !CACHE_KEY_DIALECTS.has(t.upstream.dialect) || !providerOf(t.upstream).takesPromptCacheKey) return target;
  return { ...target, options: { ...target.options, promptCacheKey: session } };
}

/** Warnings strict mode refuses: everything that changes meaning (estimates and a store's failure do not). */
export function lossOf(warnings: readonly Warning[]): Warning[] {
  return warnings.filter((w) => w.code !== 'estimated' && w.code !== 'not-stored');
}

function strictError(lost: Warning[], upstream: string): ProxyError {
  const tokens = [...new Set(lost.map(warningToken))];
  return new ProxyError('invalid-request', `Strict mode: this request cannot be carried to upstream '${upstream}' without loss: ${tokens.join(', ')}.`, {
    code: 'strict_mode_violation',
    param: lost[0]!.path,
  });
}

/**
 * Encode the request for every target in fallback order. `encode` may throw a ProxyError (the
 * request cannot be sent to that dialect at all), which refuses the call.
 */
export function planCall<T extends ResolvedTarget>(
  scope: RequestScope,
  targets: readonly T[],
  encode: (t: T) => Omit<PlannedAttempt, 'target' | 'url'>,
): PlannedAttempt[] {
  const attempts = targets.map((target) => {
    const planned = encode(target);
    const ctx = { upstream: target.upstream, model: target.model };
    const provider = providerOf(target.upstream);
    const request = provider.headers ? { ...planned.request, headers: provider.headers(planned.request.headers, ctx) } : planned.request;
    return { target, ...planned, request, url: provider.url(request, ctx) };
  });
  if (!scope.flags.strict) return attempts;
  const decodeLoss = lossOf(scope.warnings);
  if (decodeLoss.length > 0) throw strictError(decodeLoss, attempts[0]!.target.upstream.name);
  const clean = attempts.filter((a) => lossOf(a.warnings).length === 0);
  if (clean.length === 0) throw strictError(lossOf(attempts[0]!.warnings), attempts[0]!.target.upstream.name);
  return clean;
}

/** How a chat request is planned: whether a same-dialect target may get the caller's own body; its bytes, when the fast path forwards them. */
export interface ChatPlanning {
  allowPassthrough: boolean;
  forwarded?: ForwardedBody;
}

/**
 * Encode a chat request for each target (a pure plan): a same-dialect target gets the caller's
 * own body with only model and credentials changed, unless it carries a signature another vendor
 * issued (then it is translated, which drops what the upstream did not issue) or the stream's
 * framing differs on the way (a caller's JSON-array framing, a host's own event stream).
 * `forwarded`: every target is given the caller's bytes (src/flows/forward/), `req` holds only
 * their model and stream flag.
 */
export function planChat(deps: FlowDeps, scope: RequestScope, call: ChatCall, req: ChatRequest, targets: readonly RoutedTarget[], o: ChatPlanning): PlannedAttempt[] {
  const { forwarded } = o;
  if (forwarded) {
    let i = 0;
    return planCall(scope, targets, (t) => forwardedAttempt(forwarded, i++, withSession(t, forwarded.hasCacheKey ? undefined : call.session)));
  }
  const framing = streamFramingOf(call);
  return planCall(scope, targets, (t) => {
    const upstream = chatUpstreamOf(deps, t);
    const routed = withSession(t, call.session);
    // The caller's last body to this upstream and model: what is equal in it is not made again
    // (turn-memo.ts); a small body is made as it is, nothing kept.
    const memo = deps.turnMemo && (call.rawBytes?.byteLength ?? 0) >= deps.turnMemo.fromBytes ? deps.turnMemo : undefined;
    const target = memo ? { ...routed, sent: memo.sent(call, `${t.upstream.name}\n${t.model}`) } : routed;
    const sameFraming = !req.stream || (framing === 'sse' && !providerOf(t.upstream).streamParser);
    const same = o.allowPassthrough && upstream.id === call.caller.id && sameFraming && !mayCarrySignatures(call.rawBody);
    if (same) {
      const warnings: Warning[] = [];
      const request = withTargetHeaders(upstream.encodePassthrough(call.input, call.rawBody, target, warnings), target.options.headers);
      return { request, warnings: inCallerTerms(warnings, call.caller.settingNames), passthrough: true };
    }
    refuseSealed(req, upstream.id, t.upstream.name);
    // Context editing, to an upstream of another dialect (a fallback: the first target's is
    // applied and reported by the chat flow): applied here.
    const edited = req.contextManagement && req.contextManagement.dialect !== upstream.id ? applyContextEdits(req).value : req;
    // Freeform tools, to an upstream that has none: functions taking one string (raised back on the way out).
    const lowered = upstream.customTools ? { value: edited, warnings: [] } : lowerCustomTools(edited);
    const enc = upstream.encodeRequest(lowered.value, target, scope);
    // The encoder names what it could not carry canonically (`topK`); the caller reads its own field (`top_k`).
    const warnings = inCallerTerms([...lowered.warnings, ...enc.warnings], call.caller.settingNames);
    return { request: withTargetHeaders(enc.value, target.options.headers), warnings, passthrough: false };
  });
}

/**
 * The `i`th target's request with the caller's bytes as its body: renamed, the bytes uncopied
 * around the new model (sent piece by piece on Node); a session's prompt_cache_key the caller did
 * not send, first in the object.
 */
function forwardedAttempt(body: ForwardedBody, i: number, target: UpstreamTarget): Omit<PlannedAttempt, 'target' | 'url'> {
  const { request, model, warnings } = body.shells[i]!;
  const renamed = model === undefined ? body.bytes : withModelParts(body.bytes, body.top, model);
  const cacheKey = target.options.promptCacheKey;
  const bytes = cacheKey === undefined ? renamed : withLeadingField(renamed, body.open, 'prompt_cache_key', cacheKey);
  // (Object.assign, not `{ ...request, body }`: on Node 20 that makes a new hidden class every call.)
  return { request: withTargetHeaders(Object.assign({}, request, { body: bytes }), target.options.headers), warnings, passthrough: true };
}

/** The chat flow's plan of a request: its attempts, and the same request planned again without the signatures it carries. */
export interface ChatPlan {
  /** The request as planned (a forwarded one: its model and stream flag). */
  req: ChatRequest;
  attempts: PlannedAttempt[];
  /**
   * The request for the first target once more, without the reasoning signatures it replays (the
   * upstream refused one: the conversation moved to another model), said in the loss report;
   * undefined when it carries none.
   */
  unsigned(): { req: ChatRequest; attempts: PlannedAttempt[] } | undefined;
}

/** `planChat` for the chat flow, with the plan again without signatures (`ChatPlan.unsigned`). */
export function chatPlan(deps: FlowDeps, scope: RequestScope, call: ChatCall, req: ChatRequest, targets: readonly RoutedTarget[], o: ChatPlanning): ChatPlan {
  const unsigned = () => {
    let decoded = req;
    if (o.forwarded) {
      // A forwarded request is decoded only now.
      const d = call.caller.decodeRequest(call.input, scope);
      scope.warn(d.warnings);
      scope.log.model = d.value.model;
      decoded = d.value;
    }
    const stripped = withoutSignatures(decoded);
    if (stripped.warnings.length === 0) return undefined;
    scope.warn(stripped.warnings);
    return { req: stripped.value, attempts: planChat(deps, scope, call, stripped.value, [targets[0]!], { allowPassthrough: false }) };
  };
  return { req, attempts: planChat(deps, scope, call, req, targets, o), unsigned };
}

/** A compaction only another dialect's service can read is a 400 toward this upstream: without it the conversation it stands for is gone. */
function refuseSealed(req: ChatRequest, dialect: ChatUpstream['id'], name: string): void {
  const sealed = req.messages.find((m) => m.sealed && m.sealed.dialect !== dialect)?.sealed;
  if (!sealed) return;
  throw new ProxyError(
    'invalid-request',
    `The conversation holds a compaction that only an upstream of dialect '${sealed.dialect}' can read, and this request goes to '${name}' (${dialect}): send it where the compaction was made, or send the conversation it compacted.`,
    { param: 'input', code: 'invalid_value' },
  );
}

export function withTargetHeaders<R extends { headers: Record<string, string> }>(req: R, headers: Record<string, string> | undefined): R {
  return headers ? { ...req, headers: { ...headers, ...req.headers } } : req;
}

/** The body as the dry-run shows it: JSON parsed, multipart as fields, large base64 elided. */
function shownBody(body: unknown): unknown {
  // A big JSON body is made in UTF-8 pieces (jsonBody); shown as the one JSON value it is.
  if (body instanceof ByteParts) body = new TextDecoder().decode(body.join());
  if (typeof body === 'string') {
    try {
      return elideBase64(JSON.parse(body));
    } catch {
      return body;
    }
  }
  if (body === undefined) return undefined;
  const fields: Record<string, string> = {};
  (body as FormData).forEach((v, k) => {
    fields[k] = typeof v === 'string' ? v : `<file ${(v as Blob).size} bytes, ${(v as Blob).type || 'unknown type'}>`;
  });
  return { multipart: fields };
}

/** The exact request the first attempt would send — method, URL, headers (secrets masked), body. */
export function dryRunReply(scope: RequestScope, attempts: readonly PlannedAttempt[]): Reply {
  const [first, ...fallbacks] = attempts;
  const { target, request, url } = first!;
  scope.warn(first!.warnings);
  const warnings = scope.warnings;
  const body: Record<string, unknown> = {
    dryRun: true,
    upstream: { name: target.upstream.name, dialect: target.upstream.dialect, model: target.model },
    request: {
      method: request.method,
      url,
      headers: redactHeaders(request.headers, target.upstream.secretHeaders),
      body: shownBody(request.body),
    },
    warnings: [...new Set(warnings.map(warningToken))],
  };
  if (fallbacks.length > 0) {
    body.fallbacks = fallbacks.map((a) => ({ upstream: a.target.upstream.name, model: a.target.model, url: a.url }));
  }
  return jsonReply(scope, body, 200, { 'x-interlingua-dry-run': 'true' });
}
