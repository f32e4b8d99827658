/**
 * Caller side: the schemas a Gemini caller sends (`parameters`, `parametersJsonSchema`,
 * `responseSchema`, `responseJsonSchema`) → canonical JSON Schema, which OpenAI and Anthropic
 * upstreams take as is.
 *
 * Gemini clients (the Gemini CLI's model router among them) send OpenAPI-style schemas in all
 * four fields (https://ai.google.dev/api/caching#Schema): upper-case types (`OBJECT`, `STRING`,
 * `TYPE_UNSPECIFIED`…), `nullable: true`, `propertyOrdering`, OpenAPI formats, `example`. Each
 * is rewritten to its JSON Schema meaning, without a warning since nothing is lost:
 * - types lower-cased (`TYPE_UNSPECIFIED` means no type);
 * - `nullable: true` → `"null"` added to `type` (or a `{type:"null"}` branch to `anyOf`), and
 *   `null` to an `enum`;
 * - `propertyOrdering` dropped (JSON Schema keeps property order), as are the OpenAPI formats
 *   that only describe precision or restate `enum` (`int32`, `int64`, `float`, `double`,
 *   `enum`); other formats (`date-time`…) are kept;
 * - `example` → `examples: [example]`;
 * - everything else (`enum`, `items`, `properties`, `required`, `description`, `anyOf`,
 *   `minItems`…) kept, with sub-schemas rewritten the same way wherever JSON Schema nests them.
 * A Gemini upstream gets the caller's fields untouched through the passthrough path.
 */
import { isRecord, type Json } from './json.ts';

/** OpenAPI formats with no JSON Schema meaning (number precision, and `enum` for strings). */
const OPENAPI_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'enum']);

/** Keywords whose value is one sub-schema / a list of them / a map of them. */
const ONE = new Set(['items', 'not', 'additionalProperties', 'contains', 'propertyNames', 'if', 'then', 'else', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties']);
const LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function lowerType(t: unknown): unknown {
  return typeof t === 'string' ? t.toLowerCase() : t;
}

/** A Gemini `Schema` (or a JSON Schema written with its OpenAPI habits) → JSON Schema. */
export function geminiSchemaToJsonSchema(schema: unknown): Json {
  if (!isRecord(schema)) return {};
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined) continue;
    if (key === 'type') {
      if (Array.isArray(value)) out.type = value.map(lowerType).filter((t) => t !== 'type_unspecified');
      else if (typeof value === 'string' && value.toUpperCase() !== 'TYPE_UNSPECIFIED') out.type = value.toLowerCase();
      else if (typeof value !== 'string') out.type = value;
    } else if (key === 'nullable' || key === 'propertyOrdering') {
      // Folded into `type` below / meaningless in JSON Schema.
    } else if (key === 'format') {
      if (typeof value !== 'string' || !OPENAPI_FORMATS.has(value)) out.format = value;
    } else if (key === 'example') {
      if (schema.examples === undefined) out.examples = [value];
    } else if (ONE.has(key)) {
      out[key] = isRecord(value) ? geminiSchemaToJsonSchema(value) : Array.isArray(value) && key === 'items' ? value.map(geminiSchemaToJsonSchema) : value;
    } else if (LIST.has(key)) {
      out[key] = Array.isArray(value) ? value.map(geminiSchemaToJsonSchema) : value;
    } else if (MAP.has(key)) {
      if (isRecord(value)) {
        const map: Json = {};
        for (const [name, sub] of Object.entries(value)) map[name] = geminiSchemaToJsonSchema(sub);
        out[key] = map;
      } else out[key] = value;
    } else {
      out[key] = value;
    }
  }
  if (schema.nullable === true) addNull(out);
  return out;
}

function addNull(out: Json): void {
  if (typeof out.type === 'string') out.type = out.type === 'null' ? 'null' : [out.type, 'null'];
  else if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
  } else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
  else return;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}
