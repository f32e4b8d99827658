/**
 * Serving a stateful dialect's references toward an upstream that keeps no state: before the
 * request is decoded, what it refers to (`previous_response_id`, `item_reference`) is read from
 * the state store and put in its place; after it is answered, what later requests may refer to
 * is kept. The rules are the dialect's (`ChatCaller.state`, pure); the store is the runtime's
 * (memory, Redis or Workers KV), bound to the caller (src/upstream/state-scope.ts): what one
 * caller kept, no other caller finds. Toward an upstream of the caller's own dialect nothing happens
 * here: the request passes through and the upstream keeps its own state.
 */
import { ProxyError, type ChatResponse, type StreamFrame } from '../canonical/index.ts';
import type { CallerInput, CallerStreamEncoder, ChatCaller, ChatUpstream, DialectState } from '../../translators/types.ts';
import type { RequestScope } from '../observe/scope.ts';
import type { TerminalHold } from '../sse/pipeline.ts';
import type { Routes } from '../upstream/resolve.ts';
import type { CallerStore } from '../upstream/state-scope.ts';
import { chatUpstreamOf, type ChatCall, type FlowDeps } from './context.ts';

/** A request with its references resolved, and how to keep its answer (when it is to be kept). */
export interface StatefulCall {
  call: ChatCall;
  keep?: (answer: unknown) => Promise<void>;
}

function noStore(param: string, id: string): ProxyError {
  return new ProxyError(
    'invalid-request',
    `'${param}' ('${id}') cannot be resolved: this deployment keeps no state (configure "store", or bind a KV namespace as INTERLINGUA_STATE on Workers), so send the whole conversation instead.`,
    { param, code: 'state_unavailable' },
  );
}


/** A body with its references resolved: what the store held for them (`found`, by key). */
interface Resolved {
  body: unknown;
  found: ReadonlyMap<string, string>;
  state: DialectState;
  /** The caller's own store (none configured: undefined). */
  store?: CallerStore;
}

/**
 * Resolve what `body` refers to from the caller's store, or undefined when that is not ours to
 * do (a dialect without state, an upstream of the caller's own dialect, which keeps its own).
 * A reference the caller's store does not hold is the dialect's not-found, whoever kept it.
 */
async function resolveBody(deps: FlowDeps, routes: Routes, caller: ChatCaller, body: unknown, callerKey: string | undefined, scope: RequestScope): Promise<Resolved | undefined> {
  const state = caller.state;
  const model = (body as { model?: unknown } | null)?.model;
  if (!state || typeof model !== 'string') return undefined;
  const first = routes(model).targets[0];
  // The upstream speaks the caller's dialect: it keeps (or refuses) the state itself.
  if (!first || chatUpstreamOf(deps, first).id === caller.id) return undefined;

  const { refs, statefulOnly } = state.references(body);
  if (statefulOnly) {
    throw new ProxyError('invalid-request', `'${statefulOnly}' needs an upstream that keeps state; upstream '${first.upstream.name}' (${first.upstream.dialect}) does not.`, {
      param: statefulOnly,
      code: 'unsupported_parameter',
    });
  }
  const store = deps.state?.bind(callerKey);
  const found = new Map<string, string>();
  if (refs.length === 0) return { body, found, state, store };
  if (!store) throw noStore(refs[0]!.param, refs[0]!.id);
  for (const ref of refs) {
    if (found.has(ref.key)) continue;
    const value = await store.get(ref.key);
    if (value === undefined) throw state.notFound(ref.param, ref.id);
    found.set(ref.key, value);
  }
  let expanded: unknown;
  try {
    expanded = state.expand(body, found);
  } catch (e) {
    // The dialect's own refusal (what the references resolve to is no input at all) as it is.
    if (e instanceof ProxyError) throw e;
    throw state.notFound(refs[0]!.param, refs[0]!.id);
  }
  scope.dump?.('state: references resolved', { refs: refs.map((r) => r.id) });
  return { body: expanded, found, state, store };
}

