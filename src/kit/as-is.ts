/**
 * Does a value pass a valibot schema *as it is*? A caller's request is checked against its
 * dialect's valibot schema, which always builds a full copy of what it checks (every object and
 * array of a 2 MB conversation, only to be thrown away). `passesAsIs` reads the schema's own
 * description (its `type`, `entries`, `item`, `wrapped`, `options`, `pipe`, …) and says true only
 * when valibot would accept the value and give back an equal value: then the value itself serves
 * as the output. Anything it does not know (a transformation, a default, a fallback, a regex, a
 * key valibot would drop, an array where an object is wanted) makes it say false, and the caller
 * runs valibot as before, so a rejected request gets valibot's own issue, path and message. Key
 * order may differ from valibot's copy (which puts the schema's keys first); nothing reads it.
 *
 * Each schema is turned once into a tree of small check functions (kept per schema object), which
 * walk the value without allocating; an array's items frozen whole (`isFrozenWhole`: the turn
 * memo's) are checked once. Imports only the kit's JSON tests: it reads the schema objects' plain fields.
 */
import { isFrozenWhole, isJsonObject as isObject } from './json.ts';

/** The parts of a valibot schema or action this reads. */
interface Described {
  kind?: string;
  type?: string;
  pipe?: Described[];
  entries?: Record<string, Described>;
  item?: Described;
  wrapped?: Described;
  options?: unknown[];
  key?: unknown;
  value?: Described;
  literal?: unknown;
  requirement?: unknown;
  default?: unknown;
  fallback?: unknown;
  /** A custom schema's own check. */
  check?: (value: unknown) => unknown;
}

type Check = (value: unknown) => boolean;

const has = Object.prototype.hasOwnProperty;
/** Keys valibot leaves out of its copy of an object or record. */
const dropped = (key: string) => key === '__proto__' || key === 'prototype' || key === 'constructor';
const never: Check = () => false;
const always: Check = () => true;

const checks = new WeakMap<object, Check>();

/** True when `value` passes `schema` and valibot's output would equal `value`. */
export function passesAsIs(schema: unknown, value: unknown): boolean {
  return checkOf(schema as Described)(value);
}

function checkOf(s: Described): Check {
  let check = checks.get(s);
  if (!check) {
    check = build(s);
    checks.set(s, check);
  }
  return check;
}

function build(s: Described): Check {
  if (s.default !== undefined || s.fallback !== undefined) return never;
  if (s.pipe) return piped(s.pipe);
  switch (s.type) {
    case 'unknown':
    case 'any':
      return always;
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && !Number.isNaN(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'literal': {
      const literal = s.literal;
      return (v) => v === literal;
    }
    case 'picklist': {
      const options = s.options;
      return Array.isArray(options) ? (v) => options.includes(v) : never;
    }
    case 'optional':
    case 'exact_optional': {
      const inner = checkOf(s.wrapped!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = checkOf(s.wrapped!);
      return (v) => v === null || inner(v);
    }
    case 'nullish': {
      const inner = checkOf(s.wrapped!);
      return (v) => v === null || v === undefined || inner(v);
    }
    case 'array': {
      const item = checkOf(s.item!);
      // An item the turn memo froze whole (an agent's earlier message) never changes: once it
      // passes, it passes every time (a check is a function of the value alone).
      const passed = new WeakSet<object>();
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) {
          const x = v[i];
          if (!isFrozenWhole(x)) {
            if (!item(x)) return false;
          } else if (!passed.has(x)) {
            if (!item(x)) return false;
            passed.add(x);
          }
        }
        return true;
      };
    }
    case 'loose_object':
      return entriesCheck(s.entries!, true);
    case 'object':
    case 'strict_object':
      return entriesCheck(s.entries!, false);
    case 'record': {
      const key = checkOf(s.key as Described);
      const item = checkOf(s.value!);
      return (v) => {
        if (!isObject(v)) return false;
        for (const k in v) if (!has.call(v, k) || dropped(k) || !key(k) || !item(v[k])) return false;
        return true;
      };
    }
    case 'custom': {
      // valibot's custom schema passes its input through when its check says yes.
      const check = s.check;
      return typeof check === 'function' ? (v) => Boolean(check(v)) : never;
    }
    case 'union':
      return unionCheck(s.options as Described[]);
    case 'variant':
      return variantCheck(String(s.key), s.options as Described[]);
    default:
      return never;
  }
}

function entriesCheck(entries: Record<string, Described>, loose: boolean): Check {
  const keys = Object.keys(entries);
  const subs = keys.map((k) => checkOf(entries[k]!));
  // A key that may be absent: optional without a default or fallback (valibot then adds nothing).
  const mayLack = keys.map((k) => {
    const e = entries[k]!;
    return (e.type === 'optional' || e.type === 'exact_optional' || e.type === 'nullish') && e.default === undefined && e.fallback === undefined;
  });
  return (v) => {
    if (!isObject(v)) return false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k in v) {
        if (!subs[i]!(v[k])) return false;
      } else if (!mayLack[i]) return false;
    }
    for (const k in v) {
      if (!has.call(v, k) || dropped(k)) return false;
      if (!loose && !has.call(entries, k)) return false;
    }
    return true;
  };
}

