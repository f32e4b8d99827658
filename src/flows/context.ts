/**
 * What every flow is given and shares: `FlowDeps`, one chat call's input (`ChatCall`), and the
 * planned upstream call under the request's deadline. Planning is plan.ts; reading the upstream's
 * answer, upstream-answer.ts; writing the caller's reply, streamed or not, reply.ts.
 */
import type { Bytes, FetchLike, JsonBodyKeep } from '../kit/index.ts';
import type { CallerInput, ChatCaller, ChatUpstream } from '../../translators/types.ts';
import type { Registry } from '../../translators/index.ts';
import type { Config } from '../config/load.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { Framing } from '../sse/serialize.ts';
import { callUpstream, type Attempt, type UpstreamSuccess } from '../upstream/call.ts';
import type { GuardedFetch } from '../upstream/guarded-fetch.ts';
import type { ImageStore } from '../upstream/image-store.ts';
import type { ResolvedTarget } from '../upstream/resolve.ts';
import type { KeyPools } from '../upstream/key-pool.ts';
import type { StateScopes } from '../upstream/state-scope.ts';

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
  /** Callers' last turns, parsed and as sent upstream (src/flows/forward/turn-memo.ts); none: off. */
  turnMemo?: TurnMemory;
}

/** A caller, as far as the turn memo tells callers apart: its dialect and the credential it presented. */
export interface MemoCaller {
  caller: { id: string };
  callerKey?: string;
}

/** What the flows ask of the turn memo (src/flows/forward/turn-memo.ts). */
export interface TurnMemory {
  /** Smaller caller bodies are neither kept nor compared with kept ones. */
  readonly fromBytes: number;
  /** `flat` (the bytes of `body`) parsed for `who`, reusing its last bodies' values where the bytes are the same; `whole` parses as without it. */
  parse(who: MemoCaller, body: Bytes, flat: Uint8Array, conversation: string, whole: (flat: Uint8Array) => unknown): unknown;
  /** Where the last body sent upstream for `who` and `route` is kept, for `jsonBody`. */
  sent(who: MemoCaller, route: string): JsonBodyKeep;
}

export interface ChatCall {
  caller: ChatCaller;
  input: CallerInput;
  /** The body as received, for byte-exact passthrough. */
  rawBody: string;
  /**
   * The body's bytes as received, when the route read them (chat routes): a request whose every
   * target speaks the caller's dialect is forwarded from these without decoding (src/flows/forward/).
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
export async function callPlanned<A extends Attempt>(
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

/** The stream framing the caller asked for (`sse`, or Gemini's JSON array). */
export function streamFramingOf(call: ChatCall): Framing {
  return call.caller.streamFraming?.(call.input) ?? 'sse';
}
