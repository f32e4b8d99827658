/**
 * The function-length heuristic the architecture test holds the house to (test/support/function-lengths.ts):
 * it finds each kind of function, measures it from its first line to its closing brace, and is not
 * fooled by braces in strings, templates, comments, regular expressions or return types.
 */
import { describe, expect, it } from 'vitest';
import { blanked, functionLengths } from './support/function-lengths.ts';

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
const lengths = (src: string) => functionLengths(src).map(({ name, lines }) => `${name}:${lines}`);

describe('functionLengths', () => {
  it('a synthetic 130-line function is found as over 120 lines, a short one is not', () => {
    const src = `export function long(a: number): number {\n${body(128)}\n  return a;\n}\n\nfunction short() {\n  return 1;\n}\n`;
    const found = functionLengths(src);
    expect(found).toEqual([
      { name: 'long', line: 1, lines: 131 },
      { name: 'short', line: 133, lines: 3 },
    ]);
    expect(found.filter((f) => f.lines > 120).map((f) => f.name)).toEqual(['long']);
  });

  it('finds declarations, methods, accessors, constructors, arrows and object methods; an outer function counts its inner ones', () => {
    const src = [
      'export class A {', //                 1
      '  constructor(private x: number) {', // 2
      '    this.x = x;', //                    3
      '  }', //                                4
      '  get done(): boolean {', //            5
      '    return true;', //                   6
      '  }', //                                7
      '  private async run<T>(t: T): Promise<T> {', // 8
      '    const inner = (y: number) => {', // 9
      '      return y;', //                    10
      '    };', //                             11
      '    return t;', //                      12
      '  }', //                                13
      '}', //                                  14
      'const step = {', //                     15
      '  push(lane: number) {', //             16
      '    return lane;', //                   17
      '  },', //                               18
      '};', //                                 19
      'export const f = async function* gen() {', // 20
      '  yield 1;', //                         21
      '};', //                                 22
    ].join('\n');
    expect(lengths(src)).toEqual(['constructor:3', 'done:3', 'run:6', 'inner:3', 'push:3', 'gen:3']);
  });

  it('multi-line parameters and object return types: measured from the first line to the body’s brace', () => {
    const src = ['function f(', '  a: { x: number },', '  b = { y: 1 },', '): { frames: string[] } | undefined {', '  return undefined;', '}'].join('\n');
    expect(functionLengths(src)).toEqual([{ name: 'f', line: 1, lines: 6 }]);
  });

  it('braces in strings, templates, comments and regular expressions do not count', () => {
    const src = [
      'function f() {',
      "  const a = '}}}';",
      '  const b = "{";',
      '  const c = `}${ {x: 1}.x }}`;',
      '  // }',
      '  /* } */',
      '  const d = /[}]\\}/g;',
      '  return a + b + c + d;',
      '}',
      'function g() {',
      '  return 1;',
      '}',
    ].join('\n');
    expect(lengths(src)).toEqual(['f:9', 'g:3']);
  });

  it('calls, control flow and bodiless signatures are not functions', () => {
    const src = ['if (x) {', '  call(x);', '}', 'for (const a of b) {', '}', 'interface I {', '  m(): void;', '}', 'declare function d(): void;', 'switch (x) {', '}'].join('\n');
    expect(functionLengths(src)).toEqual([]);
  });

  it('blanked keeps lines and blanks only what is inside strings and comments', () => {
    const src = "const s = 'a{b'; // c}\nconst t = `x${y}z`;\n";
    const out = blanked(src);
    expect(out.split('\n')).toHaveLength(3);
    expect(out).toContain('${y}');
    expect(out).not.toMatch(/a\{b|c\}/);
  });
});
