/**
 * Vertex streamed function-call arguments (`willContinue` + `partialArgs[{jsonPath, …Value,
 * willContinue}]`), assembled into one arguments object per call.
 */
import type { Json } from './json.ts';

export interface StreamingCall {
  index: number;
  args: Json;
  /** jsonPaths whose string value is still being continued. */
  continuing: Set<string>;
}

/** Parse an RFC 9535 path of the simple forms Vertex sends: `$.a.b[0]`, `$['a b']`. */
function parsePath(path: string): Array<string | number> | undefined {
  if (!path.startsWith('$')) return undefined;
  const out: Array<string | number> = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(['"])((?:\\.|(?!\3).)*)\3\]/gy;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (!m) return undefined;
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(m[4]!.replace(/\\(.)/g, '$1'));
  }
  return out;
}

function setAt(root: Json, path: Array<string | number>, value: unknown, append: boolean): void {
  let node: Json | unknown[] = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const nextIsIndex = typeof path[i + 1] === 'number';
    const container = node as Record<string | number, unknown>;
    if (typeof container[key] !== 'object' || container[key] === null) container[key] = nextIsIndex ? [] : {};
    node = container[key] as Json | unknown[];
  }
  const last = path[path.length - 1]!;
  const container = node as Record<string | number, unknown>;
  if (append && typeof container[last] === 'string' && typeof value === 'string') container[last] = container[last] + value;
  else container[last] = value;
}

/** Apply one chunk's `partialArgs` to the call being assembled. */
export function applyPartials(call: StreamingCall, partials: Json[]): void {
  for (const p of partials) {
    const jsonPath = typeof p.jsonPath === 'string' ? p.jsonPath : undefined;
    const path = jsonPath ? parsePath(jsonPath) : undefined;
    if (!jsonPath || !path || path.length === 0) continue;
    let value: unknown;
    if (typeof p.stringValue === 'string') value = p.stringValue;
    else if (typeof p.numberValue === 'number') value = p.numberValue;
    else if (typeof p.boolValue === 'boolean') value = p.boolValue;
    else if (p.nullValue !== undefined) value = null;
    else continue;
    setAt(call.args, path, value, call.continuing.has(jsonPath));
    if (p.willContinue === true) call.continuing.add(jsonPath);
    else call.continuing.delete(jsonPath);
  }
}
