/**
 * Token counting (Anthropic `count_tokens`, Gemini `countTokens`): asked of the upstream where it
 * has an endpoint, else estimated and marked as such.
 */
import { ProxyError, estimateTokens } from '../canonical/index.ts';
import { lowerCustomTools } from './custom-tools.ts';
import type { CallerInput, ChatCaller } from '../../translators/types.ts';
import type { RequestScope } from '../observe/scope.ts';
import { requestRoutes } from '../upstream/resolve.ts';
import { callPlanned, chatUpstreamOf, type FlowDeps } from './context.ts';
import { readBodyText } from './upstream-answer.ts';
import { dryRunReply, planCall } from './plan.ts';
import { upstreamTarget } from '../upstream/target.ts';
import { jsonReply, type Reply } from './reply.ts';
import { resolveCountInput } from './state.ts';

export async function countTokensFlow(
  deps: FlowDeps,
  scope: RequestScope,
  caller: ChatCaller,
  input: CallerInput,
  callerKey: string | undefined,
): Promise<Reply> {
  scope.log.caller = caller.id;
  const encode = caller.encodeCountTokensResponse;
  if (!encode) throw new ProxyError('not-found', 'Token counting is not available in this dialect.');
  // References to earlier answers count as the whole history they stand for (as `create` sends it);
  // a malformed one is refused first, as `create` refuses it.
  caller.checkReferences?.(input.body);
  const routes = requestRoutes(deps.config, callerKey);
  const counted = await resolveCountInput(deps, scope, routes, caller, input, callerKey);
  const countInput = { ...counted, params: { ...counted.params, method: 'countTokens' } };
  const decoded = caller.decodeRequest(countInput, scope);
  const req = decoded.value;
  scope.log.model = req.model;
  const resolved = routes(req.model);
  const first = resolved.targets[0]!;
  const upstream = chatUpstreamOf(deps, first);
  const { encodeCountTokens, decodeCountTokens } = upstream;
  if (!encodeCountTokens || !decodeCountTokens) {
    scope.warn([{ code: 'estimated', path: 'input_tokens' }]);
    return jsonReply(scope, encode(estimateTokens(req)), 200, { 'x-interlingua-token-count': 'estimated' });
  }
  const attempts = planCall(scope, [first], (t) => ({ request: encodeCountTokens(upstream.customTools ? req : lowerCustomTools(req).value, upstreamTarget(t, callerKey, deps.config), scope), warnings: [], passthrough: false }));
  if (scope.flags.dryRun) return dryRunReply(scope, attempts);
  const success = await callPlanned(deps, scope, attempts, () => upstream.decodeError);
  const text = await readBodyText(success, scope);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProxyError('upstream', 'Upstream returned a token count that is not JSON.', { raw: text.slice(0, 2000) });
  }
  return jsonReply(scope, encode(decodeCountTokens(body)));
}
