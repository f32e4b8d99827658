/**
 * Caller-side validation helpers: run a valibot schema and turn its first issue into a
 * `ProxyError('invalid-request')` whose message and `param` read like OpenAI's own
 * (`Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead.`).
 *
 * Schema messages are templates: `{param}` is the OpenAI-style path of the issue
 * (`messages[2].content[0].type`), `{input}` the offending value, `{got}` its type in words,
 * `{len}` its length, `{count}` its number of keys.
 */
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import { expectedOf, ruleOf, safeParseAsIs } from '../../src/kit/index.ts';

type AnyIssue = v.BaseIssue<unknown>;

/** `messages[2].role` from a prefix and a valibot issue path. */
export function paramOf(prefix: string, issue: AnyIssue): string {
  let out = prefix;
  for (const item of issue.path ?? []) {
    // A record's key that fails names the record itself (`metadata`), as OpenAI does.
    // (A missing object key also has origin `key`, but no value.)
    if (item.origin === 'key' && item.value !== undefined) break;
    const key = (item as { key?: unknown }).key;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** A value's JSON type in OpenAI's words: `a string`, `a decimal`, `an integer`, `an array`… */
export function typeWord(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a decimal';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const expectedWord: Record<string, string> = {
  string: 'a string',
  number: 'a decimal',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  loose_object: 'an object',
  record: 'an object',
  literal: 'a specific value',
};

function lengthOf(value: unknown): number {
  return typeof value === 'string' || Array.isArray(value) ? value.length : 0;
}

/** The error a failed parse means, with `prefix` prepended to the issue path. */
export function issueError(prefix: string, issue: AnyIssue, schema?: v.GenericSchema): ProxyError {
  const param = paramOf(prefix, issue);
  const input = issue.input;
  let message: string;
  if (issue.kind === 'schema' && input === undefined) {
    message = `Missing required parameter: '${param}'.`;
  } else if (issue.message.includes('{param}') || issue.message.includes('{input}')) {
    message = issue.message;
  } else if (issue.kind === 'schema') {
    const want = expectedWord[issue.type] ?? (schema ? expectedOf(schema, issue) : 'a valid value');
    message = `Invalid type for '{param}': expected ${want}, but got {got} instead.`;
  } else {
    // A rule without a template of OpenAI's words: its own message, else plain words (src/kit/issues.ts), never valibot's.
    message = `Invalid value for '{param}': ${ruleOf(issue) ?? issue.message}.`;
  }
  message = message
    .replaceAll('{param}', param)
    .replaceAll('{input}', typeof input === 'string' ? input : JSON.stringify(input))
    .replaceAll('{got}', typeWord(input))
    .replaceAll('{len}', String(lengthOf(input)))
    .replaceAll(
      '{count}',
      String(input && typeof input === 'object' ? Object.keys(input).length : 0),
    );
  return new ProxyError('invalid-request', message, { param, code: codeOf(issue) });
}

/** OpenAI's `code` for a validation failure (`invalid_type`, `decimal_above_max_value`…). */
function codeOf(issue: AnyIssue): string {
  const input = issue.input;
  if (issue.kind === 'schema') return input === undefined ? 'missing_required_parameter' : issue.type === 'picklist' || issue.type === 'variant' || issue.type === 'literal' ? 'invalid_value' : 'invalid_type';
  // The schema, not the input, decides: `decimalIn` / `integerIn` name it in their message.
  const numberKind = issue.message.includes('integer') ? 'integer' : 'decimal';
  const lengthKind = Array.isArray(input) ? 'array' : 'string';
  switch (issue.type) {
    case 'max_value':
      return `${numberKind}_above_max_value`;
    case 'min_value':
      return `${numberKind}_below_min_value`;
    case 'max_length':
      return `${lengthKind}_above_max_length`;
    case 'min_length':
      return Array.isArray(input) && input.length === 0 ? 'empty_array' : `${lengthKind}_below_min_length`;
    case 'max_entries':
      return 'object_above_max_properties';
    case 'integer':
      return 'invalid_type';
    default:
      return 'invalid_value';
  }
}

/**
 * Parse `value` with `schema`; throw the OpenAI-style error for the first issue. A value that
 * passes as it is serves as the output itself (no copy: a conversation is most of a body).
 */
export function parseAt<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  prefix: string,
): v.InferOutput<S> {
  const result = safeParseAsIs(v.safeParse, schema, value);
  if (result.success) return result.output;
  throw issueError(prefix, result.issues[0], schema);
}

// ---- message templates -------------------------------------------------------------------

export const msg = {
  decimalMax: (max: number) =>
    `Invalid '{param}': decimal above maximum value. Expected a value <= ${max}, but got {input} instead.`,
  decimalMin: (min: number) =>
    `Invalid '{param}': decimal below minimum value. Expected a value >= ${min}, but got {input} instead.`,
  integerMax: (max: number) =>
    `Invalid '{param}': integer above maximum value. Expected a value <= ${max}, but got {input} instead.`,
  integerMin: (min: number) =>
    `Invalid '{param}': integer below minimum value. Expected a value >= ${min}, but got {input} instead.`,
  integer: `Invalid type for '{param}': expected an integer, but got {got} instead.`,
  arrayMax: (max: number) =>
    `Invalid '{param}': array too long. Expected an array with maximum length ${max}, but got an array with length {len} instead.`,
  arrayMin: (min: number) =>
    min === 1
      ? `Invalid '{param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`
      : `Invalid '{param}': array too short. Expected an array with minimum length ${min}, but got an array with length {len} instead.`,
  stringMax: (max: number) =>
    `Invalid '{param}': string too long. Expected a string with maximum length ${max}, but got a string with length {len} instead.`,
  stringMin: (min: number) =>
    `Invalid '{param}': string too short. Expected a string with minimum length ${min}, but got a string with length {len} instead.`,
  pattern: (pattern: string) =>
    `Invalid '{param}': string does not match pattern. Expected a string that matches the pattern '${pattern}'.`,
  oneOf: (values: readonly string[]) =>
    `Invalid value: '{input}'. Supported values are: ${listWords(values)}.`,
};

function listWords(values: readonly string[]): string {
  const quoted = values.map((x) => `'${x}'`);
  // Stryker disable next-line StringLiteral: a list of one or none has nothing to join with
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** A finite number within [min, max] (OpenAI "decimal"). */
export function decimalIn(min: number, max: number) {
  return v.pipe(
    v.number(),
    v.minValue(min, msg.decimalMin(min)),
    v.maxValue(max, msg.decimalMax(max)),
  );
}

/** An integer within [min, max]. */
export function integerIn(min: number, max: number) {
  return v.pipe(
    v.number(msg.integer),
    v.integer(msg.integer),
    v.minValue(min, msg.integerMin(min)),
    v.maxValue(max, msg.integerMax(max)),
  );
}

/** One of `values`, with OpenAI's "Supported values are" message. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return v.picklist(values, msg.oneOf(values));
}

export const NAME_PATTERN = '^[a-zA-Z0-9_-]+$';

/** Function and schema names: `[a-zA-Z0-9_-]{1,64}`. */
export const nameSchema = v.pipe(
  v.string(),
  v.minLength(1, msg.stringMin(1)),
  v.maxLength(64, msg.stringMax(64)),
  v.regex(/^[a-zA-Z0-9_-]+$/, msg.pattern(NAME_PATTERN)),
);
