/**
 * compileSchema rule by rule: the JSON Schema a caller sent → the Gemini Schema on the wire and
 * the warnings the caller is told about (schema.test.ts has the common shapes and the fixtures).
 */
import { describe, expect, it } from 'vitest';
import { compileSchema } from './schema.ts';

type Case = [label: string, schema: unknown, value: unknown, warnings: unknown[]];

const obj = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: 'object', properties, ...more });
const OBJ = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: 'OBJECT', properties, ...more });

describe('compileSchema: allOf next to the schema own keywords', () => {
  const cases: Case[] = [
    [
      'a required name defined by a sibling allOf branch is kept, no warning',
      obj({ b: { type: 'string' } }, { required: ['a', 'b'], allOf: [{ properties: { a: { type: 'integer' } } }] }),
      OBJ({ b: { type: 'STRING' }, a: { type: 'INTEGER' } }, { required: ['a', 'b'] }),
      [],
    ],
    [
      'a branch may require what another branch defines; the merge checks every name once',
      { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { required: ['a', 'ghost'] }] },
      OBJ({ a: { type: 'STRING' } }, { required: ['a'] }),
      [
        { code: 'approximated', path: 'p.allOf', detail: 'merged' },
        { code: 'dropped', path: 'p.required', detail: 'unknown-property' },
      ],
    ],
    [
      'own properties and required are united with the branches (own first, own schema wins a name)',
      obj({ a: { type: 'string' } }, { required: ['a'], allOf: [{ properties: { a: { type: 'integer' }, c: { type: 'boolean' } }, required: ['c', 'a'] }] }),
      OBJ({ a: { type: 'STRING' }, c: { type: 'BOOLEAN' } }, { required: ['a', 'c'] }),
      [],
    ],
    [
      'between branches the first one wins a property name and any other keyword',
      { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, description: 'first' }, { properties: { a: { type: 'number' }, b: { type: 'number' } }, description: 'second', title: 'T' }] },
      OBJ({ a: { type: 'STRING' }, b: { type: 'NUMBER' } }, { description: 'first', title: 'T' }),
      [{ code: 'approximated', path: 'p.allOf', detail: 'merged' }],
    ],
    [
      'the schema own description and type win over a branch',
      { type: 'object', description: 'own', allOf: [{ type: 'string', description: 'branch', minLength: 2 }] },
      { type: 'OBJECT', description: 'own', minLength: 2 },
      [],
    ],
    [
      'a warning inside a branch names the branch',
      { allOf: [{ type: 'object' }, { properties: { x: { type: 'string', foo: 1 } } }] },
      OBJ({ x: { type: 'STRING' } }),
      [
        { code: 'approximated', path: 'p.allOf', detail: 'merged' },
        { code: 'dropped', path: 'p.allOf[1].properties.x.foo' },
      ],
    ],
  ];
  it.each(cases)('%s', (_label, schema, value, warnings) => {
    expect(compileSchema(schema, 'p')).toEqual({ value, warnings });
  });
});

describe('compileSchema: $ref pointers', () => {
  const defs = { 't~x': { type: 'boolean' }, 'sp ace': { type: 'number' }, pair: [{ type: 'string' }, { type: 'integer' }], Leaf: { type: 'string' } };
  const cases: Case[] = [
    ['~0 is a tilde, %-escapes are decoded', { $ref: '#/$defs/t~0x' }, { type: 'BOOLEAN' }, []],
    ['a percent-encoded name', { $ref: '#/$defs/sp%20ace' }, { type: 'NUMBER' }, []],
    ['a pointer through an array', { $ref: '#/$defs/pair/1' }, { type: 'INTEGER' }, []],
    ['a pointer that does not start with #/ is not resolved against the root', { $ref: 'x/$defs/Leaf' }, {}, [{ code: 'dropped', path: 'p.$ref', detail: 'unresolved', lossy: true }]],
    ['a pointer past a missing name', { $ref: '#/$defs/Nope/deeper' }, {}, [{ code: 'dropped', path: 'p.$ref', detail: 'unresolved', lossy: true }]],
    ['a pointer into a string', { $ref: '#/$defs/Leaf/type/length' }, {}, [{ code: 'dropped', path: 'p.$ref', detail: 'unresolved', lossy: true }]],
    ['a cut cycle keeps its description, nothing else', { $ref: '#', description: 'again', title: 'T' }, { type: 'OBJECT', description: 'again' }, [{ code: 'approximated', path: 'p.$ref', detail: 'recursion-truncated', lossy: true }]],
    ['a cut cycle without a description', { $ref: '#', description: 5 }, { type: 'OBJECT' }, [{ code: 'approximated', path: 'p.$ref', detail: 'recursion-truncated', lossy: true }]],
  ];
  it.each(cases)('%s', (_label, schema, value, warnings) => {
    const { value: got, warnings: told } = compileSchema({ type: 'object', properties: { f: schema }, $defs: defs }, 'r');
    expect({ value: (got.properties as Record<string, unknown>).f, warnings: told }).toEqual({
      value,
      warnings: warnings.map((w) => ({ ...(w as object), path: (w as { path: string }).path.replace(/^p/, 'r.properties.f') })),
    });
  });
});

