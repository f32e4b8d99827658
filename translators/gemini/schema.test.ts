import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../../test/support/fixtures.ts';
import { compileSchema } from './schema.ts';
import { geminiSchemaToJsonSchema } from './decode-schema.ts';

describe('compileSchema', () => {
  it('plain object schema: types upper-cased, nothing dropped', () => {
    const { value, warnings } = compileSchema(
      { type: 'object', properties: { city: { type: 'string', description: 'City' }, n: { type: 'integer', minimum: 1 } }, required: ['city'] },
      'p',
    );
    expect(value).toEqual({
      type: 'OBJECT',
      properties: { city: { type: 'STRING', description: 'City' }, n: { type: 'INTEGER', minimum: 1 } },
      required: ['city'],
    });
    expect(warnings).toEqual([]);
  });

  it('resolves $ref into $defs and definitions, siblings override', () => {
    const { value, warnings } = compileSchema(
      {
        type: 'object',
        properties: {
          a: { $ref: '#/$defs/Addr', description: 'home' },
          b: { $ref: '#/definitions/Num' },
        },
        $defs: { Addr: { type: 'object', properties: { street: { type: 'string' } }, description: 'an address' } },
        definitions: { Num: { type: 'number' } },
      },
      'p',
    );
    expect(value).toEqual({
      type: 'OBJECT',
      properties: {
        a: { type: 'OBJECT', properties: { street: { type: 'STRING' } }, description: 'home' },
        b: { type: 'NUMBER' },
      },
    });
    expect(warnings).toEqual([]);
  });

  it('detects $ref cycles and truncates with a lossy warning', () => {
    const { value, warnings } = compileSchema(
      {
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node' } },
        $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
      },
      'p',
    );
    expect(value).toEqual({
      type: 'OBJECT',
      properties: {
        root: {
          type: 'OBJECT',
          properties: { name: { type: 'STRING' }, children: { type: 'ARRAY', items: { type: 'OBJECT' } } },
        },
      },
    });
    expect(warnings).toEqual([
      { code: 'approximated', path: 'p.properties.root.properties.children.items.$ref', detail: 'recursion-truncated', lossy: true },
    ]);
  });

  it('a self-referencing root (#) is cut too', () => {
    const { value } = compileSchema({ type: 'object', properties: { next: { $ref: '#' } } }, 'p');
    expect(value).toEqual({ type: 'OBJECT', properties: { next: { type: 'OBJECT' } } });
  });

  it('const → one-value enum; type [T, null] and anyOf-with-null → nullable', () => {
    const { value, warnings } = compileSchema(
      {
        type: 'object',
        properties: {
          kind: { const: 'circle' },
          name: { type: ['string', 'null'] },
          tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
          mixed: { type: ['string', 'number'] },
          either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        },
      },
      'p',
    );
    expect(value).toEqual({
      type: 'OBJECT',
      properties: {
        kind: { type: 'STRING', enum: ['circle'] },
        name: { type: 'STRING', nullable: true },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, nullable: true },
        mixed: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
        either: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
      },
    });
    expect(warnings).toEqual([
      { code: 'approximated', path: 'p.properties.kind.const', detail: 'enum' },
      { code: 'approximated', path: 'p.properties.either.oneOf', detail: 'anyOf' },
    ]);
  });

  it('drops keywords Gemini rejects, one warning each', () => {
    const { value, warnings } = compileSchema(
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'x',
        $comment: 'c',
        type: 'object',
        additionalProperties: false,
        propertyNames: { pattern: '^a' },
        patternProperties: { '^x': { type: 'string' } },
        unevaluatedProperties: false,
        if: {},
        then: {},
        else: {},
        examples: [{}],
        properties: { email: { type: 'string', format: 'email' }, when: { type: 'string', format: 'date-time' } },
      },
      'tools[0].parameters',
    );
    expect(value).toEqual({
      type: 'OBJECT',
      properties: { email: { type: 'STRING', format: 'email' }, when: { type: 'STRING', format: 'date-time' } },
    });
    expect(warnings.map((w) => w.path).sort()).toEqual(
      [
        '$schema',
        '$id',
        '$comment',
        'additionalProperties',
        'propertyNames',
        'patternProperties',
        'unevaluatedProperties',
        'if',
        'then',
        'else',
        'examples',
      ]
        .map((k) => `tools[0].parameters.${k}`)
        .sort(),
    );
    expect(warnings.every((w) => w.code === 'dropped')).toBe(true);
  });

  it('required names that are not properties are removed', () => {
    const { value, warnings } = compileSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'ghost'] }, 'p');
    expect(value.required).toEqual(['a']);
    expect(warnings).toEqual([{ code: 'dropped', path: 'p.required', detail: 'unknown-property' }]);
  });

  it('never an OBJECT with empty properties, at any depth (Gemini: "should be non-empty for OBJECT type")', () => {
    const empty = { type: 'object', properties: {} };
    const { value, warnings } = compileSchema(
      {
        type: 'object',
        properties: {
          options: { ...empty, description: 'Free-form options' },
          nested: { type: 'object', properties: { deeper: { type: 'object', properties: { deepest: empty } } } },
          list: { type: 'array', items: empty },
          union: { anyOf: [empty, { type: 'string' }] },
          maybe: { type: ['object', 'null'], properties: {} },
          multi: { type: ['object', 'string'], properties: {} },
          merged: { allOf: [empty, { properties: {} }] },
          ref: { $ref: '#/$defs/Empty' },
          required: { ...empty, required: ['ghost'] },
        },
        $defs: { Empty: empty },
      },
      'p',
    );
    const objects: unknown[] = [];
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) return n.forEach(walk);
      if (!n || typeof n !== 'object') return;
      const r = n as Record<string, unknown>;
      if (r.type === 'OBJECT') objects.push(r);
      Object.values(r).forEach(walk);
    };
    walk(value);
    expect(objects.length).toBeGreaterThan(9);
    for (const o of objects as Array<Record<string, unknown>>) {
      expect(o.properties === undefined || Object.keys(o.properties as object).length > 0, JSON.stringify(o)).toBe(true);
    }
    const props = value.properties as Record<string, Record<string, unknown>>;
    expect(props.options).toEqual({ type: 'OBJECT', description: 'Free-form options' });
    expect(props.list).toEqual({ type: 'ARRAY', items: { type: 'OBJECT' } });
    expect(props.maybe).toEqual({ type: 'OBJECT', nullable: true });
    expect(props.required).toEqual({ type: 'OBJECT' });
    expect(warnings).toContainEqual({ code: 'dropped', path: 'p.properties.required.required', detail: 'unknown-property' });
    // An object that has properties keeps them.
    expect((props.nested!.properties as Record<string, unknown>).deeper).toEqual({ type: 'OBJECT', properties: { deepest: { type: 'OBJECT' } } });
  });

  it('allOf merges object schemas', () => {
    const { value } = compileSchema(
      { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } }, required: ['b'] }] },
      'p',
    );
    expect(value).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } }, required: ['a', 'b'] });
  });

  it('compiles the structured-output fixture schema', () => {
    const schema = fixtureJson('gemini', 'structured-output-response-json-schema.request.json').generationConfig.responseJsonSchema;
    const { value, warnings } = compileSchema(schema, 's');
    const props = value.properties as Record<string, Record<string, unknown>>;
    expect(props.nullableField).toEqual({ type: 'STRING', nullable: true });
    expect(props.nullableArrayField).toEqual({ type: 'ARRAY', items: { type: 'STRING' }, nullable: true });
    expect(props.nullableObjectField).toEqual({
      type: 'OBJECT',
      properties: { innerNumber: { type: 'NUMBER' }, innerString: { type: 'STRING' } },
      required: ['innerString', 'innerNumber'],
      nullable: true,
    });
    expect(props.unionField).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] });
    expect(props.stringDatatime).toEqual({ type: 'STRING', format: 'date-time' });
    expect(props.numberWithMinMax).toEqual({ type: 'NUMBER', minimum: 1, maximum: 10 });
    expect(value.required).toHaveLength(15);
    expect(warnings.map((w) => w.path)).toEqual([
      's.properties.inner.additionalProperties',
      's.properties.nullableObjectField.anyOf[0].additionalProperties',
      's.$schema',
      's.additionalProperties',
    ]);
  });
});

