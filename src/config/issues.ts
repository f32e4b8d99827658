/**
 * Valibot's issues about a config document, in plain words with the path: "unknown field `apikey`
 * at upstreams.openai (did you mean `apiKey`?)", "missing `upstreams`", "`keys` must be a list of
 * strings, not a string". What the words say comes from the issue (its path, kind, type and the
 * requirement) and from the schema at its path (the fields there, what a value must be): never
 * from the rejected value, which may be a key.
 */
import type * as v from 'valibot';

type Issue = v.BaseIssue<unknown>;

/** A schema as valibot builds it, seen through the few fields read here. */
interface AnySchema {
  type: string;
  entries?: Record<string, AnySchema>;
  value?: AnySchema;
  item?: AnySchema;
  options?: AnySchema[] | readonly string[];
  wrapped?: AnySchema;
  literal?: unknown;
  pipe?: ReadonlyArray<{ type: string; kind?: string; requirement?: unknown }>;
}

/** `upstreams.openai`, `keys[0]`, `models["gpt-4o"].upstream`. */
export function formatPath(keys: ReadonlyArray<string | number>): string {
  let out = '';
  for (const k of keys) {
    if (typeof k === 'number') out += `[${k}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(k)) out += out ? `.${k}` : k;
    else out += `[${JSON.stringify(k)}]`;
  }
  return out;
}

function unwrap(s: AnySchema | undefined): AnySchema | undefined {
  while (s && (s.type === 'optional' || s.type === 'nullable' || s.type === 'nullish' || s.type === 'exact_optional')) s = s.wrapped;
  return s;
}

/** The schema a path leads to (through objects, records, lists and the object options of unions). */
function schemaAt(root: AnySchema, keys: ReadonlyArray<string | number>): AnySchema | undefined {
  let s = unwrap(root);
  for (const k of keys) {
    if (!s) return undefined;
    if (s.type === 'union') {
      const opts = (s.options as AnySchema[]).map(unwrap).filter((o): o is AnySchema => !!o);
      s = opts.find((o) => (typeof k === 'number' ? o.type === 'array' : !!o.entries || o.type === 'record')) ?? opts[0];
      if (!s) return undefined;
    }
    if (s.entries) s = unwrap(s.entries[String(k)]);
    else if (s.type === 'record') s = unwrap(s.value);
    else if (s.type === 'array') s = unwrap(s.item);
    else return undefined;
  }
  return s;
}

/** What a value of this schema is, in words: "a string", "a list of strings", "one of …". */
function describe(s: AnySchema | undefined, plural = false): string {
  s = unwrap(s);
  if (!s) return plural ? 'values' : 'a value';
  const rule = (type: string) => s!.pipe?.find((a) => a.type === type)?.requirement;
  switch (s.type) {
    case 'string':
      return plural ? 'strings' : rule('min_length') ? 'a non-empty string' : 'a string';
    case 'number': {
      const whole = s.pipe?.some((a) => a.type === 'integer');
      const min = rule('min_value');
      const noun = whole ? (plural ? 'whole numbers' : 'a whole number') : plural ? 'numbers' : 'a number';
      return min === undefined ? noun : `${noun} of at least ${String(min)}`;
    }
    case 'boolean':
      return 'true or false';
    case 'picklist':
      return `one of ${(s.options as readonly string[]).map((o) => JSON.stringify(o)).join(', ')}`;
    case 'literal':
      return JSON.stringify(s.literal);
    case 'array':
      return plural ? 'lists' : `a list of ${describe(s.item, true)}`;
    case 'object':
    case 'strict_object':
    case 'loose_object':
    case 'record':
      return plural ? 'objects' : 'an object ({ … })';
    case 'union':
      return (s.options as AnySchema[]).map((o) => describe(o, plural)).join(' or ');
    default:
      return plural ? 'values' : 'a value';
  }
}

/** What a value is, by its JSON type only (never its text). */
function kindOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  switch (typeof input) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return input ? 'true' : 'false';
    case 'object':
      return 'an object';
    default:
      return 'nothing';
  }
}

/**
 * Edits between two names, a swap of neighbours counting as one (`modle` → `model`), a change of
 * case as half of one (`apikey` is nearest `apiKey`).
 */
function distance(a: string, b: string): number {
  if (a.toLowerCase() === b.toLowerCase()) return 0.5;
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known field a mistyped one most likely meant (two edits at most), if any. */
export function nearest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.min(2, Math.floor(name.length / 3)) + 0.5;
  for (const k of known) {
    const d = distance(name, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

const at = (path: string) => (path ? ` at ${path}` : '');

/** One issue in plain words. */
export function describeIssue(root: AnySchema, issue: Issue): string {
  // A union none of whose options fit: the deepest complaint of an option that got further
  // (`upstream: [{ "modle": … }]` is an unknown field, not "a string or a list"). Valibot gives
  // an option's issues paths relative to the union's.
  if (issue.type === 'union') {
    const deeper = (issue.issues ?? []).filter((i) => i.path?.length).map((i) => ({ ...i, path: [...(issue.path ?? []), ...i.path!] }) as Issue);
    if (deeper.length) return describeIssue(root, deeper.reduce((a, b) => (b.path!.length > a.path!.length ? b : a)));
  }
  const keys = (issue.path ?? []).map((p) => p.key as string | number);
  const last = issue.path?.at(-1) as { origin?: string } | undefined;
  const path = formatPath(keys);
  const field = `\`${path || 'the config'}\``;
  if (last?.origin === 'key') {
    const name = String(keys.at(-1));
    const parent = formatPath(keys.slice(0, -1));
    if (issue.received === 'undefined') return `missing \`${name}\`${at(parent)}`;
    const parentSchema = schemaAt(root, keys.slice(0, -1));
    const object = parentSchema?.type === 'union' ? (parentSchema.options as AnySchema[]).map(unwrap).find((o) => o?.entries) : parentSchema;
    const known = Object.keys(object?.entries ?? {}).filter((k) => k !== '$schema');
    const guess = nearest(name, known);
    return `unknown field \`${name}\`${at(parent)}${guess ? ` (did you mean \`${guess}\`?)` : ''}`;
  }
  const req = (issue as { requirement?: unknown }).requirement;
  if (issue.kind === 'schema') {
    const want = schemaAt(root, keys);
    const not = want?.type === 'picklist' || want?.type === 'literal' ? '' : `, not ${kindOf(issue.input)}`;
    return `${field} must be ${describe(want)}${not}`;
  }
  switch (issue.type) {
    case 'min_value':
      return `${field} must be at least ${String(req)}`;
    case 'max_value':
      return `${field} must be at most ${String(req)}`;
    case 'integer':
      return `${field} must be a whole number`;
    case 'min_length':
      if (Array.isArray(issue.input)) return req === 1 ? `${field} must not be an empty list` : `${field} must list at least ${String(req)}`;
      return req === 1 ? `${field} must not be empty` : `${field} must be at least ${String(req)} characters`;
    case 'url':
      return `${field} must be an absolute URL (https://…)`;
    default:
      // Valibot's own words, without the received value they end with.
      return `${field}: ${issue.message.replace(/,? ?but received .*$/is, '').replace(/^Invalid \w+: /, '')}`;
  }
}

/** Every issue, one clause each, on one line (at most `max`, then how many more). */
export function describeIssues(root: AnySchema, issues: readonly Issue[], max = 3): string {
  const said = [...new Set(issues.map((i) => describeIssue(root, i)))];
  const more = said.length - max;
  return said.slice(0, max).join('; ') + (more > 0 ? `; and ${more} more` : '');
}
