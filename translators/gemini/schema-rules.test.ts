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
