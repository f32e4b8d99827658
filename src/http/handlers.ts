/**
 * A caller's request handed to its flow: the body read within its limit (and dumped for the
 * debug log), then the chat, compaction, token-count or embedding flow. The route table
 * (src/app.ts) pairs each with its path and the caller whose shape it answers in.
 */
import type { ChatCaller, EmbeddingCaller } from '../../translators/types.ts';
import { chatFlow } from '../flows/chat.ts';
import { compactRouteFlow } from '../flows/compaction.ts';
import type { FlowDeps } from '../flows/context.ts';
import { countTokensFlow } from '../flows/count-tokens.ts';
import { embeddingFlow } from '../flows/embeddings.ts';
import type { RequestScope } from '../observe/scope.ts';
import { callerInput, chatCallOf, parseJsonBody, type CallerRequest } from './inbound.ts';
import type { Handler } from './serve.ts';

export interface CallerHandlers {
  /** The body as JSON text and as parsed. */
  readJson(req: CallerRequest, scope: RequestScope): Promise<{ raw: string; body: unknown }>;
  chat(caller: ChatCaller, params?: Record<string, string>): Handler;
  /** Responses `POST /responses/compact`: a create-like body, answered by a compaction. */
  compact(caller: ChatCaller): Handler;
  countTokens(caller: ChatCaller, params?: Record<string, string>): Handler;
  embed(caller: EmbeddingCaller, params?: Record<string, string>): Handler;
}

export function callerHandlers(deps: FlowDeps): CallerHandlers {
  const { limits } = deps.config;
  const readJson = async (req: CallerRequest, scope: RequestScope) => {
    const raw = await req.text(limits.maxBodyBytes);
    scope.dump?.(`caller request ${req.method} ${req.path}`, raw);
    return { raw, body: parseJsonBody(raw) };
  };
  /** A chat-shaped body as bytes: decoded and parsed only if the flow needs them (src/flows/forward/). */
  const chatCall = async (caller: ChatCaller, scope: RequestScope, req: CallerRequest, inbound: Parameters<Handler>[2], params?: Record<string, string>) => {
    const bytes = await (req.parts ?? req.bytes)(limits.maxBodyBytes);
    scope.requestBytes = bytes.byteLength;
    // An agent's turn parsed from its last one, where its bytes are the same (src/flows/forward/turn-memo.ts).
    const memo = deps.turnMemo;
    const conversation = caller.forward?.conversation;
    const who = { caller, callerKey: inbound.credential };
    const parse = memo && conversation ? (flat: Uint8Array, whole: (flat: Uint8Array) => unknown) => memo.parse(who, bytes, flat, conversation, whole) : undefined;
    const call = chatCallOf(caller, inbound, bytes, params, parse);
    scope.dump?.(`caller request ${req.method} ${req.path}`, call.rawBody);
    return call;
  };
  return {
    readJson,
    chat: (caller, params) => async (scope, req, inbound) => chatFlow(deps, scope, await chatCall(caller, scope, req, inbound, params)),
    compact: (caller) => async (scope, req, inbound) => compactRouteFlow(deps, scope, await chatCall(caller, scope, req, inbound, { method: 'compact' })),
    countTokens: (caller, params) => async (scope, req, inbound) => {
      const { body } = await readJson(req, scope);
      return countTokensFlow(deps, scope, caller, callerInput(inbound, body, params), inbound.credential);
    },
    embed: (caller, params) => async (scope, req, inbound) => {
      const { body } = await readJson(req, scope);
      return embeddingFlow(deps, scope, { caller, input: callerInput(inbound, body, params), callerKey: inbound.credential });
    },
  };
}
