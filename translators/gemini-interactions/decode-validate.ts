/**
 * Caller-side validation: the first valibot issue becomes an invalid-request `ProxyError` naming
 * the parameter (`input[2].content[0].data`), in Google's wording ("Invalid value at '…'"), which
 * the dialect's error encoder sends as `{"error":{"code":400,"message","status":"INVALID_ARGUMENT"}}`.
 */
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import { expectedOf, ruleOf } from '../../src/kit/index.ts';

/** A 400 for a caller's mistake, naming the parameter. */
export function invalid(message: string, param: string): ProxyError {
  return new ProxyError('invalid-request', message, { param });
}

/** `input[2].content` from a prefix and an issue's path. */
function paramOf(prefix: string, issue: v.BaseIssue<unknown>): string {
  let out = prefix;
  // Every record here has string keys and JSON keys are strings: no issue is ever about a key.
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out || 'body';
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Parse `value` with `schema`, or throw the 400 for its first issue. */
export function parseAt<S extends v.GenericSchema>(schema: S, value: unknown, prefix: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const param = paramOf(prefix, issue);
  if (issue.kind === 'schema' && issue.input === undefined) {
    throw invalid(`Invalid value at '${param}': required field is missing.`, param);
  }
  // (No literal is ever checked before its step or tool type has been dispatched on: a wrong type is a variant's issue.)
  if (issue.kind === 'schema' && (issue.type === 'picklist' || issue.type === 'variant')) {
    throw invalid(`Invalid value at '${param}' (${JSON.stringify(issue.input)}): expected ${expectedOf(schema, issue)}.`, param);
  }
  if (issue.kind === 'schema' && issue.type === 'custom') {
    // (A custom check words its own message: `{param}` and `{got}` filled in here.)
    throw invalid(issue.message.replaceAll('{param}', param).replaceAll('{got}', kindOf(issue.input)), param);
  }
  if (issue.kind === 'schema') {
    throw invalid(`Invalid value at '${param}': expected ${expectedOf(schema, issue)}, got ${kindOf(issue.input)}.`, param);
  }
  // A validation (a bound, a length, a whole number): in plain words (src/kit/issues.ts), never valibot's.
  const rule = ruleOf(issue);
  throw invalid(`Invalid value at '${param}': ${rule ?? issue.message}.`, param);
}

export { isJsonObject as isRecord } from '../../src/kit/index.ts';
