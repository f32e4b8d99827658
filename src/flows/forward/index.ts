/**
 * Same-dialect forwarding without parsing. A chat request whose every target speaks the caller's
 * dialect goes to the upstream as the caller's own bytes: never decoded to text, never parsed,
 * byte for byte but for its top-level `model` when the route renames it (one string spliced,
 * src/kit/json-splice.ts, by the plan); the dialect's `forwardRequest` sets path and credentials as
 * `encodePassthrough` does. The body is scanned, not parsed: its structure is checked here (a body
 * that fails the scan takes the usual path, whose parse gives bad JSON its 400), what is inside its
 * strings is the upstream's to check, which speaks the caller's dialect and answers in it.
 *
 * Anything that needs the decoded request takes the usual path instead: a target of another
 * dialect (or a Responses reference toward one), strict mode, a dry run, debug dumps and the
 * inspector, telemetry, carried signatures from another vendor, a stream framed otherwise on the
 * way, a host that wants the body otherwise, an image model answering a chat call, a conversation
 * that is missing or empty (the decoder refuses it), or one holding what the decoder must check
 * all the same (`forward.decodeMarks`: a Responses `item_reference`).
 */
import { asciiFinder, flatBytes, leadingModel, modelAndStream, objectStart, parsedFields, type Bytes, type PeekedJson } from '../../kit/index.ts';
import { mayCarrySignatureBytes, type Warning } from '../../canonical/index.ts';
import type { RequestScope } from '../../observe/scope.ts';
import type { CallerInput, ForwardSpec } from '../../../translators/types.ts';
import { providerOf } from '../../upstream/providers/index.ts';
import type { RequestRoute, Routes } from '../../upstream/resolve.ts';
import { fitToForward } from './check.ts';
import { ScanMemo, type MemoScan } from './scan-memo.ts';
import { isOpenAIImageTarget } from '../chat-to-images.ts';
import { chatUpstreamOf, streamFramingOf, type ChatCall, type FlowDeps } from '../context.ts';
import type { ForwardedBody } from '../plan.ts';
import { SESSION_FIELDS } from '../session.ts';

export { TurnMemo } from './turn-memo.ts';

/**
 * A request that goes as the caller's bytes: its model and stream flag (nothing else is decoded),
 * its route, the body as the plan forwards it (plan.ts), and the fields its session is read from.
 */
export interface Forwardable {
  model: string;
  stream: boolean;
  resolved: RequestRoute;
  body: ForwardedBody;
  /** The body's top-level `SESSION_FIELDS` (session.ts), parsed. */
  sessionFields: Record<string, unknown>;
}

/**
 * Below this size a body is decoded as before: parsing it costs less than the scan, the checks and
 * the splice (`npx tsx bench/forward.ts`: forwarding a 100-byte request cost 1.13× decoding it,
 * a 30 KB one 0.62×, a 300 KB one 0.17×).
 */
export const FORWARD_MIN_BYTES = 8 * 1024;

/** Where agents' last turns were scanned to (one per process: the scan is a pure function of the bytes). */
const scanMemo = new ScanMemo();

/**
 * `call` as it goes forwarded, or undefined when it must be decoded (see above). `routes`: the
 * request's routes, resolved once for the whole flow.
 */
export function forwardable(deps: FlowDeps, scope: RequestScope, call: ChatCall, routes: Routes): Forwardable | undefined {
  const { caller, rawBytes } = call;
  const forward = caller.forward;
  if (!rawBytes || rawBytes.byteLength < FORWARD_MIN_BYTES || !forward || scope.dump || scope.trace || scope.flags.strict || scope.flags.dryRun) return undefined;
  // Scanned and checked as one contiguous array (the pieces copied into a reused buffer, see
  // flatBytes): only offsets and copies come out of it; the upstream gets the pieces themselves.
  const scanned = flatBytes(rawBytes, (flat) => scan(deps, scope, call, routes, flat, rawBytes));
  if (!scanned) return undefined;
  const { peeked, resolved, top, sessionFields, open } = scanned;
  // A route that forces reasoning changes the request: it is decoded.
  if (resolved.route?.reasoning) return undefined;
  const shells: Array<ForwardedBody['shells'][number] | undefined> = resolved.targets.map((t) => {
    const warnings: Warning[] = [];
    const shell = chatUpstreamOf(deps, t).forwardRequest!(call.input, peeked, t.upstreamTarget, warnings);
    return shell && { ...shell, warnings };
  });
  if (shells.some((s) => !s)) return undefined;
  const hasCacheKey = top.fields.some((f) => f.key === 'prompt_cache_key');
  const body: ForwardedBody = { bytes: rawBytes, top, open, hasCacheKey, shells: shells as ForwardedBody['shells'] };
  return { ...peeked, resolved, body, sessionFields };
}

