/**
 * The one generic chat flow: decode → route → encode → fetch → decode → encode, for every pair of
 * dialects, with same-dialect passthrough as the fast, lossless special case.
 */
import { ProxyError, asksForImages, mayCarrySignatures, type ChatRequest, type ChatResponse } from '../canonical/index.ts';
import type { CallerInput, ChatCaller, ChatUpstream, UpstreamHttpRequest, UpstreamTarget } from '../../translators/types.ts';
import type { Registry } from '../../translators/index.ts';
import type { Config, Upstream } from '../config/load.ts';
import { contentTypeOf } from '../sse/serialize.ts';
import { fanOutResponse, fanOutStream } from './fan-out.ts';
import { chatImageFlow, isOpenAIImageTarget } from './image-chat-flow.ts';
import type { ImageStore } from './image-host.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './inbound.ts';
import { inlineRemoteMedia, type GuardedFetch } from './media.ts';
import { resolveModel, type ResolvedTarget } from './resolve.ts';
import { jsonReply, proxyHeaders, type Reply } from './respond.ts';
import { asProxyError, type FetchLike, type RequestScope } from './scope.ts';
import { PipeBody } from './pipe.ts';
import { passthroughStep, translateStep } from './stream.ts';
import { callUpstream, type UpstreamSuccess } from './upstream-call.ts';

export interface FlowDeps {
  config: Config;
  registry: Registry;
  fetch: FetchLike;
  guardedFetch: GuardedFetch;
  /** Where images are hosted for callers that want a URL (image-host.ts). */
  imageStore?: ImageStore;
}

export interface ChatCall {
  caller: ChatCaller;
  input: CallerInput;
  /** The body as received, for byte-exact passthrough. */
  rawBody: string;
  /** The caller's credential, forwarded to upstreams that have no key of their own. */
  callerKey?: string;
}

export function upstreamTarget(t: ResolvedTarget, callerKey: string | undefined, config: Config, defaultMaxTokens?: number): UpstreamTarget {
  const u: Upstream = t.upstream;
  return {
    name: u.name,
    baseUrl: u.baseUrl,
    model: t.model,
    apiKey: u.apiKey ?? (config.keys.length === 0 ? callerKey : undefined),
    options: {
      defaultMaxTokens: defaultMaxTokens ?? u.defaultMaxTokens,
      anthropicVersion: u.anthropicVersion,
      anthropicBeta: u.anthropicBeta,
      imageMask: u.imageMask,
      headers: u.headers,
    },
  };
}

function withTargetHeaders(req: UpstreamHttpRequest, target: UpstreamTarget): UpstreamHttpRequest {
  if (!target.options.headers) return req;
  return { ...req, headers: { ...target.options.headers, ...req.headers } };
}

/**
 * A 2xx answer without a body (204, 205), told by its status: reading `res.body` would make the
 * Web stream the Node path skips.
 */
function hasNoBody(res: Response): boolean {
  return res.status === 204 || res.status === 205;
}

/** Copy the upstream headers worth keeping into fresh caller headers (never mutate upstream's). */
function keptUpstreamHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'retry-after', 'request-id', 'x-request-id', 'openai-processing-ms']) {
    const v = res.headers.get(name);
    if (v !== null) out[name === 'x-request-id' ? 'x-upstream-request-id' : name] = v;
  }
  return out;
}

