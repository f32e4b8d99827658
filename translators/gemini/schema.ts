/**
 * JSON Schema ⇄ Gemini `Schema` (the OpenAPI 3.0 subset of
 * https://ai.google.dev/api/caching#Schema).
 *
 * `compileSchema` (upstream side) turns a caller's JSON Schema into what `parameters` /
 * `responseSchema` accept on every Gemini model: `$ref`/`$defs`/`definitions` are inlined
 * (a recursive reference is cut at the cycle to a bare OBJECT, with a lossy warning), `const` →
 * one-value `enum`, `type: [T, "null"]` and `anyOf` with a null branch → `nullable`, `oneOf` →
 * `anyOf`, single/object `allOf` merged, types upper-cased, an empty `properties` left out (Gemini
 * refuses it on an OBJECT), and every keyword outside the Schema field list is dropped with one
 * warning per change. We use the compiled OpenAPI fields rather
 * than `parametersJsonSchema` / `responseJsonSchema` because they work on every Gemini model
 * (the JSON-Schema-native fields need 2.5+); callers that sent the native fields to a Gemini
 * upstream reach it unchanged through the passthrough path.
 *
 * The caller side (Gemini `Schema` → JSON Schema) is decode-schema.ts.
 */
import type { Warning } from '../../src/canonical/index.ts';
import { isRecord, type Json } from './json.ts';

/** Schema fields Gemini accepts, copied as they are. */
const KEPT = new Set([
  'title',
  'description',
  'nullable',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'pattern',
  'example',
  'default',
  'propertyOrdering',
]);

/** Consumed by the compiler itself (never copied, never warned about). */
const CONSUMED = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'format',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
]);

/** The JSON Schema types Gemini knows, each with its Gemini (upper-case) name. */
const TYPES = new Map([
  ['string', 'STRING'],
  ['number', 'NUMBER'],
  ['integer', 'INTEGER'],
  ['boolean', 'BOOLEAN'],
  ['array', 'ARRAY'],
  ['object', 'OBJECT'],
]);

interface Ctx {
  root: unknown;
  warnings: Warning[];
  refStack: string[];
}

/** A local JSON pointer (`#/…`; `#` alone is always a cycle, caught before this). */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function isNullSchema(s: unknown): boolean {
  return isRecord(s) && (s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null));
}

/** Compile one JSON Schema (an object schema for tool parameters / response formats). */
export function compileSchema(schema: unknown, path: string): { value: Json; warnings: Warning[] } {
  const ctx: Ctx = { root: schema, warnings: [], refStack: ['#'] };
  return { value: compile(schema, path, ctx), warnings: ctx.warnings };
}

const BRANCHES = ['anyOf', 'oneOf'] as const;

/** Add a declared type (lower-cased) to `types` unless unknown (warned); true for 'null'. */
function addType(types: string[], declared: string, path: string, ctx: Ctx): boolean {
  if (declared === 'null') return true;
  const t = declared.toLowerCase();
  if (TYPES.has(t)) types.push(t);
  else ctx.warnings.push({ code: 'dropped', path: `${path}.type`, detail: t });
  return false;
}

/** `type` (a list: 'null' makes it nullable), `const`/`enum` (into `out.enum`), or a type inferred. */
function typesOf(node: Json, path: string, ctx: Ctx, out: Json): { types: string[]; nullable: boolean } {
  let nullable = node.nullable === true;
  // type: string | string[] ('null' makes it nullable; unknown types are dropped with a warning)
  const types: string[] = [];
  const declared = node.type;
  if (typeof declared === 'string') nullable = addType(types, declared, path, ctx) || nullable;
  else if (Array.isArray(declared)) {
    if (declared.includes('null')) nullable = true;
    for (const t of declared) if (typeof t === 'string') addType(types, t, path, ctx);
  }

  // const → one-value enum (strings only: Gemini enums are string enums)
  let enumValues: unknown[] | undefined = Array.isArray(node.enum) ? node.enum : undefined;
  if (node.const !== undefined) {
    if (node.const === null) nullable = true;
    else enumValues = [node.const];
  }
  if (enumValues) {
    if (enumValues.includes(null)) {
      nullable = true;
      enumValues = enumValues.filter((e) => e !== null);
    }
    if (enumValues.every((e) => typeof e === 'string')) {
      if (node.const !== undefined) ctx.warnings.push({ code: 'approximated', path: `${path}.const`, detail: 'enum' });
      out.enum = enumValues;
      if (types.length === 0) types.push('string');
    } else {
      ctx.warnings.push({ code: 'dropped', path: `${path}.${node.const !== undefined ? 'const' : 'enum'}` });
    }
  }

  // Infer a missing type from the keywords present.
  if (types.length === 0) {
    if (isRecord(node.properties)) types.push('object');
    else if (node.items !== undefined) types.push('array');
  }
  return { types, nullable };
}

