/**
 * The routes that name a kept answer by id (Responses `GET`/`DELETE /v1/responses/{id}`,
 * `…/input_items`, `POST …/cancel`; Interactions `GET`/`DELETE /v1beta/interactions/{id}`,
 * `POST …/cancel`): served from the state store when this proxy answered it
 * (toward an upstream that keeps no state), else passed through to the configured upstream of the
 * caller's own dialect, which keeps its own (the first one in the config, when there are several).
 */
import { ProxyError } from '../canonical/index.ts';
import type { CallerInput, ChatCaller } from '../../translators/types.ts';
import type { RequestScope } from '../observe/scope.ts';
import { callPlanned, chatUpstreamOf, type FlowDeps } from './context.ts';
import { readBodyText } from './upstream-answer.ts';
import { dryRunReply, planCall } from './plan.ts';
import { upstreamTarget } from '../upstream/target.ts';
import { jsonReply, proxyHeaders, type Reply } from './reply.ts';

export type StoredOp = 'retrieve' | 'input_items' | 'delete' | 'cancel';

export async function storedFlow(
  deps: FlowDeps,
  scope: RequestScope,
  caller: ChatCaller,
  op: StoredOp,
  input: CallerInput,
  callerKey: string | undefined,
): Promise<Reply> {
  scope.log.caller = caller.id;
  const state = caller.state;
  const id = input.params.id ?? '';
  const { noun, idParam } = state?.answer ?? { noun: 'Answer', idParam: 'id' };
  const key = state?.keyOf(id);
  // The caller's own: another caller's id misses here exactly as an unknown one does.
  const store = deps.state?.bind(callerKey);
  const stored = key !== undefined && store ? await store.get(key) : undefined;
  if (state && key !== undefined && stored !== undefined) {
    switch (op) {
      case 'retrieve':
        return jsonReply(scope, state.retrieved(stored));
      case 'input_items':
        return jsonReply(scope, state.inputItems(stored, input.query));
      case 'delete': {
        // Its output items go with it: a later item_reference to one of them is a 400.
        await Promise.all([...state.ownedKeys(stored), key].map((k) => store!.delete(k)));
        return jsonReply(scope, state.deleted(id));
      }
      case 'cancel':
        throw new ProxyError('invalid-request', `Only ${noun.toLowerCase()}s created in background mode can be cancelled.`, { param: idParam, code: 'invalid_request' });
    }
  }

  const own = Object.values(deps.config.upstreams).find((u) => deps.registry.chatUpstreams[u.dialect].id === caller.id);
  if (!own) throw new ProxyError('not-found', `${noun} with id '${id}' not found.`, { param: idParam, code: 'not_found' });
  const upstream = chatUpstreamOf(deps, { upstream: own, model: '' });
  const attempts = planCall(scope, [{ upstream: own, model: '' }], (t) => ({
    request: upstream.encodePassthrough({ ...input, params: { ...input.params, method: op } }, '', upstreamTarget(t, callerKey, deps.config)),
    warnings: [],
    passthrough: true,
  }));
  if (scope.flags.dryRun) return dryRunReply(scope, attempts);
  const success = await callPlanned(deps, scope, attempts, () => upstream.decodeError);
  const text = await readBodyText(success, scope);
  const type = success.res.headers.get('content-type') ?? 'application/json';
  return { status: success.res.status, headers: proxyHeaders(scope, { 'content-type': type }), body: text };
}