describe('compileSchema: unions, enums, bounds and formats', () => {
  const cases: Case[] = [
    ['an anyOf of null alone is nullable, with no anyOf', { anyOf: [{ type: 'null' }] }, { nullable: true }, []],
    ['a one-value enum that is not null is a branch like any other', { anyOf: [{ type: 'integer' }, { enum: ['x'] }] }, { anyOf: [{ type: 'INTEGER' }, { type: 'STRING', enum: ['x'] }] }, []],
    [
      'warnings inside anyOf and oneOf branches name the branch',
      { anyOf: [{ type: 'string', foo: 1 }, { type: 'integer', bar: 2 }], oneOf: [{ type: 'string' }, { type: 'number', baz: 3 }] },
      { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      [
        { code: 'dropped', path: 'p.anyOf[0].foo' },
        { code: 'dropped', path: 'p.anyOf[1].bar' },
        { code: 'approximated', path: 'p.oneOf', detail: 'anyOf' },
        { code: 'dropped', path: 'p.oneOf[1].baz' },
      ],
    ],
    [
      'a single branch brings its keywords; the schema own title and description win',
      { title: 'outer', anyOf: [{ type: 'string', title: 'inner', description: 'from the branch', maxLength: 3 }, { type: 'null' }] },
      { type: 'STRING', title: 'outer', description: 'from the branch', maxLength: 3, nullable: true },
      [],
    ],
    ['a declared type stays with a string enum', { type: 'integer', enum: ['1', '2'] }, { type: 'INTEGER', enum: ['1', '2'] }, []],
    [
      'several types: the string branch gets no object keywords',
      { type: ['string', 'object'], properties: { a: { type: 'string' } }, required: ['a'] },
      { anyOf: [{ type: 'STRING' }, { type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['a'] }] },
      [],
    ],
    [
      'several types: the array branch gets the items, the number branch nothing',
      { type: ['number', 'array'], items: { type: 'boolean' }, properties: { a: { type: 'string' } } },
      { anyOf: [{ type: 'NUMBER' }, { type: 'ARRAY', items: { type: 'BOOLEAN' } }] },
      [],
    ],
    [
      'a boolean exclusive bound (draft 4) is dropped, not made a number',
      { type: 'number', exclusiveMinimum: true, exclusiveMaximum: false },
      { type: 'NUMBER' },
      [
        { code: 'dropped', path: 'p.exclusiveMinimum' },
        { code: 'dropped', path: 'p.exclusiveMaximum' },
      ],
    ],
    ['a format that is not a string is left out', { type: 'string', format: 5 }, { type: 'STRING' }, []],
    ['an empty required list sends none', obj({ a: { type: 'string' } }, { required: [] }), OBJ({ a: { type: 'STRING' } }), []],
  ];
  it.each(cases)('%s', (_label, schema, value, warnings) => {
    expect(compileSchema(schema, 'p')).toEqual({ value, warnings });
  });
});

describe('compileSchema: types, enums and keywords one by one', () => {
  const cases: Case[] = [
    ['true and an absent schema allow anything', obj({ a: true, b: undefined }), OBJ({ a: {}, b: {} }), []],
    ['false, a number or a list is no schema', obj({ a: false, b: 3, c: [] }), OBJ({ a: {}, b: {}, c: {} }), [
      { code: 'dropped', path: 'p.properties.a', detail: 'not-a-schema' },
      { code: 'dropped', path: 'p.properties.b', detail: 'not-a-schema' },
      { code: 'dropped', path: 'p.properties.c', detail: 'not-a-schema' },
    ]],
    ['a type in capitals is known; an unknown type is dropped, lower-cased in the warning', { type: 'OBJECT', properties: { a: { type: 'Date' }, b: { type: 'BOOLEAN' } } }, OBJ({ a: {}, b: { type: 'BOOLEAN' } }), [{ code: 'dropped', path: 'p.properties.a.type', detail: 'date' }]],
    ['a type list: entries that are no strings skipped, unknown ones dropped, one left is the type', { type: [5, 'integer', 'uuid'] }, { type: 'INTEGER' }, [{ code: 'dropped', path: 'p.type', detail: 'uuid' }]],
    ['a type list of only null is nullable without a type', { type: ['null'] }, { nullable: true }, []],
    ['type null alone is nullable', { type: 'null', description: 'nothing' }, { description: 'nothing', nullable: true }, []],
    ['nullable: true is kept once, nullable: false dropped silently', obj({ a: { type: 'string', nullable: true }, b: { type: 'string', nullable: false } }), OBJ({ a: { type: 'STRING', nullable: true }, b: { type: 'STRING' } }), []],
    ['an enum with null: nullable, the null left out, STRING inferred', { enum: ['a', null, 'b'] }, { type: 'STRING', enum: ['a', 'b'], nullable: true }, []],
    ['an enum of numbers is dropped (Gemini enums are strings); the type stays', { type: 'integer', enum: [1, 2] }, { type: 'INTEGER' }, [{ code: 'dropped', path: 'p.enum' }]],
    ['a const number is dropped under its own name', { type: 'number', const: 3 }, { type: 'NUMBER' }, [{ code: 'dropped', path: 'p.const' }]],
    ['const null is nullable, with no enum', { const: null }, { nullable: true }, []],
    ['const wins over enum', { enum: ['a', 'b'], const: 'b' }, { type: 'STRING', enum: ['b'] }, [{ code: 'approximated', path: 'p.const', detail: 'enum' }]],
    ['an enum that is no list is ignored', { type: 'string', enum: 'a' }, { type: 'STRING' }, []],
    ['properties without a type make an OBJECT, items an ARRAY', { properties: { a: { items: { type: 'string' } } } }, OBJ({ a: { type: 'ARRAY', items: { type: 'STRING' } } }), []],
    ['items that are no schema object still make an ARRAY, with no items', { items: true }, { type: 'ARRAY' }, []],
    ['tuple items: the first one, approximated; an empty tuple none', obj({ t: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, e: { type: 'array', items: [] } }), OBJ({ t: { type: 'ARRAY', items: { type: 'STRING' } }, e: { type: 'ARRAY' } }), [
      { code: 'approximated', path: 'p.properties.t.items', detail: 'tuple' },
      { code: 'approximated', path: 'p.properties.e.items', detail: 'tuple' },
    ]],
    ['exclusive bounds become inclusive ones, unless the inclusive one is given', obj({ a: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 9 }, b: { type: 'number', minimum: 1, exclusiveMinimum: 0, maximum: 5, exclusiveMaximum: 9 } }), OBJ({ a: { type: 'NUMBER', minimum: 0, maximum: 9 }, b: { type: 'NUMBER', minimum: 1, maximum: 5 } }), [
      { code: 'approximated', path: 'p.properties.a.exclusiveMinimum', detail: 'minimum' },
      { code: 'approximated', path: 'p.properties.a.exclusiveMaximum', detail: 'maximum' },
      { code: 'dropped', path: 'p.properties.b.exclusiveMinimum' },
      { code: 'dropped', path: 'p.properties.b.exclusiveMaximum' },
    ]],
    ['every kept keyword is copied as it is', { type: 'array', title: 't', description: 'd', minItems: 1, maxItems: 3, example: [1], default: [], items: { type: 'string', minLength: 1, maxLength: 2, pattern: '^a', format: 'enum' } }, { type: 'ARRAY', title: 't', description: 'd', minItems: 1, maxItems: 3, example: [1], default: [], items: { type: 'STRING', minLength: 1, maxLength: 2, pattern: '^a', format: 'enum' } }, []],
    ['object bounds and property ordering are kept', obj({ a: { type: 'integer', minimum: 0, maximum: 1 } }, { minProperties: 1, maxProperties: 2, propertyOrdering: ['a'] }), OBJ({ a: { type: 'INTEGER', minimum: 0, maximum: 1 } }, { minProperties: 1, maxProperties: 2, propertyOrdering: ['a'] }), []],
    ['a keyword set to undefined is no keyword', { type: 'string', foo: undefined, description: undefined }, { type: 'STRING' }, []],
    ['required names that are no strings are dropped; repeated ones sent once', obj({ a: { type: 'string' } }, { required: ['a', 3, 'a'] }), OBJ({ a: { type: 'STRING' } }, { required: ['a'] }), [{ code: 'dropped', path: 'p.required', detail: 'unknown-property' }]],
    ['required that is no list is ignored', obj({ a: { type: 'string' } }, { required: 'a' }), OBJ({ a: { type: 'STRING' } }), []],
    ['required of a single anyOf branch is checked in the branch, and kept by the schema', { anyOf: [obj({ a: { type: 'string' } }, { required: ['a', 'b'] }), { type: 'null' }] }, OBJ({ a: { type: 'STRING' } }, { required: ['a'], nullable: true }), [{ code: 'dropped', path: 'p.anyOf[0].required', detail: 'unknown-property' }]],
    ['an anyOf with null and two branches: nullable anyOf', { anyOf: [{ type: 'string' }, { enum: [null] }, { type: 'integer' }] }, { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }], nullable: true }, []],
    ['anyOf and oneOf that are no lists are ignored', { type: 'string', anyOf: {}, oneOf: 'x' }, { type: 'STRING' }, []],
    ['one allOf branch: merged without a warning', { allOf: [{ type: 'string', maxLength: 4 }] }, { type: 'STRING', maxLength: 4 }, []],
    ['allOf that is no list is ignored', { type: 'string', allOf: { type: 'number' } }, { type: 'STRING' }, []],
  ];
  it.each(cases)('%s', (_label, schema, value, warnings) => {
    expect(compileSchema(schema, 'p')).toStrictEqual({ value, warnings });
  });
});
