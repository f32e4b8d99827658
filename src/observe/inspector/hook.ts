/**
 * What the request path knows of the inspector: a hook the Node entry hands the app (types only,
 * so nothing of the inspector reaches the Worker bundle). `begin` is called once per request when
 * the inspector is on; the scope's wire dump feeds the tap, and `end` closes the exchange.
 */
import type { LogEntry, RequestScope } from '../scope.ts';

export interface ExchangeTap {
  /** One wire-dump stage (see observe/debug.ts): caller request, upstream request/response/events… */
  dump(stage: string, data: unknown, times?: readonly number[]): void;
  /** The request is over (its stream included): the log entry and the caller's status. */
  end(entry: LogEntry, headers: Record<string, string>): void;
}

/** What the inspector reads of the caller's request (http/inbound.ts `CallerRequest` fits). */
export interface InspectedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  query: Record<string, string>;
}

export interface InspectorHook {
  begin(scope: RequestScope, req: InspectedRequest, credential: string | undefined): ExchangeTap;
}
