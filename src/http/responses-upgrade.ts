/**
 * The upgrade of `GET /v1/responses` to a WebSocket (docs/responses.md "WebSocket"): refused with
 * the reply to send instead of `101`, or accepted with the session that serves its messages.
 */
import type { ChatCaller } from '../../translators/types.ts';
import type { Config } from '../config/load.ts';
import { jsonReply, proxyHeaders, type Reply } from '../flows/reply.ts';
import type { CallerHandlers } from './handlers.ts';
import type { CallerRequest } from './inbound.ts';
import { openResponsesSocket, type SocketPeer, type SocketSession } from './responses-socket.ts';
import { warmupEvents } from './responses-socket-events.ts';
import type { Serve } from './serve.ts';

/** What a runtime does with an upgrade request (`Proxy.openSocket`). */
export type SocketOpening =
  | { refused: Reply }
  | { maxMessageBytes: number; accept(peer: SocketPeer): SocketSession };

/**
 * The Responses WebSocket: the key is checked (and the upgrade logged) once here, and again with
 * every turn, which is served as a POST through the route table (`dispatch`).
 */
export function socketOpener(o: {
  config: Config;
  now: () => number;
  serve: Serve;
  dispatch: (req: CallerRequest) => Promise<Reply>;
  readJson: CallerHandlers['readJson'];
  responses: ChatCaller;
}): (req: CallerRequest) => Promise<SocketOpening> {
  const { config, serve, dispatch, readJson, responses, now } = o;
  const upgrade = serve('responses.socket', responses.encodeError, async (scope) => ({ status: 101, headers: proxyHeaders(scope), body: null }));
  const warmup = serve('responses.warmup', responses.encodeError, async (scope, req) => {
    const { body } = await readJson(req, scope);
    return jsonReply(scope, warmupEvents(body, scope.newId('resp_'), now()));
  });
  return async (req) => {
    if (req.method !== 'GET' || req.path !== '/v1/responses') {
      return { refused: await dispatch(req) };
    }
    const reply = await upgrade(req);
    if (reply.status !== 101) return { refused: reply };
    const { limits } = config;
    return {
      maxMessageBytes: limits.maxBodyBytes,
      accept: (peer) => openResponsesSocket({ dispatch, warmup, upgrade: req, socketId: reply.headers['x-request-id'] ?? '', maxMessageBytes: limits.maxBodyBytes, maxSseBufferBytes: limits.maxSseBufferBytes, maxAgeMs: limits.socketMaxAgeSeconds * 1000 }, peer),
    };
  };
}
