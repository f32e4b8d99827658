/**
 * Where a JSON text stops being JSON, and why, in words that quote nothing of it (a config holds
 * keys): "line 3, column 1: a trailing comma before `}`". V8's own message depends on the Node
 * version, has no position for some errors and quotes the text around others; this small scanner
 * of RFC 8259's grammar finds the first error itself. Used only once JSON.parse has failed.
 */
export interface JsonSyntaxError {
  line: number;
  column: number;
  reason: string;
}

class Stop {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {}
}

/** The first syntax error of a text JSON.parse refused (line and column counted from 1). */
export function locateJsonError(text: string): JsonSyntaxError {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, reason);
  };
  const found = () => (i >= text.length ? 'the end of the text' : `\`${text[i]}\``);
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('a string that never ends (a missing `"`)');
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail('a line break or control character inside a string (write it as \\n or \\t)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('a `\\u` escape without four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail('an unknown escape after `\\` (write a backslash as `\\\\`)');
      } else i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && c !== undefined && /[-\d]/.test(c)) return void (i += m[0].length);
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return void (i += word.length);
    if (c === "'") fail('a string in single quotes (JSON wants double quotes)');
    if (c === '}' || c === ']') fail(`\`${c}\` where a value was expected (a trailing comma?)`);
    fail(i >= text.length ? 'the text ends where a value was expected' : `a value was expected, not ${found()} (strings need double quotes)`);
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      ws();
      if (text[i] === '}') fail('a trailing comma before `}`', lastComma);
      if (text[i] !== '"') fail(i >= text.length ? 'the text ends inside an object (a missing `}`)' : `a field name in double quotes was expected, not ${found()}`);
      string();
      ws();
      if (text[i] !== ':') fail(`\`:\` was expected after the field name, not ${found()}`);
      i++;
      value();
      ws();
      if (text[i] === '}') return void i++;
      if (text[i] !== ',') fail(i >= text.length ? 'the text ends inside an object (a missing `}`)' : `\`,\` or \`}\` was expected, not ${found()} (a missing comma?)`);
      lastComma = i++;
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      ws();
      if (text[i] === ']') fail('a trailing comma before `]`', lastComma);
      value();
      ws();
      if (text[i] === ']') return void i++;
      if (text[i] !== ',') fail(i >= text.length ? 'the text ends inside a list (a missing `]`)' : `\`,\` or \`]\` was expected, not ${found()} (a missing comma?)`);
      lastComma = i++;
    }
  };
  let lastComma = 0;
  let stop: Stop;
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    stop = i < text.length ? new Stop(i, 'more text after the end of the document') : new Stop(i, 'not valid JSON');
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    stop = e;
  }
  const before = text.slice(0, stop.at);
  const line = before.split('\n').length;
  return { line, column: stop.at - before.lastIndexOf('\n'), reason: stop.reason };
}
