import { describe, expect, it } from 'vitest';
import { locateJsonError } from './json-syntax.ts';

describe('locateJsonError', () => {
  it.each([
    ['{"a": 1,}', 1, 8, 'a trailing comma before `}`'],
    ['{\n  "a": [1, 2,]\n}', 2, 13, 'a trailing comma before `]`'],
    ['{nope', 1, 2, 'a field name in double quotes was expected, not `n`'],
    ["{'a': 1}", 1, 2, 'a field name in double quotes was expected, not `\'`'],
    ['{"a" 1}', 1, 6, '`:` was expected after the field name, not `1`'],
    ['{"a": 1 "b": 2}', 1, 9, '`,` or `}` was expected, not `"` (a missing comma?)'],
    ['{"a": tru}', 1, 7, 'a value was expected, not `t` (strings need double quotes)'],
    ["{\"a\": 'x'}", 1, 7, 'a string in single quotes (JSON wants double quotes)'],
    ['{"a": "x', 1, 9, 'a string that never ends (a missing `"`)'],
    ['{"a": "x\ny"}', 1, 9, 'a line break or control character inside a string (write it as \\n or \\t)'],
    ['{"a": "\\q"}', 1, 8, 'an unknown escape after `\\` (write a backslash as `\\\\`)'],
    ['{"a": 1}}', 1, 9, 'more text after the end of the document'],
    ['{"a": [1, 2', 1, 12, 'the text ends inside a list (a missing `]`)'],
    ['{"a": {', 1, 8, 'the text ends inside an object (a missing `}`)'],
    ['[1 2]', 1, 4, '`,` or `]` was expected, not `2` (a missing comma?)'],
  ])('%j: line %i, column %i', (text, line, column, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(locateJsonError(text)).toEqual({ line, column, reason });
  });

  it('quotes at most one character of the text', () => {
    const r = locateJsonError('{"keys": [sk-live-SECRET]}');
    expect(r.reason).not.toContain('SECRET');
  });
});