/**
 * The body's model, its route and its top-level fields, when the route forwards and the request
 * passes its dialect's parameter check; undefined when it must be decoded. `flat` is valid only
 * during this call (flatBytes): nothing returned refers to it.
 */
function scan(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  routes: Routes,
  flat: Uint8Array,
  body: Bytes,
): { peeked: { model: string; stream: boolean }; resolved: RequestRoute; top: PeekedJson; sessionFields: Record<string, unknown>; open: number } | undefined {
  const forward = call.caller.forward!;
  const memoScope = `${call.caller.id}\n${call.callerKey ?? ''}`;
  let memo: MemoScan | undefined;
  // The model from the route (Gemini), else from the body: a body that opens with a model routed
  // elsewhere is decoded without a scan; otherwise the scan finds it.
  if (forward.model.in === 'body') {
    const leading = leadingModel(flat);
    if (leading !== undefined && !routeOf(deps, call, routes, leading)) return undefined;
    memo = scanMemo.peek(memoScope, flat);
  }
  const peeked = forwardedModel(forward, call.input, memo?.top);
  if (!peeked) return undefined;
  const resolved = routeOf(deps, call, routes, peeked.model);
  if (!resolved) return undefined;
  const framing = streamFramingOf(call);
  if (peeked.stream && (framing !== 'sse' || resolved.targets.some((t) => providerOf(t.upstream).streamParser))) return undefined;
  memo ??= scanMemo.peek(memoScope, flat);
  const top = memo.top;
  if (!top || !fitToForward(call.caller, call.input, { bytes: flat, top }, scope)) return undefined;
  // A kept body carried no signature marks: only what follows its bytes is searched. (A mark lies
  // inside a string, and a checkpoint never does; the search starts a little before all the same.)
  const fresh = memo.resumedAt > SIGNATURE_OVERLAP ? flat.subarray(memo.resumedAt - SIGNATURE_OVERLAP) : flat;
  if (mayCarrySignatureBytes(fresh)) return undefined;
  // (The same for what the dialect's decoder must see inside the conversation.)
  if (forward.decodeMarks && forward.decodeMarks.some((mark) => asciiFinder(fresh)(mark, 0) >= 0)) return undefined;
  scanMemo.keep(memoScope, body, memo);
  return { peeked, resolved, top, sessionFields: parsedFields(flat, top, SESSION_FIELDS), open: objectStart(flat) };
}

/** The routed model and the stream flag: from the route parameters, or from the scanned top level (`top`; undefined before the scan). */
/** (Exported for its tests.) */
export function forwardedModel(spec: ForwardSpec, input: CallerInput, top: PeekedJson | undefined): { model: string; stream: boolean } | undefined {
  const at = spec.model;
  if (at.in === 'path') return input.params.model ? { model: input.params.model, stream: input.params.method === at.streamMethod } : undefined;
  return top && modelAndStream(top);
}

/** More than the longest signature mark (`"\u002f2lsMW`) or decode mark reaches back. */
const SIGNATURE_OVERLAP = 64;

/** The model's route when every target speaks the caller's dialect and can be forwarded to. */
function routeOf(deps: FlowDeps, call: ChatCall, routes: Routes, model: string): RequestRoute | undefined {
  let resolved: RequestRoute;
  try {
    resolved = routes(model);
  } catch {
    return undefined; // (an unknown model: the usual path answers it, after checking the request)
  }
  const { targets, route } = resolved;
  if (route?.strict || targets.length === 0 || isOpenAIImageTarget(targets[0]!)) return undefined;
  for (const t of targets) {
    const upstream = chatUpstreamOf(deps, t);
    if (upstream.id !== call.caller.id || !upstream.forwardRequest) return undefined;
  }
  return resolved;
}