/** Resolve what `call` refers to; the answer's keeper when the caller asked it kept. `routes`: the request's routes. */
export async function resolveState(deps: FlowDeps, scope: RequestScope, call: ChatCall, routes: Routes): Promise<StatefulCall> {
  const r = await resolveBody(deps, routes, call.caller, call.input.body, call.callerKey, scope);
  if (!r) return { call };
  const keep = r.store && r.state.keeps(call.input.body) ? keeper(r.store, r.state, deps.config.store.ttlSeconds, scope, r.found) : undefined;
  const resolved: ChatCall = r.found.size === 0 ? call : { ...call, input: { ...call.input, body: r.body }, rawBody: JSON.stringify(r.body) };
  return { call: resolved, keep: keep && ((answer) => keep(r.body, answer)) };
}

/** A token count's input with its references resolved as `create` resolves them. */
export async function resolveCountInput(deps: FlowDeps, scope: RequestScope, routes: Routes, caller: ChatCaller, input: CallerInput, callerKey: string | undefined): Promise<CallerInput> {
  const r = await resolveBody(deps, routes, caller, input.body, callerKey, scope);
  return r && r.found.size > 0 ? { ...input, body: r.body } : input;
}

/**
 * Keep one exchange. A store that fails costs the later reference, never this answer: the answer
 * is served, with a `not-stored` warning (the request's log line, its metric, and for a JSON
 * answer the x-interlingua-warnings header; a stream's headers are out by then).
 */
function keeper(store: CallerStore, state: DialectState, ttlSeconds: number, scope: RequestScope, found: ReadonlyMap<string, string>) {
  return async (request: unknown, answer: unknown): Promise<void> => {
    try {
      await Promise.all(state.record(request, answer, found, scope).map(([key, value]) => store.put(key, value, ttlSeconds)));
    } catch (e) {
      scope.warn([{ code: 'not-stored', path: store.kind }]);
      scope.dump?.('state: not kept', { error: (e as Error)?.message ?? String(e) });
    }
  };
}

/**
 * The terminal hold (the pipeline's `hold`, src/sse/pipeline-parts.ts) for a kept answer: the
 * dialect's rules say which frame carries the answer; `keep` stores it.
 */
export function terminalHold(state: DialectState, keep: (answer: unknown) => Promise<void>): TerminalHold {
  return { answerOf: state.collect?.() ?? ((f: StreamFrame) => state.finalOf(f)), keep };
}

/**
 * Whether the ids a stateful caller gets must be ours: its answer comes from an upstream of
 * another dialect, whose ids mean nothing to the caller's API (and may repeat: a self-hosted
 * server, a mock). Only an upstream of the caller's own dialect keeps its ids: it keeps the state
 * they name.
 */
export function mintsIds(caller: ChatCaller, upstream: ChatUpstream): boolean {
  return caller.state !== undefined && upstream.id !== caller.id;
}

/** The answer without the upstream's id: the caller's encoder mints one. */
export function withoutUpstreamId(res: ChatResponse): ChatResponse {
  return res.id ? { ...res, id: '' } : res;
}

/** The caller's stream encoder, shown no upstream id (it mints the stream's own). */
export function mintingEncoder(encoder: CallerStreamEncoder): CallerStreamEncoder {
  return {
    push: (e) => encoder.push(e.type === 'message-start' && e.id ? { ...e, id: '' } : e),
    finish: () => encoder.finish(),
    ...passedOn(encoder),
  };
}

/** What a wrapper of a caller encoder passes on to it unchanged. */
function passedOn(encoder: CallerStreamEncoder): Pick<CallerStreamEncoder, 'forwarded' | 'kept'> {
  return {
    ...(encoder.forwarded && { forwarded: (f) => encoder.forwarded!(f) }),
    ...(encoder.kept && { kept: () => encoder.kept!() }),
  };
}
