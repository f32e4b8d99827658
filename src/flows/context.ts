/**
 * The plumbing every flow shares: what a flow is given (`FlowDeps`), one chat call's input, the
 * planned upstream call with its deadline, reading and checking a non-stream upstream body, and
 * turning an upstream stream into the caller's streamed reply through the one pipeline.
 */
import {
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  type Bytes,
  type FetchLike,
} from '../kit/index.ts';
import {
  ProxyError,
  chainSteps,
  inCallerTerms,
  mayCarrySignatures,
  type ChatRequest,
  type ChatResponse,
  type Warning,
} from '../canonical/index.ts';
import { applyContextEdits } from './context-edits.ts';
import {
  customToolNames,
  lowerCustomTools,
  raiseCustomToolCalls,
  raiseCustomToolStream,
} from './custom-tools.ts';
import type { CallerInput, CallerStreamEncoder, ChatCaller, ChatUpstream } from '../../translators/types.ts';
import type { Registry } from '../../translators/index.ts';
import type { Config } from '../config/load.ts';
import { asProxyError, type RequestScope } from '../observe/scope.ts';
import { PipeBody } from '../sse/byte-step.ts';
import { streamPipeline, type TerminalHold } from '../sse/pipeline.ts';
import { contentTypeOf, type Framing } from '../sse/serialize.ts';
import { callUpstream, type UpstreamSuccess } from '../upstream/call.ts';
import type { GuardedFetch } from '../upstream/guarded-fetch.ts';
import type { ImageStore } from '../upstream/image-store.ts';
import { providerOf } from '../upstream/providers/index.ts';
import type { ResolvedTarget } from '../upstream/resolve.ts';
import type { KeyPools } from '../upstream/key-pool.ts';
import type { StateScopes } from '../upstream/state-scope.ts';
import { planCall, upstreamTarget, type PlannedAttempt } from './plan.ts';
import { proxyHeaders, type Reply } from './reply.ts';

export interface FlowDeps {
  config: Config;
  registry: Registry;
  fetch: FetchLike;
  guardedFetch: GuardedFetch;
  /** Where images are hosted for callers that want a URL. */
  imageStore: ImageStore;
  /**
   * Where stateful dialects' answers are kept (none: references are refused), reachable only
   * bound to one caller (`bind(credential)`): no flow sees another caller's state.
   */
  state?: StateScopes;
  /** Key pools' cooldowns and sessions' pins (src/upstream/key-pool.ts); none: every key as it is. */
  pools?: KeyPools;
}

export interface ChatCall {
  caller: ChatCaller;
  input: CallerInput;
  /** The body as received, for byte-exact passthrough. */
  rawBody: string;
  /**
   * The body's bytes as received, when the route read them (chat routes): a request whose every
   * target speaks the caller's dialect is forwarded from these without decoding (forward.ts).
   */
  rawBytes?: Bytes;
  /** The caller's credential, forwarded to upstreams that have no key of their own. */
  callerKey?: string;
  /**
   * The keyed hash of the request's session identity (src/flows/session.ts), once known: it is
   * pinned to a key and an upstream, and sent as `prompt_cache_key` where that is missing.
   */
  session?: string;
  /**
   * Let go of the parsed body and its text (made again from the bytes if asked for): once the
   * request is decoded, so they are not kept alive through the upstream's answer, where each
   * scavenge would copy them and promote them for a full GC to collect. `all`: the bytes too, once
   * the request is planned and nothing will read it again (no target forwards the caller's body).
   */
  release?(all?: boolean): void;
}

/**
 * Call the planned attempts in order (retries, key pools and fallbacks inside), under the
 * request's deadline; `session`: the request's session hash, which pins a key and an upstream.
 */
