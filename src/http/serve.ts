/**
 * Running one caller request through a handler, independent of the runtime that received it: the
 * request scope, caller auth, debug switches, errors in the caller's dialect, and the one log line
 * per request. The route table (app.ts) hands a `CallerRequest` in and takes a `Reply` out.
 */
import { ProxyError } from '../canonical/index.ts';
import type { EncodedError } from '../../translators/types.ts';
import type { Config, InboundKey } from '../config/load.ts';
import { errorReply, toProxyError, type Reply } from '../flows/reply.ts';
import { formatDump, headerFlag } from '../observe/debug.ts';
import type { Metrics } from '../observe/metrics.ts';
import { RequestScope, errorLine, randomToken, type LogEntry } from '../observe/scope.ts';
import type { Tracer } from '../observe/traces.ts';
import type { InspectorHook } from '../observe/inspector/hook.ts';
import { callerCredential, checkCallerKey } from './auth.ts';
import type { CallerRequest, Inbound } from './inbound.ts';

export type Handler = (scope: RequestScope, req: CallerRequest, inbound: Inbound) => Promise<Reply>;

export interface ServeOptions {
  config: Config;
  now: () => number;
  log?: (entry: LogEntry) => void;
  metrics?: Metrics;
  debugLog?: (text: string) => void;
  /** OpenTelemetry (`telemetry` configured): one server span per request. */
  tracer?: Tracer;
  /** The inspector (Node, when on): every exchange recorded through the wire dump. */
  inspector?: InspectorHook;
  /** Each key's limits and each request's cost (src/upstream/meter.ts). */
  meter?: Meter;
}

/** What the edge asks of the meter: may this key call an upstream now, and what did the request spend. */
export interface Meter {
  admit(scope: RequestScope, key: InboundKey | undefined): Promise<void> | undefined;
  settle(scope: RequestScope, entry: LogEntry, key: InboundKey | undefined): Promise<void> | undefined;
}

/** A plain token a caller may choose as its request id (it is echoed in headers and logs). */
const REQUEST_ID = /^[\w.:-]+$/;

export type Serve = (
  route: string,
  encodeError: (e: ProxyError) => EncodedError,
  fn: Handler,
  /** `auth: false`: no key asked (hosted images, unknown routes); `metered`: an upstream call the key's limits govern. */
  o?: { auth?: boolean; metered?: boolean },
) => (req: CallerRequest) => Promise<Reply>;

/** `serve(route, encodeError, handler)`: the handler, wrapped as described above. */
export function createServe(o: ServeOptions): Serve {
  return (route, encodeError, fn, opts) =>
    async (req: CallerRequest): Promise<Reply> => {
      const { headers, query } = req;
      const inbound: Inbound = { headers, query, credential: callerCredential(headers, query) };
      const given = headers['x-request-id'];
      const id = given && given.length <= 128 && REQUEST_ID.test(given) ? given : `req_${randomToken(24)}`;
      const scope = new RequestScope(route, id, o.now);
      if (req.socket) scope.log.socket = req.socket;
      // Caller disconnect aborts the upstream at once.
      req.onGone(() => scope.abort(new ProxyError('upstream', 'Caller disconnected.')));
      if (headers['x-interlingua-strict'] !== undefined) scope.flags.strict = headerFlag(headers['x-interlingua-strict']);
      if (headers['x-interlingua-dry-run'] !== undefined) scope.flags.dryRun = headerFlag(headers['x-interlingua-dry-run']);
      if (o.tracer) {
        const trace = (scope.trace = o.tracer.start(route, { method: req.method, path: req.path, origin: req.origin, traceparent: headers.traceparent, tracestate: headers.tracestate }, o.now));
        trace.waitUntil = req.waitUntil;
      }
      const { debugLog } = o;
      const tap = o.inspector?.begin(scope, req, inbound.credential);
      if (tap) {
        scope.dump = (stage, data, times) => {
          tap.dump(stage, data, times);
          if (debugLog) debugLog(formatDump(scope.requestId, stage, data));
        };
      } else if (debugLog) scope.dump = (stage, data) => debugLog(formatDump(scope.requestId, stage, data));
      let reply: Reply;
      let error: string | undefined;
      let key: InboundKey | undefined;
      try {
        if (opts?.auth !== false) {
          key = inbound.key = checkCallerKey(o.config.keys, inbound.credential);
          if (key) scope.log.keyName = key.name;
        }
        // Over a limit: a 429 before anything is read or sent (a dry run spends nothing).
        const admitted = opts?.metered && !scope.flags.dryRun ? o.meter?.admit(scope, key) : undefined;
        if (admitted) await admitted;
        reply = await fn(scope, req, inbound);
      } catch (e) {
        const err = toProxyError(e);
        error = errorLine(err);
        reply = errorReply(scope, err, encodeError);
      }
      const status = reply.status;
      if (scope.dump && typeof reply.body === 'string') scope.dump(`caller response (${status})`, reply.body);
      else if (scope.dump && reply.body instanceof Uint8Array) scope.dump(`caller response (${status})`, new TextDecoder().decode(reply.body));
      const { log, metrics } = o;
      const logging = !!log && o.config.log.requests;
      const { trace } = scope;
      const { meter } = o;
      scope.whenDone(() => {
        if (!logging && !metrics && !trace && !tap && !meter) return;
        const entry = scope.finishLog(status, error);
        const write = () => {
          tap?.end(entry, reply.headers);
          if (logging) log!(entry);
          metrics?.record(entry);
          try {
            trace?.end(entry);
          } catch {
            // Telemetry never fails a request.
          }
        };
        // Priced, and counted against the key's limits (the line says what counting failed).
        const counted = meter?.settle(scope, entry, key);
        if (!counted) return write();
        const done = counted.then(write);
        req.waitUntil?.(done);
      });
      return reply;
    };
}