/**
 * anyOf / oneOf: null branches become `nullable` (the return); one branch left is merged in (this
 * schema's own keywords, copied later, win over the branch's).
 */
function compileBranches(node: Json, path: string, ctx: Ctx, out: Json): boolean {
  let nullable = false;
  for (const key of BRANCHES) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    if (key === 'oneOf') ctx.warnings.push({ code: 'approximated', path: `${path}.oneOf`, detail: 'anyOf' });
    const branches = list.filter((b) => {
      if (isNullSchema(b)) {
        nullable = true;
        return false;
      }
      return true;
    });
    if (branches.length === 1) {
      Object.assign(out, compile(branches[0], `${path}.${key}[0]`, ctx));
    } else if (branches.length > 1) {
      out.anyOf = branches.map((b, i) => compile(b, `${path}.${key}[${i}]`, ctx));
    }
  }
  return nullable;
}

/** `required`: the names `out` has properties for (or any, in an allOf branch), once each. */
function compileRequired(node: Json, path: string, ctx: Ctx, out: Json, inAllOf: boolean): void {
  // (Neither list: nothing required, nothing to warn about; `out.required` is only ever a list.)
  if (!Array.isArray(node.required) && !Array.isArray(out.required)) return;
  const named = [...(Array.isArray(node.required) ? node.required : []), ...(Array.isArray(out.required) ? out.required : [])];
  const props = isRecord(out.properties) ? out.properties : {};
  const required = named.filter((r): r is string => typeof r === 'string' && (inAllOf || r in props));
  if (required.length !== named.length) {
    ctx.warnings.push({ code: 'dropped', path: `${path}.required`, detail: 'unknown-property' });
  }
  delete out.required;
  if (required.length > 0) out.required = [...new Set(required)];
}

/** Every other keyword: kept, approximated (exclusive bounds as inclusive ones) or dropped, each reported. */
function copyKeywords(node: Json, path: string, ctx: Ctx, out: Json): void {
  for (const key in node) {
    const value = node[key];
    if (CONSUMED.has(key) || value === undefined) continue;
    if (KEPT.has(key)) {
      if (key === 'nullable') continue;
      out[key] = value;
    } else if (key === 'exclusiveMinimum' && typeof value === 'number' && out.minimum === undefined) {
      out.minimum = value;
      ctx.warnings.push({ code: 'approximated', path: `${path}.${key}`, detail: 'minimum' });
    } else if (key === 'exclusiveMaximum' && typeof value === 'number' && out.maximum === undefined) {
      out.maximum = value;
      ctx.warnings.push({ code: 'approximated', path: `${path}.${key}`, detail: 'maximum' });
    } else {
      ctx.warnings.push({ code: 'dropped', path: `${path}.${key}` });
    }
  }
}