export async function callPlanned<A extends PlannedAttempt>(
  deps: FlowDeps,
  scope: RequestScope,
  attempts: readonly A[],
  decodeError: (t: ResolvedTarget) => ChatUpstream['decodeError'],
  session?: string,
): Promise<UpstreamSuccess<A>> {
  scope.setDeadline(attempts[0]!.target.upstream.timeouts.totalMs);
  const success = await callUpstream(deps.fetch, scope, attempts, (t, status, body, headers) => decodeError(t)(status, body, headers), { pools: deps.pools, session });
  // Its cost is the price of the model it was sent (docs/team.md "Cost").
  scope.servedModel = success.attempt.target.model;
  return success;
}

/** The chat upstream dialect of a target. */
export function chatUpstreamOf(deps: FlowDeps, t: ResolvedTarget): ChatUpstream {
  return deps.registry.chatUpstreams[t.upstream.dialect];
}

/**
 * Encode a chat request for each target (a pure plan): a same-dialect target gets the caller's
 * own body with only model and credentials changed, unless it carries a signature another vendor
 * issued (then it is translated, which drops what the upstream did not issue) or the stream's
 * framing differs on the way (a caller's JSON-array framing, a host's own event stream).
 */
export function planChat(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  req: ChatRequest,
  targets: readonly ResolvedTarget[],
  o: { defaultMaxTokens?: number; allowPassthrough: boolean },
): PlannedAttempt[] {
  const framing = streamFramingOf(call);
  return planCall(scope, targets, (t) => {
    const upstream = chatUpstreamOf(deps, t);
    const target = upstreamTarget(t, call.callerKey, deps.config, o.defaultMaxTokens, call.session);
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

export function streamFramingOf(call: ChatCall): Framing {
  return call.caller.streamFraming?.(call.input) ?? 'sse';
}

/** Read and decode a non-stream upstream body; garbage becomes a 502 in the caller's dialect. */
export async function readResponse(
  success: UpstreamSuccess,
  upstream: ChatUpstream,
  req: ChatRequest,
  scope: RequestScope,
): Promise<ChatResponse> {
  return decodeText(await readBodyText(success, scope), success, upstream, req, scope);
}

/** An upstream's answer body as JSON, or the upstream error that says why it is not (not JSON, nested too deep). */
export function upstreamJson(text: string, name: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProxyError('upstream', `Upstream ${name} returned a body that is not JSON.`, { raw: text.slice(0, 2000) });
  }
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new ProxyError('upstream', `Upstream ${name} returned JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
  return body;
}

/** Parse and decode an upstream body; garbage (not JSON, wrong shape, an error inside) → 502. */
export function decodeText(
  text: string,
  success: UpstreamSuccess,
  upstream: ChatUpstream,
  req: ChatRequest,
  scope: RequestScope,
  /** A model-side failure (Gemini MALFORMED_FUNCTION_CALL) becomes an error for foreign callers. */
  failOnErrorFinish = true,
): ChatResponse {
  const name = success.attempt.target.upstream.name;
  const body = upstreamJson(text, name);
  let response: ChatResponse;
  try {
    response = upstream.decodeResponse(body, req, scope);
    if (!upstream.customTools) response = raiseCustomToolCalls(response, req);
  } catch (e) {
    if (e instanceof ProxyError) throw e;
    throw new ProxyError('upstream', `Upstream ${name} returned a response of an unexpected shape.`);
  }
  scope.usage(response.usage);
  scope.searched(response.choices.reduce((n, c) => n + c.content.filter((p) => p.type === 'web-search').length, 0));
  scope.trace?.response(response);
  scope.dump?.(`upstream response ← ${name}`, body);
  if (failOnErrorFinish && response.choices.length > 0 && response.choices.every((c) => c.finishReason.unified === 'error')) {
    const raw = response.choices[0]!.finishReason.raw ?? 'error';
    throw new ProxyError('upstream', `Upstream stopped with ${raw}: the model produced an invalid response.`, { code: raw });
  }
  return response;
}

/** Read a whole upstream body, bounded by the upstream's idle timeout. */
export async function readBodyText(success: UpstreamSuccess, scope: RequestScope): Promise<string> {
  const { idleMs } = success.attempt.target.upstream.timeouts;
  const timer = setTimeout(() => scope.abort(new ProxyError('timeout', `Upstream body not received within ${idleMs} ms.`)), idleMs);
  try {
    const text = await success.res.text();
    scope.markFirstByte();
    return text;
  } catch (e) {
    throw asProxyError(e, scope, 'body');
  } finally {
    clearTimeout(timer);
  }
}

/** Copy the upstream headers worth keeping into fresh caller headers (never mutate upstream's). */
export function keptUpstreamHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'retry-after', 'request-id', 'x-request-id', 'openai-processing-ms']) {
    const v = res.headers.get(name);
    if (v !== null) out[name === 'x-request-id' ? 'x-upstream-request-id' : name] = v;
  }
  return out;
}

/**
 * An upstream answer to a stream request that is not an event stream (an HTML error page, a JSON
 * body) is a 502 before the caller's stream starts. A missing content type is given the benefit
 * of the doubt: the pipeline then ends garbage with an error event.
 */
export async function assertEventStream(success: UpstreamSuccess, scope: RequestScope): Promise<void> {
  const { res } = success;
  if (res.status === 204 || res.status === 205) throw new ProxyError('upstream', 'Upstream returned no stream body.');
  const type = res.headers.get('content-type');
  // SSE, or the host's own stream framing (Bedrock's AWS event stream).
  const framing = providerOf(success.attempt.target.upstream).streamContentType ?? 'text/event-stream';
  if (type === null || type.split(';')[0]!.trim().toLowerCase() === framing) return;
  const text = await readBodyText(success, scope).catch(() => '');
  throw new ProxyError('upstream', `Upstream ${success.attempt.target.upstream.name} answered a stream request with ${type.split(';')[0]} instead of an event stream.`, {
    raw: text.slice(0, 2000),
  });
}

/** The caller's streamed reply: the upstream bodies (one per lane) through the one pipeline. */
export function streamReply(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  req: ChatRequest,
  successes: ReadonlyArray<UpstreamSuccess>,
  o: {
    passthrough: boolean;
    headers?: Record<string, string>;
    /** Wraps the caller's encoder (to change what it is shown). */
    tap?: (encoder: CallerStreamEncoder) => CallerStreamEncoder;
    /** Hold the last frames until the answer is stored (the pipeline's `hold`). */
    hold?: TerminalHold;
  },
): Reply {
  const framing = streamFramingOf(call);
  const maxFrameBytes = deps.config.limits.maxSseBufferBytes;
  const step = streamPipeline({
    scope,
    decoders: successes.map((s) => {
      const upstream = chatUpstreamOf(deps, s.attempt.target);
      const decoder = upstream.createStreamDecoder(req, scope);
      // (Without freeform tools in the request there is nothing to raise: no step per event for it.)
      return upstream.customTools || customToolNames(req).size === 0 ? decoder : chainSteps(decoder, raiseCustomToolStream(req));
    }),
    // A host with its own stream framing (Bedrock) hands over SSE events the same way.
    parsers: successes.map((s) => providerOf(s.attempt.target.upstream).streamParser?.(maxFrameBytes)),
    encoder: (o.tap ?? ((e) => e))(call.caller.createStreamEncoder(successes.length > 1 ? { ...req, candidateCount: successes.length } : req, scope)),
    framing,
    passthrough: o.passthrough,
    maxFrameBytes,
    idleMs: Math.max(...successes.map((s) => s.attempt.target.upstream.timeouts.idleMs)),
    hold: o.hold,
  });
  const headers = proxyHeaders(scope, { ...o.headers, 'content-type': contentTypeOf(framing), 'cache-control': 'no-cache' });
  return { status: 200, headers, body: new PipeBody(successes.map((s) => s.res), step) };
}
