/**
 * Valibot's issues in plain words with the field's path, the one home for them: a config
 * document's ("unknown field `apikey` at upstreams.openai (did you mean `apiKey`?)", "missing
 * field `upstreams`", "`keys` must be a list of strings, not a string") and a caller's request
 * ("missing field `contents`", "`temperature` must be a number, not a string"), where a dialect
 * frames them as its vendor does. What the words say comes from the issue (its path, kind, type
 * and the requirement) and from the schema at its path (the fields there, what a value must be):
 * never from the rejected value, which may be a key or a caller's text.
 *
 * Imports nothing: it reads valibot's issue and schema objects through their plain fields.
 */

/** A valibot issue, through the fields read here (`v.BaseIssue<unknown>` fits it). */
export interface IssueLike {
  readonly kind: string;
  readonly type: string;
  readonly input: unknown;
  readonly received: string;
  readonly message: string;
  readonly requirement?: unknown;
  readonly path?: ReadonlyArray<{ readonly origin?: string; readonly key?: unknown }>;
  readonly issues?: ReadonlyArray<IssueLike>;
}

type Issue = IssueLike;

/** A schema as valibot builds it, seen through the few fields read here. */
interface AnySchema {
  type: string;
  entries?: Record<string, AnySchema>;
  value?: AnySchema;
  item?: AnySchema;
  options?: AnySchema[] | readonly string[];
  wrapped?: AnySchema;
  literal?: unknown;
  /** A variant's discriminator. */
  key?: string;
  pipe?: ReadonlyArray<{ type: string; kind?: string; requirement?: unknown }>;
}