describe('geminiSchemaToJsonSchema', () => {
  it('inverts the compiler for ordinary schemas', () => {
    const json = {
      type: 'object',
      properties: { a: { type: ['string', 'null'], description: 'd' }, b: { type: 'array', items: { type: 'integer' } } },
      required: ['a'],
    };
    expect(geminiSchemaToJsonSchema(compileSchema(json, 'p').value)).toEqual(json);
  });
});

describe('compileSchema: each keyword Gemini lacks, and what it became', () => {
  const cases: [string, unknown, unknown, unknown[]][] = [
    ['a non-schema is dropped, true and {} mean anything', { type: 'object', properties: { a: 5, b: true, c: {} } }, { type: 'OBJECT', properties: { a: {}, b: {}, c: {} } }, [{ code: 'dropped', path: 'p.properties.a', detail: 'not-a-schema' }]],
    [
      'types: unknown ones dropped, null as nullable, case-insensitive',
      { type: 'object', properties: { a: { type: 'foo' }, b: { type: ['string', 'null'] }, c: { type: ['Integer', 7] } } },
      { type: 'OBJECT', properties: { a: {}, b: { type: 'STRING', nullable: true }, c: { type: 'INTEGER' } } },
      [{ code: 'dropped', path: 'p.properties.a.type', detail: 'foo' }],
    ],
    [
      'const and enum: string values only, null as nullable',
      { type: 'object', properties: { a: { const: null }, b: { enum: [1, 2] }, c: { const: 5 }, d: { enum: ['x', null] }, e: { const: 'k' } } },
      { type: 'OBJECT', properties: { a: { nullable: true }, b: {}, c: {}, d: { enum: ['x'], type: 'STRING', nullable: true }, e: { enum: ['k'], type: 'STRING' } } },
      [{ code: 'dropped', path: 'p.properties.b.enum' }, { code: 'dropped', path: 'p.properties.c.const' }, { code: 'approximated', path: 'p.properties.e.const', detail: 'enum' }],
    ],
    [
      'anyOf: a null-only branch (type or enum [null]) is nullable; oneOf is read as anyOf',
      { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { enum: [null] }] }, b: { anyOf: [{ type: 'string' }, { enum: [null, 'x'] }] }, c: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } },
      { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true }, b: { anyOf: [{ type: 'STRING' }, { enum: ['x'], type: 'STRING', nullable: true }] }, c: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] } } },
      [{ code: 'approximated', path: 'p.properties.c.oneOf', detail: 'anyOf' }],
    ],
    [
      'several types: one branch each, with only its own keywords',
      { type: ['object', 'array', 'null'], properties: { a: { type: 'string' } }, required: ['a'], items: { type: 'string' } },
      { anyOf: [{ type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['a'] }, { type: 'ARRAY', items: { type: 'STRING' } }], nullable: true },
      [],
    ],
    [
      'tuple items: the first item schema; items alone mean an array',
      { type: 'object', properties: { a: { type: 'array', items: [] }, b: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, c: { items: { type: 'string' } } } },
      { type: 'OBJECT', properties: { a: { type: 'ARRAY' }, b: { type: 'ARRAY', items: { type: 'STRING' } }, c: { type: 'ARRAY', items: { type: 'STRING' } } } },
      [{ code: 'approximated', path: 'p.properties.a.items', detail: 'tuple' }, { code: 'approximated', path: 'p.properties.b.items', detail: 'tuple' }],
    ],
    [
      'exclusive bounds become inclusive ones, unless an inclusive one is there',
      { type: 'object', properties: { a: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 }, b: { type: 'number', minimum: 1, exclusiveMinimum: 0, maximum: 9, exclusiveMaximum: 10 } } },
      { type: 'OBJECT', properties: { a: { type: 'NUMBER', minimum: 0, maximum: 10 }, b: { type: 'NUMBER', minimum: 1, maximum: 9 } } },
      [
        { code: 'approximated', path: 'p.properties.a.exclusiveMinimum', detail: 'minimum' },
        { code: 'approximated', path: 'p.properties.a.exclusiveMaximum', detail: 'maximum' },
        { code: 'dropped', path: 'p.properties.b.exclusiveMinimum' },
        { code: 'dropped', path: 'p.properties.b.exclusiveMaximum' },
      ],
    ],
    [
      '$ref: escaped pointers resolve; missing, remote or through a non-schema ones are dropped, lossy',
      { type: 'object', properties: { a: { $ref: '#/$defs/Nope' }, b: { $ref: 'http://x/y' }, c: { $ref: '#/$defs/a~1b' }, d: { $ref: '#/properties/e/type/x' }, e: { type: 'string' } }, $defs: { 'a/b': { type: 'integer' } } },
      { type: 'OBJECT', properties: { a: {}, b: {}, c: { type: 'INTEGER' }, d: {}, e: { type: 'STRING' } } },
      [
        { code: 'dropped', path: 'p.properties.a.$ref', detail: 'unresolved', lossy: true },
        { code: 'dropped', path: 'p.properties.b.$ref', detail: 'unresolved', lossy: true },
        { code: 'dropped', path: 'p.properties.d.$ref', detail: 'unresolved', lossy: true },
      ],
    ],
    [
      'a self reference is cut to an object; required names that are no property are dropped',
      { type: 'object', properties: { r: { $ref: '#' } }, required: ['r', 'zz', 3] },
      { type: 'OBJECT', properties: { r: { type: 'OBJECT' } }, required: ['r'] },
      [{ code: 'approximated', path: 'p.properties.r.$ref', detail: 'recursion-truncated', lossy: true }, { code: 'dropped', path: 'p.required', detail: 'unknown-property' }],
    ],
    [
      'allOf: properties and required united, other keywords from the first that has them; one branch is no approximation',
      { type: 'object', properties: { o: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'], description: 'x' }] }, p: { type: 'object', allOf: [{ properties: { a: { type: 'string' } } }] } } },
      { type: 'OBJECT', properties: { o: { type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'INTEGER' } }, required: ['a', 'b'], description: 'x' }, p: { type: 'OBJECT', properties: { a: { type: 'STRING' } } } } },
      [{ code: 'approximated', path: 'p.properties.o.allOf', detail: 'merged' }],
    ],
    [
      'kept keywords pass, nullable:false is no nullable, mixed enums are dropped, properties alone mean an object',
      { type: 'object', properties: { s: { type: 'string', nullable: true, format: 'date-time', title: 'T', description: 'D', pattern: '^a' }, n: { type: 'number', nullable: false }, m: { enum: ['a', 1] }, i: { properties: { x: { type: 'boolean' } } } } },
      { type: 'OBJECT', properties: { s: { type: 'STRING', format: 'date-time', title: 'T', description: 'D', pattern: '^a', nullable: true }, n: { type: 'NUMBER' }, m: {}, i: { type: 'OBJECT', properties: { x: { type: 'BOOLEAN' } } } } },
      [{ code: 'dropped', path: 'p.properties.m.enum' }],
    ],
    ['an anyOf of one type and null is that type, nullable, with the outer description', { description: 'outer', anyOf: [{ type: 'string', description: 'inner' }, { type: 'null' }] }, { type: 'STRING', description: 'outer', nullable: true }, []],
  ];
  it.each(cases)('%s', (_label, schema, value, warnings) => {
    expect(compileSchema(schema, 'p')).toEqual({ value, warnings });
  });
});
