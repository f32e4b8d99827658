/**
 * Caller-side validation: the first valibot issue becomes a 400 naming the parameter the way the
 * Responses API does (`input[2].content[0].image_url`): "Missing required parameter: '…'.",
 * "Invalid type for '…': expected …, but got … instead.", "Invalid value for '…': …".
 */
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import { expectedOf, ruleOf, safeParseAsIs } from '../../src/kit/index.ts';

/** `input[2].content` from a prefix and an issue's path. */
function paramOf(prefix: string, issue: v.BaseIssue<unknown>): string {
  let out = prefix;
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    if (item.origin === 'key' && item.value !== undefined) break; // a bad record key names the record
    out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  return `a ${typeof value}`;
}

/** A 400 for a caller's mistake, naming the parameter. */
export function invalid(message: string, param: string, code = 'invalid_value'): ProxyError {
  return new ProxyError('invalid-request', message, { param, code });
}

/** Parse `value` with `schema`, or throw the 400 for its first issue. */
export function parseAt<S extends v.GenericSchema>(schema: S, value: unknown, prefix: string): v.InferOutput<S> {
  // Valid as it is (nearly always): no copy. Otherwise valibot, for its issue.
  const result = safeParseAsIs(v.safeParse, schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const param = paramOf(prefix, issue);
  if (issue.kind === 'schema' && issue.input === undefined) {
    throw invalid(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
  }
  if (issue.kind === 'schema' && (issue.type === 'picklist' || issue.type === 'literal' || issue.type === 'variant')) {
    throw invalid(`Invalid value for '${param}': expected ${expectedOf(schema, issue)}, but got ${JSON.stringify(issue.input)} instead.`, param);
  }
  if (issue.kind === 'schema' && issue.type === 'custom') {
    // (A custom check words its own message: `{param}` and `{got}` filled in here.)
    throw invalid(issue.message.replaceAll('{param}', param).replaceAll('{got}', kindOf(issue.input)), param, 'invalid_type');
  }
  if (issue.kind === 'schema') {
    throw invalid(`Invalid type for '${param}': expected ${expectedOf(schema, issue)}, but got ${kindOf(issue.input)} instead.`, param, 'invalid_type');
  }
  if (issue.type === 'integer') throw invalid(`Invalid type for '${param}': expected an integer, but got ${kindOf(issue.input)} instead.`, param, 'invalid_type');
  // A bound or a length: in plain words (src/kit/issues.ts), never valibot's.
  throw invalid(`Invalid value for '${param}': ${ruleOf(issue) ?? issue.message}.`, param);
}
