import * as v from 'valibot';
import { expect, test } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { decimalIn, nameSchema, parseAt, typeWord } from './validate.ts';

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
