/**
 * Where a config's JSON text stops being JSON, and why, in words that quote nothing of it (a
 * config holds keys): "line 3, column 15: a trailing comma before `}`", found by Microsoft's JSON
 * scanner (jsonc-parser, the one VS Code uses) read strictly (no comments, no trailing commas)
 * once JSON.parse has refused the text. Node only (the command hands it to the loader): the Worker
 * bundle has no room for it within its budget (docs/performance.md), and says only "not valid JSON".
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { JsonSyntaxError } from './json-text.ts';

/** Line and column (from 1) of an offset. */
function place(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The scanner's error codes (by `printParseErrorCode`'s names) in words. */
const WORDS: Record<string, string> = {
  InvalidSymbol: 'something that is not JSON here (strings and field names need double quotes; true, false and null are lowercase)',
  InvalidNumberFormat: 'a number JSON cannot read',
  PropertyNameExpected: 'a field name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: '`:` was expected after the field name',
  CommaExpected: 'a comma was expected (a missing `,`?)',
  CloseBraceExpected: '`}` was expected',
  CloseBracketExpected: '`]` was expected',
  EndOfFileExpected: 'more text after the end of the document',
  InvalidCommentToken: 'a comment (JSON has none)',
  UnexpectedEndOfComment: 'a comment that never ends (JSON has none)',
  UnexpectedEndOfString: 'a string that never ends (a missing `"`, or a line break inside it: write it as \\n)',
  UnexpectedEndOfNumber: 'a number that ends too soon',
  InvalidUnicode: 'a `\\u` escape without four hex digits',
  InvalidEscapeCharacter: 'an unknown escape after `\\` (write a backslash as `\\\\`)',
  InvalidCharacter: 'a control character inside a string (write it as \\n or \\t)',
};

/** The first syntax error of a text JSON.parse refused; undefined if the scanner finds none. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  // `,` then `}` or `]`: the comma is the mistake, named where it stands.
  const code = printParseErrorCode(first.error);
  const closer = text[first.offset];
  if ((closer === '}' || closer === ']') && (code === 'PropertyNameExpected' || code === 'ValueExpected')) {
    const comma = text.slice(0, first.offset).trimEnd();
    if (comma.endsWith(',')) return { ...place(text, comma.length - 1), reason: `a trailing comma before \`${closer}\`` };
  }
  // Something unquoted right after `{`: a field name without its quotes.
  if (code === 'InvalidSymbol' && text.slice(0, first.offset).trimEnd().endsWith('{')) return { ...place(text, first.offset), reason: WORDS.PropertyNameExpected! };
  const atEnd = first.offset >= text.trimEnd().length;
  if (atEnd && code === 'CloseBraceExpected') return { ...place(text, first.offset), reason: 'the text ends inside an object (a missing `}`)' };
  if (atEnd && code === 'CloseBracketExpected') return { ...place(text, first.offset), reason: 'the text ends inside a list (a missing `]`)' };
  return { ...place(text, first.offset), reason: WORDS[code] ?? 'not JSON here' };
}