/** `inAllOf`: a branch of an allOf, whose required names may be properties of another branch. */
function compile(node: unknown, path: string, ctx: Ctx, inAllOf = false): Json {
  if (node === true || node === undefined) return {};
  if (!isRecord(node)) {
    ctx.warnings.push({ code: 'dropped', path, detail: 'not-a-schema' });
    return {};
  }
  if (typeof node.$ref === 'string') return compileRef(node, path, ctx);

  const out: Json = {};
  const { types, nullable: typedNullable } = typesOf(node, path, ctx, out);
  const nullable = compileBranches(node, path, ctx, out) || typedNullable;

  if (types.length > 1) {
    // Several non-null types: one anyOf branch per type, each with its own keywords.
    out.anyOf = types.map((t) => {
      const own = t === 'object' ? { properties: node.properties, required: node.required } : t === 'array' ? { items: node.items } : {};
      return compile({ type: t, ...own }, path, ctx);
    });
  } else {
    if (types.length === 1) out.type = TYPES.get(types[0]!);
    if (isRecord(node.properties)) {
      const props: Json = {};
      const given = node.properties;
      const at = `${path}.properties.`;
      for (const name in given) props[name] = compile(given[name], at + name, ctx);
      out.properties = props;
    }
  }
  // allOf: merged in (properties and required united; any other keyword from this schema itself,
  // else from the first branch that has it). A branch's required names are checked here, against
  // every property the merge defines.
  if (Array.isArray(node.allOf)) {
    if (node.allOf.length > 1) ctx.warnings.push({ code: 'approximated', path: `${path}.allOf`, detail: 'merged' });
    node.allOf.forEach((b, i) => mergeInto(out, compile(b, `${path}.allOf[${i}]`, ctx, true)));
  }
  if (types.length <= 1) compileRequired(node, path, ctx, out, inAllOf);
  if (types.length <= 1 && node.items !== undefined) {
    if (Array.isArray(node.items)) {
      ctx.warnings.push({ code: 'approximated', path: `${path}.items`, detail: 'tuple' });
      if (node.items.length > 0) out.items = compile(node.items[0], `${path}.items[0]`, ctx);
    } else if (isRecord(node.items)) {
      out.items = compile(node.items, `${path}.items`, ctx);
    }
  }

  // "format: Any value is allowed, but most do not trigger any special functionality."
  if (typeof node.format === 'string') out.format = node.format;
  copyKeywords(node, path, ctx, out);
  // Gemini refuses an OBJECT whose `properties` is empty, at any depth ("should be non-empty for
  // OBJECT type"); without it the OBJECT is free-form, which is what `{}` meant (as the AI SDK's
  // Google provider sends it).
  if (isRecord(out.properties) && Object.keys(out.properties).length === 0) delete out.properties;
  if (nullable) out.nullable = true;
  return out;
}

function mergeInto(target: Json, src: Json): void {
  for (const [k, v] of Object.entries(src)) {
    if (k === 'properties' && isRecord(v)) {
      const merged: Json = { ...(isRecord(target.properties) ? target.properties : {}) };
      for (const [name, sub] of Object.entries(v)) if (!(name in merged)) merged[name] = sub;
      target.properties = merged;
    } else if (k === 'required' && Array.isArray(v)) {
      const prev = Array.isArray(target.required) ? target.required : [];
      target.required = [...new Set([...prev, ...v])];
    } else if (target[k] === undefined) {
      target[k] = v;
    }
  }
}

function compileRef(node: Json, path: string, ctx: Ctx): Json {
  const ref = node.$ref as string;
  if (ctx.refStack.includes(ref)) {
    ctx.warnings.push({ code: 'approximated', path: `${path}.$ref`, detail: 'recursion-truncated', lossy: true });
    const out: Json = { type: 'OBJECT' };
    if (typeof node.description === 'string') out.description = node.description;
    return out;
  }
  const target = resolvePointer(ctx.root, ref);
  if (target === undefined) {
    ctx.warnings.push({ code: 'dropped', path: `${path}.$ref`, detail: 'unresolved', lossy: true });
    return {};
  }
  ctx.refStack.push(ref);
  const resolved = compile(target, path, ctx);
  ctx.refStack.pop();
  // Sibling keywords of $ref (description, title…) override the referenced schema's.
  const { $ref: _ref, ...siblings } = node;
  const overlay = compile(siblings, path, ctx);
  return { ...resolved, ...overlay };
}
