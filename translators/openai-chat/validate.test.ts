import * as v from 'valibot';
import { expect, test, describe } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { decimalIn, nameSchema, parseAt, typeWord, integerIn, issueError, msg, oneOf } from './validate.ts';

function fail(schema: v.GenericSchema, value: unknown, prefix = ''): ProxyError {
  try {
    parseAt(schema, value, prefix);
  } catch (e) {
    return e as ProxyError;
  }
  throw new Error('expected failure');
}

test('params are OpenAI paths with the prefix', () => {
  const schema = v.looseObject({ a: v.array(v.looseObject({ b: decimalIn(0, 1) })) });
  const err = fail(schema, { a: [{ b: 0 }, { b: 2 }] }, 'messages[3]');
  expect(err.param).toBe('messages[3].a[1].b');
  expect(err.message).toBe("Invalid 'messages[3].a[1].b': decimal above maximum value. Expected a value <= 1, but got 2 instead.");
  expect(parseAt(schema, { a: [], extra: 1 }, '')).toEqual({ a: [], extra: 1 });
});

test('names and type words', () => {
  expect(fail(nameSchema, '', 'tools[0].function.name').message).toMatch(/string too short/);
  expect(fail(nameSchema, 'a b', 'x').message).toBe("Invalid 'x': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.");
  expect([null, [], 'x', 1, 1.5, true, {}].map(typeWord)).toEqual(['null', 'an array', 'a string', 'an integer', 'a decimal', 'a boolean', 'an object']);
});

describe('validate: error codes and words', () => {
  function fail(schema: v.GenericSchema, value: unknown, prefix = 'x'): [string | undefined, string] {
    try {
      parseAt(schema, value, prefix);
    } catch (e) {
      expect(e).toBeInstanceOf(ProxyError);
      return [(e as ProxyError).code, (e as ProxyError).message];
    }
    throw new Error('expected failure');
  }

  const obj = (schema: v.GenericSchema) => v.looseObject({ f: schema });

  // Schemas are built inside the test (not when the table is), so each message template is run by it.
  test.each<[string, () => v.GenericSchema, unknown, string, string]>([
    ['missing', () => obj(v.string()), {}, 'missing_required_parameter', "Missing required parameter: 'x.f'."],
    ['wrong type', () => v.string(), 5, 'invalid_type', "Invalid type for 'x': expected a string, but got an integer instead."],
    ['not one of', () => oneOf(['a', 'b', 'c']), 'd', 'invalid_value', "Invalid value: 'd'. Supported values are: 'a', 'b', and 'c'."],
    ['not one of, an object', () => oneOf(['a']), { k: [1] }, 'invalid_value', 'Invalid value: \'{"k":[1]}\'. Supported values are: \'a\'.'],
    ['wrong literal', () => v.literal('function'), 'tool', 'invalid_value', "Invalid type for 'x': expected a specific value, but got a string instead."],
    ['unknown variant', () => v.variant('type', [v.looseObject({ type: v.literal('a') })]), { type: 'b' }, 'invalid_value', 'Invalid type for \'x.type\': expected "a", but got a string instead.'],
    ['decimal below', () => decimalIn(0, 2), -1.5, 'decimal_below_min_value', "Invalid 'x': decimal below minimum value. Expected a value >= 0, but got -1.5 instead."],
    ['integer above', () => integerIn(1, 5), 6, 'integer_above_max_value', "Invalid 'x': integer above maximum value. Expected a value <= 5, but got 6 instead."],
    ['integer below', () => integerIn(1, 5), 0, 'integer_below_min_value', "Invalid 'x': integer below minimum value. Expected a value >= 1, but got 0 instead."],
    ['not an integer', () => integerIn(1, 5), 2.5, 'invalid_type', "Invalid type for 'x': expected an integer, but got a decimal instead."],
    ['empty array', () => v.pipe(v.array(v.string()), v.minLength(1, msg.arrayMin(1))), [], 'empty_array', "Invalid 'x': empty array. Expected an array with minimum length 1, but got an empty array instead."],
    ['short array', () => v.pipe(v.array(v.string()), v.minLength(2, msg.arrayMin(2))), ['a'], 'array_below_min_length', "Invalid 'x': array too short. Expected an array with minimum length 2, but got an array with length 1 instead."],
    ['long array', () => v.pipe(v.array(v.string()), v.maxLength(1, msg.arrayMax(1))), ['a', 'b'], 'array_above_max_length', "Invalid 'x': array too long. Expected an array with maximum length 1, but got an array with length 2 instead."],
    ['empty string', () => nameSchema, '', 'string_below_min_length', "Invalid 'x': string too short. Expected a string with minimum length 1, but got a string with length 0 instead."],
    ['long string', () => nameSchema, 'a'.repeat(65), 'string_above_max_length', "Invalid 'x': string too long. Expected a string with maximum length 64, but got a string with length 65 instead."],
    ['bad pattern', () => nameSchema, 'a b', 'invalid_value', "Invalid 'x': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."],
    [
      'too many properties',
      () => v.pipe(v.record(v.string(), v.string()), v.maxEntries(1, "Invalid '{param}': too many properties. Expected at most 1, but got {count} instead.")),
      { a: '1', b: '2' },
      'object_above_max_properties',
      "Invalid 'x': too many properties. Expected at most 1, but got 2 instead.",
    ],
    ['a check with its own words', () => v.pipe(v.string(), v.check(() => false, 'must be shorter')), 'abc', 'invalid_value', "Invalid value for 'x': must be shorter."],
  ])('%s', (_name, schema, value, code, message) => {
    expect(fail(schema(), value)).toEqual([code, message]);
  });

  test('a value of no JSON type is named by its JavaScript type', () => {
    expect([undefined, 1n, () => 1].map(typeWord)).toEqual(['undefined', 'bigint', 'function']);
  });
});

describe('message templates for inputs they do not expect', () => {
  test('{count} of a value that is not an object is 0', () => {
    const err = fail(v.pipe(v.string(), v.check(() => false, "Invalid '{param}': {count} keys.")), 'abc', 'x');
    expect(err.message).toBe("Invalid 'x': 0 keys.");
  });

  test('a rule that fails on an undefined value is an invalid value, not a missing parameter', () => {
    const err = fail(v.object({ a: v.pipe(v.unknown(), v.check(() => false, 'must be set with b')) }), { a: undefined }, '');
    expect(err.message).toBe("Invalid value for 'a': must be set with b.");
  });

  test('a type failure of a schema with no word, the schema not given: expected a valid value', () => {
    const issue = v.safeParse(v.custom(() => false), 5).issues![0]!;
    expect(issueError('x', issue).message).toBe("Invalid type for 'x': expected a valid value, but got an integer instead.");
  });
});
