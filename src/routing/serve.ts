/**
 * Running one caller request through a flow, independent of the runtime that received it: the
 * request scope, caller auth, debug switches, errors in the caller's dialect, and the one log line
 * per request. The Hono routes (app.ts) and the Node fast path (runtime/node-server.ts) both hand
 * a `CallerRequest` in and take a `Reply` out.
 */
import { ProxyError } from '../canonical/index.ts';
import type { EncodedError } from '../../translators/types.ts';
import type { Config } from '../config/load.ts';
import { callerCredential, checkCallerKey } from './auth.ts';
import { DryRun, formatDump, headerFlag } from './debug.ts';
import type { Inbound } from './inbound.ts';
import type { Metrics } from './metrics.ts';
import { errorReply, jsonReply, toProxyError, type Reply } from './respond.ts';
import { RequestScope, randomToken, type LogEntry } from './scope.ts';

/** A caller's request as the flows need it, from whichever runtime received it. */
export interface CallerRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  /** Lowercased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  query: Record<string, string>;
  /** The body as text, refused past `limit` bytes. */
  text(limit: number): Promise<string>;
  /** Call `fn` if the caller goes away before its reply is complete. */
  onGone(fn: () => void): void;
}

export type Handler = (scope: RequestScope, req: CallerRequest, inbound: Inbound) => Promise<Reply>;

export interface ServeOptions {
  config: Config;
  now: () => number;
  log?: (entry: LogEntry) => void;
  metrics?: Metrics;
  debugLog?: (text: string) => void;
}

/** A plain token a caller may choose as its request id (it is echoed in headers and logs). */
const REQUEST_ID = /^[\w.:-]+$/;

/** `serve(route, encodeError, handler)`: the handler, wrapped as described above. */
export function createServe(o: ServeOptions) {
  return (route: string, encodeError: (e: ProxyError) => EncodedError, fn: Handler) =>
    async (req: CallerRequest): Promise<Reply> => {
      const { headers, query } = req;
      const inbound: Inbound = { headers, query, credential: callerCredential(headers, query) };
      const given = headers['x-request-id'];
      const id = given && given.length <= 128 && REQUEST_ID.test(given) ? given : `req_${randomToken(24)}`;
      const scope = new RequestScope(route, id, o.now);
      // Caller disconnect aborts the upstream at once.
      req.onGone(() => scope.abort(new ProxyError('upstream', 'Caller disconnected.')));
      if (headers['x-interlingua-strict'] !== undefined) scope.flags.strict = headerFlag(headers['x-interlingua-strict']);
      if (headers['x-interlingua-dry-run'] !== undefined) scope.flags.dryRun = headerFlag(headers['x-interlingua-dry-run']);
      const { debugLog } = o;
      if (debugLog) scope.dump = (stage, data) => debugLog(formatDump(scope.requestId, stage, data));
      let reply: Reply;
      let error: string | undefined;
      try {
        checkCallerKey(o.config.keys, inbound.credential);
        reply = await fn(scope, req, inbound);
      } catch (e) {
        if (e instanceof DryRun) {
          reply = jsonReply(scope, e.render(scope.warnings), 200, { 'x-interlingua-dry-run': 'true' });
        } else {
          const err = toProxyError(e);
          error = `${err.kind}: ${err.message}`;
          reply = errorReply(scope, err, encodeError);
        }
      }
      const status = reply.status;
      if (scope.dump && typeof reply.body === 'string') scope.dump(`caller response (${status})`, reply.body);
      else if (scope.dump && reply.body instanceof Uint8Array) scope.dump(`caller response (${status})`, new TextDecoder().decode(reply.body));
      const { log, metrics } = o;
      if (metrics || (log && o.config.log.requests)) {
        scope.whenDone(() => {
          const entry = scope.finishLog(status, error);
          if (log && o.config.log.requests) log(entry);
          metrics?.record(entry);
        });
      }
      return reply;
    };
}

/** An error reply outside any flow (unknown routes, hosted images), with a scope made on the spot. */
export function routeError(route: string, now: () => number, err: ProxyError, encode: (e: ProxyError) => EncodedError): Reply {
  return errorReply(new RequestScope(route, `req_${randomToken(24)}`, now), err, encode);
}
