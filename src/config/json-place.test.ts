import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from './json-place.ts';
import { readJson } from './json-text.ts';

describe('a config text that is not JSON: where and why', () => {
  it.each([
    ['{"a": 1,}', 1, 8, 'a trailing comma before `}`'],
    ['{\n  "a": [1, 2,]\n}', 2, 13, 'a trailing comma before `]`'],
    ['{\n  "upstreams": {},\n  "models": {},\n}\n', 3, 15, 'a trailing comma before `}`'],
    ['{nope', 1, 2, 'a field name in double quotes was expected'],
    ["{'a': 1}", 1, 2, 'a field name in double quotes was expected'],
    ['{"a": tru}', 1, 7, 'something that is not JSON here (strings and field names need double quotes; true, false and null are lowercase)'],
    ['{"a" 1}', 1, 6, '`:` was expected after the field name'],
    ['{"a": 1 "b": 2}', 1, 9, 'a comma was expected (a missing `,`?)'],
    ['{"a": "x', 1, 7, 'a string that never ends (a missing `"`, or a line break inside it: write it as \\n)'],
    ['{"a": "\\q"}', 1, 7, 'an unknown escape after `\\` (write a backslash as `\\\\`)'],
    ['{"a": 1}}', 1, 9, 'more text after the end of the document'],
    ['{"a": [1, 2', 1, 12, 'the text ends inside a list (a missing `]`)'],
    ['{"a": {', 1, 8, 'the text ends inside an object (a missing `}`)'],
    ['{"a": 1 /* note */}', 1, 9, 'a comment (JSON has none)'],
    ['[1 2]', 1, 4, 'a comma was expected (a missing `,`?)'],
  ])('%j: line %i, column %i', (text, line, column, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonSyntaxError(text)).toEqual({ line, column, reason });
    expect(readJson(text, jsonSyntaxError)).toEqual({ problem: `not valid JSON at line ${line}, column ${column}: ${reason}` });
  });

  it('reads JSON as JSON.parse does, strictly', () => {
    expect(readJson('{"a": [1, "x", null]}')).toEqual({ value: { a: [1, 'x', null] } });
  });

  it('quotes nothing of the text, with or without the locator', () => {
    for (const locate of [jsonSyntaxError, undefined]) {
      const r = readJson('{"keys": [sk-live-SECRET]}', locate);
      expect('problem' in r && r.problem).toMatch(/^not valid JSON/);
      expect('problem' in r && r.problem).not.toContain('SECRET');
    }
  });

  it('without the locator (the Worker bundle): only that it is not JSON', () => {
    expect(readJson('{\n  "a": 1,\n}')).toEqual({ problem: 'not valid JSON' });
  });
});
