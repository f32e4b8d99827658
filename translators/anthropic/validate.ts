/** Caller-side validation: valibot issues → the real API's `path: reason` 400 messages. */
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import { safeParseAsIs } from '../../src/kit/index.ts';

/** Parse `value` with `schema`; on failure throw `invalid-request` naming `prefix.path`. */
export function parseWire<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  prefix: string,
): v.InferOutput<S> {
  // Valid as it is (nearly always): no copy. Otherwise valibot, for its issue.
  const result = safeParseAsIs(v.safeParse, schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const sub = v.getDotPath(issue);
  const path = [prefix, sub].filter((s) => s !== null && s !== '').join('.');
  const missing = issue.received === 'undefined' && sub !== null;
  const reason = missing ? 'Field required' : issue.message;
  throw invalid(path, reason);
}

/** A 400 whose message starts with the parameter, as the real API writes it. */
export function invalid(path: string, reason: string): ProxyError {
  const message = path ? `${path}: ${reason}` : reason;
  return new ProxyError('invalid-request', message, { param: path || undefined });
}
