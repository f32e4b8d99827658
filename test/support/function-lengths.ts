/**
 * How long each function of a TypeScript source is, by a heuristic that needs no parser: comments,
 * strings, template text and regular expressions are blanked out (newlines kept), then every
 * function start — a `function` keyword, a method or accessor header, an arrow with a block body —
 * is matched to its closing brace by counting braces. A function's length is from the line it
 * starts on to the line of its closing brace, inner functions included (a closure of many inner
 * functions is one long function). Good enough to hold a limit; not a TypeScript parser.
 */

export interface FunctionLength {
  name: string;
  /** 1-based line of the function's start. */
  line: number;
  lines: number;
}

/** Source with comments, string and template text and regular expressions blanked to spaces. */
export function blanked(src: string): string {
  const out = src.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  /** Template nesting: each entry is the brace depth at which a `${` opened. */
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const n = src.length;
  const scanTemplate = (from: number): number => {
    // From inside a template's text to its end (returns past the backtick) or a `${` (past it).
    let j = from;
    while (j < n) {
      const c = src[j]!;
      if (c === '\\') j += 2;
      else if (c === '`') {
        blank(from, j);
        return j + 1;
      } else if (c === '$' && src[j + 1] === '{') {
        blank(from, j);
        templates.push(depth);
        depth++;
        return j + 2;
      } else j++;
    }
    blank(from, n);
    return n;
  };
  while (i < n) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      const end = src.indexOf('\n', i);
      const to = end < 0 ? n : end;
      blank(i, to);
      i = to;
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      const to = end < 0 ? n : end + 2;
      blank(i, to);
      i = to;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else if (c === '`') {
      i = scanTemplate(i + 1);
    } else if (c === '/' && regexMayStart(src, i)) {
      let j = i + 1;
      let inClass = false;
      while (j < n && src[j] !== '\n' && (inClass || src[j] !== '/')) {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') inClass = true;
        else if (src[j] === ']') inClass = false;
        j++;
      }
      blank(i + 1, j);
      i = j + 1;
    } else if (c === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      depth--;
      if (templates.length > 0 && templates[templates.length - 1] === depth) {
        templates.pop();
        i = scanTemplate(i + 1);
      } else i++;
    } else i++;
  }
  return out.join('');
}

/** A `/` starts a regular expression (not a division) after an operator, an opening bracket or a keyword. */
function regexMayStart(src: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && (src[j] === ' ' || src[j] === '\t')) j--;
  if (j < 0 || src[j] === '\n') return true;
  if ('(,=:[!&|?{};+-*%<>~^'.includes(src[j]!)) return true;
  const word = /(?:return|typeof|case|of|in|void|yield|await)$/.exec(src.slice(Math.max(0, j - 6), j + 1));
  return word !== null;
}

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'new', 'await', 'typeof', 'with', 'do', 'else', 'super', 'import', 'delete', 'void', 'throw', 'yield', 'case']);

/** Index of the bracket closing the one at `open` (same kind), or -1. */
function closing(text: string, open: number): number {
  const o = text[open]!;
  const c = o === '(' ? ')' : o === '{' ? '}' : o === '[' ? ']' : '>';
  let d = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === o) d++;
    else if (text[i] === c && --d === 0) return i;
  }
  return -1;
}

/**
 * From just past a parameter list's `)`: the index of the body's `{`, skipping a return type
 * (whose object types are braces after `:`, `|`, `&`, `<`, `,` or `(`); -1 when no body follows
 * (a call, an overload, an abstract or interface method).
 */
function bodyAfter(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] === '{') return i;
  if (text[i] !== ':') return -1;
  let prev = ':';
  for (i++; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) continue;
    if (c === ';' || c === '}' || c === ')' || (c === '=' && text[i + 1] !== '>')) return -1;
    if (c === '{') {
      if (':|&<,('.includes(prev)) {
        const end = closing(text, i);
        if (end < 0) return -1;
        i = end;
        prev = '}';
        continue;
      }
      return i;
    }
    if (c === '(' || c === '[') {
      const end = closing(text, i);
      if (end < 0) return -1;
      i = end;
      prev = text[end]!;
      continue;
    }
    prev = c;
  }
  return -1;
}

/** Every function of `src` with its length in lines. */
export function functionLengths(src: string): FunctionLength[] {
  const text = blanked(src);
  const lineAt: number[] = [];
  for (let i = 0, line = 1; i <= text.length; i++) {
    lineAt.push(line);
    if (text[i] === '\n') line++;
  }
  const found = new Map<number, FunctionLength>();
  const add = (name: string, start: number, body: number) => {
    const end = closing(text, body);
    if (end < 0 || found.has(body)) return;
    found.set(body, { name, line: lineAt[start]!, lines: lineAt[end]! - lineAt[start]! + 1 });
  };
  // `function name(…) {` and `function (…) {`, generators too.
  for (const m of text.matchAll(/\bfunction\b\s*\*?\s*([\w$]*)\s*(?:<[^(]*?>)?\s*\(/g)) {
    const open = m.index + m[0].length - 1;
    const close = closing(text, open);
    if (close < 0) continue;
    const body = bodyAfter(text, close + 1);
    if (body >= 0) add(m[1] || '(anonymous)', m.index, body);
  }
  // Methods, accessors and constructors: a name at the start of a line, its parameters, its body.
  const header = /^[ \t]*(?:(?:public|private|protected|static|async|override|get|set)[ \t]+)*\*?[ \t]*(#?[\w$]+)[ \t]*(?:<[^()\n]*>)?[ \t]*\(/gm;
  for (const m of text.matchAll(header)) {
    if (KEYWORDS.has(m[1]!)) continue;
    const open = m.index + m[0].length - 1;
    const close = closing(text, open);
    if (close < 0) continue;
    const body = bodyAfter(text, close + 1);
    if (body >= 0) add(m[1]!, m.index + m[0].indexOf(m[1]!), body);
  }
  // Arrows with a block body, named after what they are assigned to when that is on their line.
  for (const m of text.matchAll(/=>\s*\{/g)) {
    const body = m.index + m[0].length - 1;
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const name = /(?:const|let|var)\s+([\w$]+)|([\w$]+)\s*[:=]\s*(?:async\s*)?\(/.exec(text.slice(lineStart, m.index));
    add(name?.[1] ?? name?.[2] ?? '(arrow)', m.index, body);
  }
  return [...found.values()].sort((a, b) => a.line - b.line);
}
