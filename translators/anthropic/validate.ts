/** Caller-side validation: valibot issues → 400s naming the field in the real API's words where the schema has them (`path: Field required`), else in plain words (src/kit/issues.ts), never valibot's. */
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import { ownMessage, reasonOf, safeParseAsIs } from '../../src/kit/index.ts';

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
  // A missing field as the API words it (`messages: Field required`); anything else in plain
  // words naming the field, never valibot's ("Invalid type: Expected number but received …").
  if (issue.received === 'undefined' && sub !== null) throw invalid(path, 'Field required');
  const own = ownMessage(issue);
  if (own !== undefined) throw invalid(path, own);
  throw invalid(path, reasonOf(schema, issue));
}

/** A 400 whose message starts with the parameter, as the real API writes it. */
export function invalid(path: string, reason: string): ProxyError {
  const message = path ? `${path}: ${reason}` : reason;
  return new ProxyError('invalid-request', message, { param: path || undefined });
}