/** valibot's union takes the first option that passes: an earlier option must surely fail. */
function unionCheck(options: Described[]): Check {
  const passes = options.map(checkOf);
  const fails = options.map(failsOf);
  return (v) => {
    for (let i = 0; i < passes.length; i++) {
      if (passes[i]!(v)) return true;
      if (!fails[i]!(v)) return false;
    }
    return false;
  };
}

/** valibot's variant tries the options whose discriminator matches, in order. */
function variantCheck(key: string, options: Described[]): Check {
  const discriminators: Check[] = [];
  const passes: Check[] = [];
  for (const option of options) {
    if (option.type !== 'loose_object' && option.type !== 'object' && option.type !== 'strict_object') return never;
    const d = option.entries?.[key];
    if (!d || (d.type !== 'literal' && d.type !== 'picklist') || d.pipe) return never;
    discriminators.push(checkOf(d));
    passes.push(checkOf(option));
  }
  return (v) => {
    if (!isObject(v) || !(key in v)) return false;
    const d = v[key];
    for (let i = 0; i < passes.length; i++) if (discriminators[i]!(d)) return passes[i]!(v);
    return false;
  };
}

/** A check that is true only when the value's kind alone makes valibot reject it. */
function failsOf(schema: Described): Check {
  const s = schema.pipe ? schema.pipe[0]! : schema;
  if (s.default !== undefined || s.fallback !== undefined) return never;
  switch (s.type) {
    case 'string':
      return (v) => typeof v !== 'string';
    case 'number':
      return (v) => typeof v !== 'number' || Number.isNaN(v);
    case 'boolean':
      return (v) => typeof v !== 'boolean';
    case 'null':
      return (v) => v !== null;
    case 'literal': {
      const literal = s.literal;
      return (v) => v !== literal && !(typeof v === 'number' && Number.isNaN(v));
    }
    case 'picklist': {
      const options = s.options;
      return Array.isArray(options) ? (v) => !options.includes(v) : never;
    }
    case 'array':
      return (v) => !Array.isArray(v);
    case 'loose_object':
    case 'object':
    case 'strict_object':
    case 'record':
    case 'variant':
      return (v) => v === null || typeof v !== 'object';
    case 'optional':
    case 'exact_optional': {
      const inner = failsOf(s.wrapped!);
      return (v) => v !== undefined && inner(v);
    }
    case 'nullable': {
      const inner = failsOf(s.wrapped!);
      return (v) => v !== null && inner(v);
    }
    case 'nullish': {
      const inner = failsOf(s.wrapped!);
      return (v) => v !== null && v !== undefined && inner(v);
    }
    default:
      return never;
  }
}

function piped(pipe: Described[]): Check {
  const base = checkOf(pipe[0]!);
  const actions: Check[] = [];
  for (let i = 1; i < pipe.length; i++) {
    const a = pipe[i]!;
    if (a.kind === 'metadata') continue;
    const action = a.kind === 'validation' ? actionOf(a) : undefined;
    if (!action) return never;
    actions.push(action);
  }
  return (v) => {
    if (!base(v)) return false;
    for (let i = 0; i < actions.length; i++) if (!actions[i]!(v)) return false;
    return true;
  };
}

/** A validation action as a check of an already typed value; undefined for one not known here. */
function actionOf(a: Described): Check | undefined {
  const r = a.requirement;
  type Sized = { length: number };
  switch (a.type) {
    case 'integer':
      return (v) => Number.isInteger(v);
    case 'min_value':
      return (v) => (v as number) >= (r as number);
    case 'max_value':
      return (v) => (v as number) <= (r as number);
    case 'min_length':
      return (v) => (v as Sized).length >= (r as number);
    case 'max_length':
      return (v) => (v as Sized).length <= (r as number);
    case 'length':
      return (v) => (v as Sized).length === r;
    case 'check':
      return typeof r === 'function' ? (v) => Boolean((r as (x: unknown) => unknown)(v)) : undefined;
    default:
      return undefined;
  }
}

/**
 * valibot's `safeParse(schema, value)` without its copy when the value passes as it is: then the
 * value itself, as a successful result; else valibot's own result (its copy, or its issues).
 * Given valibot's function, so that canonical imports nothing.
 */
export function safeParseAsIs<S, R>(safeParse: (schema: S, value: unknown) => R, schema: S, value: unknown): R {
  return passesAsIs(schema, value) ? ({ typed: true, success: true, output: value, issues: undefined } as R) : safeParse(schema, value);
}
