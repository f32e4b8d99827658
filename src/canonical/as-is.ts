/**
 * Does a value pass a valibot schema *as it is*? A caller's request is checked against its
 * dialect's valibot schema, which always builds a full copy of what it checks (every object and
 * array of a 2 MB conversation, only to be thrown away). `passesAsIs` walks the schema's own
 * description (its `type`, `entries`, `item`, `wrapped`, `options`, `pipe`, …) without
 * allocating, and says true only when valibot would accept the value and give back an equal
 * value: then the value itself serves as the output. Anything it does not know (a transformation,
 * a default, a fallback, a regex, a key valibot would drop, an array where an object is wanted)
 * makes it say false, and the caller runs valibot as before, so a rejected request gets valibot's
 * own issue, path and message. Key order may differ from valibot's copy (which puts the schema's
 * keys first); nothing reads it. Imports nothing: it reads the schema objects' plain fields.
 */

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
}

/** Keys valibot leaves out of its copy of an object or record. */
const DROPPED = new Set(['__proto__', 'prototype', 'constructor']);
const has = Object.prototype.hasOwnProperty;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** True when `value` passes `schema` and valibot's output would equal `value`. */
export function passesAsIs(schema: unknown, value: unknown): boolean {
  const s = schema as Described;
  if (s.default !== undefined || s.fallback !== undefined) return false;
  if (s.pipe) return passesPipe(s.pipe, value);
  switch (s.type) {
    case 'unknown':
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && !Number.isNaN(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'literal':
      return value === s.literal;
    case 'picklist':
      return Array.isArray(s.options) && s.options.includes(value);
    case 'optional':
    case 'exact_optional':
      return value === undefined || passesAsIs(s.wrapped, value);
    case 'nullable':
      return value === null || passesAsIs(s.wrapped, value);
    case 'nullish':
      return value === null || value === undefined || passesAsIs(s.wrapped, value);
    case 'array':
      return Array.isArray(value) && passesEach(s.item!, value);
    case 'loose_object':
      return isObject(value) && passesEntries(s.entries!, value, true);
    case 'object':
    case 'strict_object':
      return isObject(value) && passesEntries(s.entries!, value, false);
    case 'record':
      return isObject(value) && passesRecord(s.key as Described, s.value!, value);
    case 'union':
      return passesUnion(s.options as Described[], value);
    case 'variant':
      return isObject(value) && passesVariant(String(s.key), s.options as Described[], value);
    default:
      return false;
  }
}

function passesEach(item: Described, list: unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (!passesAsIs(item, list[i])) return false;
  return true;
}

function passesEntries(entries: Record<string, Described>, value: Record<string, unknown>, loose: boolean): boolean {
  for (const key in entries) {
    const sub = entries[key]!;
    if (key in value) {
      if (!passesAsIs(sub, value[key])) return false;
    } else if (!(sub.type === 'optional' || sub.type === 'exact_optional' || sub.type === 'nullish') || sub.default !== undefined || sub.fallback !== undefined) {
      return false;
    }
  }
  for (const key in value) {
    if (!has.call(value, key)) return false;
    if (DROPPED.has(key)) return false;
    if (!loose && !has.call(entries, key)) return false;
  }
  return true;
}

function passesRecord(key: Described, item: Described, value: Record<string, unknown>): boolean {
  for (const k in value) {
    if (!has.call(value, k) || DROPPED.has(k)) return false;
    if (!passesAsIs(key, k) || !passesAsIs(item, value[k])) return false;
  }
  return true;
}

/** valibot's union takes the first option that passes: an earlier option must surely fail. */
function passesUnion(options: Described[], value: unknown): boolean {
  for (const option of options) {
    if (passesAsIs(option, value)) return true;
    if (!surelyFails(option, value)) return false;
  }
  return false;
}

/** valibot's variant tries the options whose discriminator matches, in order. */
function passesVariant(key: string, options: Described[], value: Record<string, unknown>): boolean {
  for (const option of options) {
    if (option.type !== 'loose_object' && option.type !== 'object' && option.type !== 'strict_object') return false;
    const discriminator = option.entries?.[key];
    if (!discriminator || (discriminator.type !== 'literal' && discriminator.type !== 'picklist') || discriminator.pipe) return false;
    if (!(key in value) || !passesAsIs(discriminator, value[key])) continue;
    return passesAsIs(option, value);
  }
  return false;
}

/** True only when the value's kind alone makes valibot reject it. */
function surelyFails(schema: Described, value: unknown): boolean {
  const s = schema.pipe ? schema.pipe[0]! : schema;
  if (s.default !== undefined || s.fallback !== undefined) return false;
  switch (s.type) {
    case 'string':
      return typeof value !== 'string';
    case 'number':
      return typeof value !== 'number' || Number.isNaN(value);
    case 'boolean':
      return typeof value !== 'boolean';
    case 'null':
      return value !== null;
    case 'literal':
      return value !== s.literal && !(typeof value === 'number' && Number.isNaN(value));
    case 'picklist':
      return Array.isArray(s.options) && !s.options.includes(value);
    case 'array':
      return !Array.isArray(value);
    case 'loose_object':
    case 'object':
    case 'strict_object':
    case 'record':
    case 'variant':
      return value === null || typeof value !== 'object';
    case 'optional':
    case 'exact_optional':
      return value !== undefined && surelyFails(s.wrapped!, value);
    case 'nullable':
      return value !== null && surelyFails(s.wrapped!, value);
    case 'nullish':
      return value !== null && value !== undefined && surelyFails(s.wrapped!, value);
    default:
      return false;
  }
}

function passesPipe(pipe: Described[], value: unknown): boolean {
  if (!passesAsIs(pipe[0], value)) return false;
  for (let i = 1; i < pipe.length; i++) {
    const a = pipe[i]!;
    if (a.kind === 'metadata') continue;
    if (a.kind !== 'validation') return false;
    const r = a.requirement;
    const v = value as { length: number } & number;
    switch (a.type) {
      case 'integer':
        if (!Number.isInteger(value)) return false;
        break;
      case 'min_value':
        if (!(v >= (r as number))) return false;
        break;
      case 'max_value':
        if (!(v <= (r as number))) return false;
        break;
      case 'min_length':
        if (!(v.length >= (r as number))) return false;
        break;
      case 'max_length':
        if (!(v.length <= (r as number))) return false;
        break;
      case 'length':
        if (v.length !== r) return false;
        break;
      case 'check':
        if (typeof r !== 'function' || !r(value)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
