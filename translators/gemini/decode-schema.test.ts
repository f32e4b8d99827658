import { describe, expect, it } from 'vitest';
import { geminiSchemaToJsonSchema } from './decode-schema.ts';

describe('geminiSchemaToJsonSchema: OpenAPI habits → JSON Schema', () => {
  it('the Gemini CLI model router schema (upper-case types) becomes plain JSON Schema', () => {
    const router = {
      type: 'OBJECT',
      properties: {
        reasoning: { type: 'STRING', description: 'why' },
        model_choice: { type: 'STRING', enum: ['flash', 'pro'] },
        scores: { type: 'ARRAY', items: { type: 'NUMBER', format: 'float' }, minItems: 1 },
        count: { type: 'INTEGER', format: 'int64' },
        ok: { type: 'BOOLEAN' },
        nothing: { type: 'NULL' },
        any: { type: 'TYPE_UNSPECIFIED', description: 'anything' },
      },
      required: ['reasoning', 'model_choice'],
      propertyOrdering: ['reasoning', 'model_choice'],
    };
    expect(geminiSchemaToJsonSchema(router)).toEqual({
      type: 'object',
      properties: {
        reasoning: { type: 'string', description: 'why' },
        model_choice: { type: 'string', enum: ['flash', 'pro'] },
        scores: { type: 'array', items: { type: 'number' }, minItems: 1 },
        count: { type: 'integer' },
        ok: { type: 'boolean' },
        nothing: { type: 'null' },
        any: { description: 'anything' },
      },
      required: ['reasoning', 'model_choice'],
    });
  });

  it('nullable becomes a type union with "null" (and null joins an enum)', () => {
    expect(geminiSchemaToJsonSchema({ type: 'STRING', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(geminiSchemaToJsonSchema({ type: 'STRING', enum: ['a'], format: 'enum', nullable: true })).toEqual({ type: ['string', 'null'], enum: ['a', null] });
    expect(geminiSchemaToJsonSchema({ type: ['STRING', 'NULL'], nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(geminiSchemaToJsonSchema({ type: 'STRING', nullable: false })).toEqual({ type: 'string' });
  });

  it('nullable anyOf gains a null branch; propertyOrdering dropped', () => {
    expect(geminiSchemaToJsonSchema({ anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true, propertyOrdering: ['x'] })).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }],
    });
  });

  it('rewrites sub-schemas wherever JSON Schema nests them, and only schemas', () => {
    const out = geminiSchemaToJsonSchema({
      type: 'OBJECT',
      properties: { type: { type: 'STRING', example: 'x' }, nullable: { type: 'BOOLEAN' } },
      additionalProperties: { type: 'INTEGER' },
      $defs: { node: { type: 'OBJECT', properties: { next: { $ref: '#/$defs/node' } } } },
      oneOf: [{ type: 'OBJECT' }],
      default: { type: 'KEEP' },
    });
    expect(out).toEqual({
      type: 'object',
      properties: { type: { type: 'string', examples: ['x'] }, nullable: { type: 'boolean' } },
      additionalProperties: { type: 'integer' },
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      oneOf: [{ type: 'object' }],
      default: { type: 'KEEP' },
    });
  });

  it('leaves a JSON Schema that has no OpenAPI habits as it was', () => {
    const json = {
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time' }, tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
      required: ['when'],
      additionalProperties: false,
    };
    expect(geminiSchemaToJsonSchema(json)).toEqual(json);
  });
});

describe('geminiSchemaToJsonSchema: nullable and the keywords around it', () => {
  it.each([
    [{ type: ['STRING', 'NULL'], nullable: true }, { type: ['string', 'null'] }],
    [{ type: ['STRING'], nullable: true, enum: ['a'] }, { type: ['string', 'null'], enum: ['a', null] }],
    [{ type: 'NULL', nullable: true }, { type: 'null' }],
    [{ anyOf: [{ type: 'STRING' }], nullable: true }, { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    [{ nullable: true, description: 'x' }, { description: 'x' }],
    [{ type: 'ARRAY', items: [{ type: 'STRING' }, 5] }, { type: 'array', items: [{ type: 'string' }, {}] }],
    [{ type: 'OBJECT', additionalProperties: true, not: { type: 'NULL' } }, { type: 'object', additionalProperties: true, not: { type: 'null' } }],
    [{ type: 5 }, { type: 5 }],
    [{ type: 'TYPE_UNSPECIFIED', example: 1, examples: [2] }, { examples: [2] }],
    [{ example: 'e' }, { examples: ['e'] }],
    [{ properties: 'x', anyOf: 'y' }, { properties: 'x', anyOf: 'y' }],
  ])('%j → %j', (schema, json) => {
    expect(geminiSchemaToJsonSchema(schema)).toEqual(json);
  });
});

describe('geminiSchemaToJsonSchema: the edges of each rewrite', () => {
  it.each([
    ['TYPE_UNSPECIFIED leaves a type list', { type: ['STRING', 'TYPE_UNSPECIFIED'] }, { type: ['string'] }],
    ['a format that is not a string is kept as sent', { type: 'NUMBER', format: 5 }, { type: 'number', format: 5 }],
    ['the OpenAPI precision formats go, others stay', { anyOf: [{ format: 'double' }, { format: 'int32' }, { format: 'email' }] }, { anyOf: [{}, {}, { format: 'email' }] }],
    ['an enum that already holds null gets no second one', { type: 'STRING', enum: ['a', null], nullable: true }, { type: ['string', 'null'], enum: ['a', null] }],
    ['a list where one schema belongs is kept as sent (only items may be a list)', { not: [{ type: 'STRING' }], items: { type: 'NULL' } }, { not: [{ type: 'STRING' }], items: { type: 'null' } }],
    ['every list keyword and map keyword is rewritten', { allOf: [{ type: 'OBJECT' }], prefixItems: [{ type: 'STRING' }], patternProperties: { '^a': { type: 'INTEGER' } }, definitions: { d: { type: 'BOOLEAN' } } }, { allOf: [{ type: 'object' }], prefixItems: [{ type: 'string' }], patternProperties: { '^a': { type: 'integer' } }, definitions: { d: { type: 'boolean' } } }],
    ['a non-object schema is no schema', 'STRING', {}],
  ])('%s', (_label, schema, json) => {
    expect(geminiSchemaToJsonSchema(schema)).toEqual(json);
  });
});