/** `upstreams.openai`, `keys[0]`, `models["gpt-4o"].upstream`; after `prefix` when given (`generationConfig.topK`). */
export function formatPath(keys: ReadonlyArray<string | number>, prefix = ''): string {
  let out = prefix;
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

/** The discriminator values a variant takes, its nested variants' included. */
function tags(s: AnySchema): string[] {
  return (s.options as AnySchema[]).flatMap((o) => {
    o = unwrap(o)!;
    if (o.type === 'variant') return tags(o);
    const d = unwrap(o.entries?.[s.key!]);
    if (d?.type === 'picklist') return [...(d.options as readonly string[])];
    return typeof d?.literal === 'string' ? [d.literal] : [];
  });
}

/** The schema a path leads to (through objects, records, lists and the object options of unions). */
function schemaAt(root: AnySchema, keys: ReadonlyArray<string | number>): AnySchema | undefined {
  let s = unwrap(root);
  for (const k of keys) {
    if (!s) return undefined;
    if (s.type === 'variant') {
      const opts = (s.options as AnySchema[]).map(unwrap).filter((o): o is AnySchema => !!o);
      // The discriminator: one of the options' literals.
      if (k === s.key) return { type: 'picklist', options: tags(s) };
      s = opts.find((o) => o.entries && String(k) in o.entries) ?? opts[0];
      if (!s) return undefined;
    }
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
    case 'picklist': {
      const options = (s.options as readonly string[]).map((o) => JSON.stringify(o));
      return options.length === 1 ? options[0]! : `one of ${options.join(', ')}`;
    }
    case 'literal':
      return JSON.stringify(s.literal);
    case 'array':
      return plural ? 'lists' : `a list of ${describe(s.item, true)}`;
    case 'object':
    case 'strict_object':
    case 'loose_object':
    case 'record':
    case 'variant':
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

/** How `describeIssue` places an issue: `prefix`, the path of the value checked within the whole (`generation_config`); `whole`, what the value is called when the issue is about all of it. */
export interface IssueWording {
  prefix?: string;
  whole?: string;
}

/** The path an issue is about, as `describeIssue` shows it (`contents[0].parts`). */
export function issuePath(issue: Issue, o: IssueWording = {}): string {
  return formatPath((issue.path ?? []).map((p) => p.key as string | number), o.prefix);
}

/**
 * The schema's own message for an issue (a dialect writes its vendor's words there: "Input should
 * be a valid number"), or undefined when it is valibot's default ("Invalid type: Expected number
 * but received "x""), which is jargon and quotes the value.
 */
export function ownMessage(issue: Issue): string | undefined {
  return /^Invalid \w+: (Expected [\s\S]* but r|R)eceived /.test(issue.message) ? undefined : issue.message;
}

/** What the schema wants where a schema issue points, in words ("a number", "one of "auto", "none""). */
export function expectedOf(root: unknown, issue: Issue): string {
  return describe(schemaAt(root as AnySchema, (issue.path ?? []).map((p) => p.key as string | number)));
}

/** One issue in plain words. `root`: the schema the value was checked against. */
export function describeIssue(root: unknown, issue: Issue, o: IssueWording = {}): string {
  const schema = root as AnySchema;
  // A union none of whose options fit: the deepest complaint of an option that got further
  // (`upstream: [{ "modle": … }]` is an unknown field, not "a string or a list"). Valibot gives
  // an option's issues paths relative to the union's.
  if (issue.type === 'union') {
    const deeper = (issue.issues ?? []).filter((i) => i.path?.length).map((i) => ({ ...i, path: [...(issue.path ?? []), ...i.path!] }) as Issue);
    if (deeper.length) return describeIssue(schema, deeper.reduce((a, b) => (b.path!.length > a.path!.length ? b : a)), o);
  }
  const keys = (issue.path ?? []).map((p) => p.key as string | number);
  const last = issue.path?.at(-1);
  const path = formatPath(keys, o.prefix);
  const field = path ? `\`${path}\`` : (o.whole ?? 'the value');
  if (last?.origin === 'key') {
    const name = String(keys.at(-1));
    const parent = formatPath(keys.slice(0, -1), o.prefix);
    if (issue.received === 'undefined') return `missing field \`${name}\`${at(parent)}`;
    const parentSchema = schemaAt(schema, keys.slice(0, -1));
    const object =
      parentSchema?.type === 'union' || parentSchema?.type === 'variant' ? (parentSchema.options as AnySchema[]).map(unwrap).find((o) => o?.entries) : parentSchema;
    const known = Object.keys(object?.entries ?? {}).filter((k) => k !== '$schema');
    const guess = nearest(name, known);
    return `unknown field \`${name}\`${at(parent)}${guess ? ` (did you mean \`${guess}\`?)` : ''}`;
  }
  const rule = issue.kind === 'schema' ? undefined : ruleOf(issue);
  return issue.kind !== 'schema' && rule === undefined ? `${field}: ${issue.message}` : `${field} ${reasonOf(schema, issue)}`;
}

/**
 * What is wrong with a value, without naming the field, for a dialect that puts the path first
 * (`temperature: must be a number, not a string`): what its schema wants, or what its rule asks.
 */
export function reasonOf(root: unknown, issue: Issue): string {
  if (issue.kind === 'schema') {
    const want = schemaAt(root as AnySchema, (issue.path ?? []).map((p) => p.key as string | number));
    const not = want?.type === 'picklist' || want?.type === 'literal' ? '' : `, not ${kindOf(issue.input)}`;
    return `must be ${expectedOf(root, issue)}${not}`;
  }
  return ruleOf(issue) ?? issue.message;
}

/**
 * What a rule (a validation: a bound, a length, a whole number, a form) asks, without the field:
 * "must be at least 1". Undefined when the schema words the rule itself (`ownMessage`).
 */
export function ruleOf(issue: Issue): string | undefined {
  const req = issue.requirement;
  switch (issue.type) {
    case 'min_value':
      return `must be at least ${String(req)}`;
    case 'max_value':
      return `must be at most ${String(req)}`;
    case 'integer':
      return 'must be a whole number';
    case 'min_length':
      if (Array.isArray(issue.input)) return req === 1 ? 'must not be an empty list' : `must list at least ${String(req)}`;
      return req === 1 ? 'must not be empty' : `must be at least ${String(req)} characters`;
    case 'max_length':
      return Array.isArray(issue.input) ? `must list at most ${String(req)}` : `must be at most ${String(req)} characters`;
    case 'url':
      return 'must be an absolute URL (https://…)';
    default:
      // A schema's own message says what is wanted; valibot's default ("Invalid format: Expected
      // /^a/ but received "b"") is jargon quoting the value, so it is not repeated.
      if (ownMessage(issue) !== undefined) return undefined;
      return issue.type === 'regex' ? 'is not in the expected form' : 'is not valid here';
  }
}

/** Every issue, one clause each, on one line (at most `max`, then how many more). */
export function describeIssues(root: unknown, issues: readonly Issue[], max = 3, o: IssueWording = {}): string {
  const said = [...new Set(issues.map((i) => describeIssue(root, i, o)))];
  const more = said.length - max;
  return said.slice(0, max).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** A clause as a caller's error message: capitalised, with a full stop ("Missing field `contents`."). */
export function asSentence(clause: string): string {
  return clause.charAt(0).toUpperCase() + clause.slice(1) + (/[.?!)]$/.test(clause) ? '' : '.');
}