export async function chatFlow(deps: FlowDeps, scope: RequestScope, call: ChatCall): Promise<Reply> {
  const { caller } = call;
  scope.log.caller = caller.id;

  const decoded = caller.decodeRequest(call.input, scope);
  scope.warn(decoded.warnings);
  let req: ChatRequest = decoded.value;
  scope.log.model = req.model;

  const resolved = resolveModel(deps.config, req.model);
  if (resolved.route?.strict) scope.flags.strict = true;
  const defaultMaxTokens = resolved.route?.defaultMaxTokens;
  const upstreamOf = (t: ResolvedTarget): ChatUpstream => deps.registry.chatUpstreams[t.upstream.dialect];
  const n = req.candidateCount ?? 1;

  // Fan-out: the upstream cannot return several choices in one call.
  const first = resolved.targets[0]!;
  // Image output asked of an OpenAI image model: an images call, not a chat call.
  if (asksForImages(req) && isOpenAIImageTarget(first)) return chatImageFlow(deps, scope, call, req, first);
  if (n > 1 && !upstreamOf(first).multipleChoices) {
    scope.warn([{ code: 'approximated', path: 'n', detail: 'fan-out' }]);
    const one = { ...req, candidateCount: 1 };
    const run = () => callOnce(deps, scope, call, one, resolved.targets, defaultMaxTokens, false);
    if (req.stream) return fanOutStream(deps, scope, call, one, n, run);
    return fanOutResponse(scope, caller, req, n, run);
  }

  // Media the upstream cannot fetch itself is fetched (guarded) and inlined first.
  if (upstreamOf(first).inlineMediaOnly || first.upstream.inlineMedia) req = await inlineRemoteMedia(req, deps.guardedFetch, scope);

  const out = await callOnce(deps, scope, call, req, resolved.targets, defaultMaxTokens, true);
  const { success, upstream, passthrough } = out;
  const { res } = success;

  if (passthrough) {
    const headers = proxyHeaders(scope, keptUpstreamHeaders(res));
    if (!req.stream) {
      // Forward the bytes untouched, but only once they are known to be a response.
      const text = await readBodyText(success, scope);
      decodeText(text, success, upstream, req, scope, false);
      return { status: res.status, headers, body: text };
    }
    if (hasNoBody(res)) throw new ProxyError('upstream', 'Upstream returned no stream body.');
    const framing = caller.streamFraming?.(call.input) ?? 'sse';
    const body = new PipeBody(res, passthroughStep({
      scope,
      idleMs: success.target.upstream.timeouts.idleMs,
      // Gemini's JSON-array framing is not SSE: forwarded without verification.
      verify:
        framing === 'sse'
          ? {
              decoder: upstream.createStreamDecoder(req, scope),
              encoder: caller.createStreamEncoder(req, scope),
              maxBufferSize: deps.config.limits.maxSseBufferBytes,
            }
          : undefined,
    }));
    return { status: res.status, headers, body };
  }

  if (req.stream) {
    if (hasNoBody(res)) throw new ProxyError('upstream', 'Upstream returned no stream body.');
    const framing = caller.streamFraming?.(call.input) ?? 'sse';
    const stream = new PipeBody(res, translateStep({
      decoder: upstream.createStreamDecoder(req, scope),
      encoder: caller.createStreamEncoder(req, scope),
      framing,
      maxBufferSize: deps.config.limits.maxSseBufferBytes,
      idleMs: success.target.upstream.timeouts.idleMs,
      scope,
    }));
    const headers = proxyHeaders(scope, { 'content-type': contentTypeOf(framing), 'cache-control': 'no-cache' });
    return { status: 200, headers, body: stream };
  }

  const response = await readResponse(success, upstream, req, scope);
  return jsonReply(scope, caller.encodeResponse(response, req, scope), 200);
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

/** Parse and decode an upstream body; garbage (not JSON, wrong shape, an error inside) → 502. */
function decodeText(
  text: string,
  success: UpstreamSuccess,
  upstream: ChatUpstream,
  req: ChatRequest,
  scope: RequestScope,
  /** A model-side failure (Gemini MALFORMED_FUNCTION_CALL) becomes an error for foreign callers. */
  failOnErrorFinish = true,
): ChatResponse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProxyError('upstream', `Upstream ${success.target.upstream.name} returned a body that is not JSON.`, { raw: text.slice(0, 2000) });
  }
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    throw new ProxyError('upstream', `Upstream ${success.target.upstream.name} returned JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let response: ChatResponse;
  try {
    response = upstream.decodeResponse(body, req, scope);
  } catch (e) {
    if (e instanceof ProxyError) throw e;
    throw new ProxyError('upstream', `Upstream ${success.target.upstream.name} returned a response of an unexpected shape.`);
  }
  scope.usage(response.usage?.inputTokens, response.usage?.outputTokens);
  scope.dump?.(`upstream response ← ${success.target.upstream.name}`, body);
  if (failOnErrorFinish && response.choices.length > 0 && response.choices.every((c) => c.finishReason.unified === 'error')) {
    const raw = response.choices[0]!.finishReason.raw ?? 'error';
    throw new ProxyError('upstream', `Upstream stopped with ${raw}: the model produced an invalid response.`, { code: raw });
  }
  return response;
}

/** Read a whole upstream body, bounded by the upstream's idle timeout. */
export async function readBodyText(success: UpstreamSuccess, scope: RequestScope): Promise<string> {
  const { idleMs } = success.target.upstream.timeouts;
  const timer = setTimeout(() => scope.abort(new ProxyError('timeout', `Upstream body not received within ${idleMs} ms.`)), idleMs);
  try {
    const text = await success.res.text();
    scope.markFirstByte();
    return text;
  } catch (e) {
    throw asProxyError(e, scope);
  } finally {
    clearTimeout(timer);
  }
}

export interface CallOnce {
  success: UpstreamSuccess;
  upstream: ChatUpstream;
  passthrough: boolean;
}

/** Encode for each target in turn and call upstream (retries and fallbacks inside). */
export async function callOnce(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  req: ChatRequest,
  targets: ResolvedTarget[],
  defaultMaxTokens: number | undefined,
  allowPassthrough: boolean,
): Promise<CallOnce> {
  const passthroughOf = new Map<ResolvedTarget, boolean>();
  const success = await callUpstream(deps.fetch, scope, {
    targets,
    build: (t) => {
      const upstream = deps.registry.chatUpstreams[t.upstream.dialect];
      const target = upstreamTarget(t, call.callerKey, deps.config, defaultMaxTokens);
      const same = allowPassthrough && upstream.id === call.caller.id && !mayCarrySignatures(call.rawBody);
      passthroughOf.set(t, same);
      if (same) return withTargetHeaders(upstream.encodePassthrough(call.input, call.rawBody, target), target);
      const enc = upstream.encodeRequest(req, target, scope);
      scope.warn(enc.warnings);
      return withTargetHeaders(enc.value, target);
    },
    decodeError: (t, status, body, headers) =>
      deps.registry.chatUpstreams[t.upstream.dialect].decodeError(status, body, headers),
  });
  return {
    success,
    upstream: deps.registry.chatUpstreams[success.target.upstream.dialect],
    passthrough: passthroughOf.get(success.target) ?? false,
  };
}

