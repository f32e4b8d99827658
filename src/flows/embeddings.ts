/**
 * The embeddings flow: decode → route (the same `models` table as chat) → pick each target's wire
 * form → split the inputs into the calls that wire takes (its batch size, one task a call) →
 * plan every call for every target (fallbacks included) before anything is sent, so a request
 * no target can carry is the caller's 400 with no upstream call → call the pieces concurrently,
 * a few at a time, each with retries, key pools and fallbacks → the vectors in input order, usage
 * summed (or estimated and flagged) → the caller's answer. One piece failing fails the request
 * with that piece's error.
 */
import { ProxyError, estimateEmbeddingTokens, sumEmbeddingUsage, type EmbeddingInput, type EmbeddingRequest, type EmbeddingResponse } from '../canonical/index.ts';
import type { CallerInput, EmbeddingCaller, EmbeddingUpstream } from '../../translators/types.ts';
import type { EmbeddingWire } from '../../translators/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import { resolveModel, type ResolvedTarget } from '../upstream/resolve.ts';
import { callPlanned, type FlowDeps } from './context.ts';
import { readBodyText, upstreamJson } from './upstream-answer.ts';
import { dryRunReply, planCall, type PlannedAttempt } from './plan.ts';
import { upstreamTarget } from '../upstream/target.ts';
import { jsonReply, type Reply } from './reply.ts';

/** How many upstream calls of one request are in flight at once. */
export const EMBED_CONCURRENCY = 8;

export interface EmbeddingCall {
  caller: EmbeddingCaller;
  input: CallerInput;
  callerKey?: string;
}

/**
 * The wire form toward a target, by who hosts it, its dialect and the model id; undefined when it
 * cannot embed (an Anthropic upstream, a Bedrock model that is neither Titan nor Cohere).
 */
export function embeddingWireOf(t: ResolvedTarget): EmbeddingWire | undefined {
  const { provider, dialect } = t.upstream;
  if (provider === 'bedrock') {
    if (/(^|\.)amazon\.titan-embed-text/.test(t.model)) return 'titan';
    if (/(^|\.)cohere\.embed/.test(t.model)) return 'cohere';
    return undefined;
  }
  if (provider === 'vertex') return 'vertex';
  if (dialect === 'gemini' || dialect === 'gemini-interactions') return 'gemini';
  if (dialect === 'openai' || dialect === 'openai-responses') return 'openai';
  return undefined;
}

/** The inputs as calls: runs of one task, each at most `size` long (input order kept). */
export function splitInputs(inputs: readonly EmbeddingInput[], size: number): EmbeddingInput[][] {
  const out: EmbeddingInput[][] = [];
  let run: EmbeddingInput[] = [];
  for (const input of inputs) {
    if (run.length > 0 && (run.length >= size || run[0]!.task !== input.task)) {
      out.push(run);
      run = [];
    }
    run.push(input);
  }
  if (run.length > 0) out.push(run);
  return out;
}

/**
 * Run `fn` over `items`, at most `limit` at once. The first failure stops new starts; the calls
 * in flight are let finish (their bodies read), then that first failure is thrown.
 */
export async function boundedAll<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return out;
}

export async function embeddingFlow(deps: FlowDeps, scope: RequestScope, call: EmbeddingCall): Promise<Reply> {
  const { caller } = call;
  scope.log.caller = caller.id;
  const decoded = caller.decodeEmbeddingRequest(call.input, scope);
  scope.warn(decoded.warnings);
  const req = decoded.value;
  scope.log.model = req.model;
  if (scope.trace) scope.trace.operation = 'embeddings';

  const resolved = resolveModel(deps.config, req.model);
  if (resolved.route?.strict) scope.flags.strict = true;
  const routed = resolved.targets.map((t) => ({ t, wire: embeddingWireOf(t) }));
  const usable = routed.filter((r): r is { t: ResolvedTarget; wire: EmbeddingWire } => r.wire !== undefined);
  if (usable.length === 0) {
    const first = resolved.targets[0]!;
    throw new ProxyError('unsupported', `The upstream '${first.upstream.name}' (${first.upstream.provider ?? first.upstream.dialect}) cannot embed ${first.model}; route '${req.model}' to an embedding model (docs/embeddings.md).`, {
      param: 'model',
      code: 'unsupported_model',
    });
  }
  const upstreamOf = (t: ResolvedTarget): EmbeddingUpstream => deps.registry.embeddingUpstreams[embeddingWireOf(t)!];
  const targets = usable.map((u) => u.t);
  const size = Math.min(...targets.map((t) => upstreamOf(t).batchSize(t.model)));
  const pieces = splitInputs(req.inputs, size).map((inputs): EmbeddingRequest => ({ ...req, inputs }));
  const plans = pieces.map((piece) =>
    planCall(scope, targets, (t) => {
      const enc = upstreamOf(t).encodeEmbeddingRequest(piece, upstreamTarget(t, call.callerKey, deps.config), scope);
      return { request: enc.value, warnings: enc.warnings, passthrough: false };
    }),
  );
  if (scope.flags.dryRun) return dryRunReply(scope, plans[0]!);

  const answers = await boundedAll(plans.map((attempts, i) => ({ attempts, piece: pieces[i]! })), EMBED_CONCURRENCY, ({ attempts, piece }) => callPiece(deps, scope, attempts, piece, upstreamOf));
  const merged = mergeAnswers(answers, req);
  if (scope.trace && merged.model) scope.trace.responseModel = merged.model;
  if (merged.usage) scope.usage({ inputTokens: merged.usage.inputTokens, outputTokens: 0, totalTokens: merged.usage.totalTokens });
  const extra: Record<string, string> = {};
  if (merged.usage?.estimated) {
    scope.warn([{ code: 'estimated', path: 'usage' }]);
    extra['x-interlingua-token-count'] = 'estimated';
  }
  return jsonReply(scope, caller.encodeEmbeddingResponse(merged, req, call.input), 200, extra);
}

/** One piece: called (retries, keys, fallbacks inside), read, decoded by the wire that answered. */
async function callPiece(
  deps: FlowDeps,
  scope: RequestScope,
  attempts: PlannedAttempt[],
  piece: EmbeddingRequest,
  upstreamOf: (t: ResolvedTarget) => EmbeddingUpstream,
): Promise<EmbeddingResponse> {
  const success = await callPlanned(deps, scope, attempts, (t) => upstreamOf(t).decodeError);
  const text = await readBodyText(success, scope);
  const name = success.attempt.target.upstream.name;
  const body = upstreamJson(text, name);
  scope.dump?.(`upstream response ← ${name}`, body);
  try {
    return upstreamOf(success.attempt.target).decodeEmbeddingResponse(body, piece, scope, headersOf(success.res));
  } catch (e) {
    if (e instanceof ProxyError) throw e;
    throw new ProxyError('upstream', `Upstream ${name} returned an embeddings response of an unexpected shape.`);
  }
}

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** The pieces' vectors in input order; usage summed when every piece reported it, else estimated. */
export function mergeAnswers(answers: readonly EmbeddingResponse[], req: EmbeddingRequest): EmbeddingResponse {
  const vectors = answers.flatMap((a) => a.vectors);
  const model = answers.find((a) => a.model !== undefined)?.model;
  const reported = sumEmbeddingUsage(answers.map((a) => a.usage));
  const tokens = estimateEmbeddingTokens(req.inputs);
  const usage = reported ?? { inputTokens: tokens, totalTokens: tokens, estimated: true };
  return { ...(model !== undefined && { model }), vectors, usage };
}
