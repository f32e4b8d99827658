/**
 * The house's shape (DESIGN.md "Layout", STYLE.md "Boundaries"), held by reading import specifiers:
 * which folder may import which, no flow reaching into another flow, and no import cycle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function sources(dir: string, withTests = false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) {
      if (name !== '__fixtures__') out.push(...sources(path, withTests));
    } else if (name.endsWith('.ts') && (withTests || !name.endsWith('.test.ts'))) out.push(path);
  }
  return out;
}

interface Import {
  spec: string;
  /** `import type` / `export type`: no runtime edge. */
  typeOnly: boolean;
}

function imports(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?[^'";]*?from\s+['"]([^'"]+)['"]/g)].map((m) => ({ spec: m[3]!, typeOnly: !!m[2] }));
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? relative(root, join(root, file, '..', spec)) : spec;
}

/** Every project file's imports of other project files and packages, resolved. */
function edges(files: string[]): Array<{ from: string; to: string; typeOnly: boolean }> {
  return files.flatMap((f) => imports(f).map((i) => ({ from: f, to: resolved(f, i.spec), typeOnly: i.typeOnly })));
}

const allSources = () => [...sources('src'), ...sources('translators')];
const folderOf = (path: string) => (/^src\/([^/]+)\//.exec(path)?.[1] ?? (path === 'src/app.ts' ? 'app' : path.split('/')[0]!));

/** What each src folder may import (besides itself and packages). */
const ALLOWED: Record<string, string[]> = {
  canonical: [],
  config: ['canonical'],
  observe: ['canonical', 'translators/types.ts'],
  sse: ['canonical', 'observe'],
  upstream: ['canonical', 'config', 'observe', 'sse', 'translators/types.ts'],
  flows: ['canonical', 'config', 'observe', 'sse', 'upstream', 'translators/types.ts', 'translators/index.ts'],
  http: ['canonical', 'config', 'observe', 'sse', 'flows', 'translators/types.ts'],
  app: ['canonical', 'config', 'observe', 'sse', 'flows', 'http', 'upstream', 'translators/types.ts', 'translators/index.ts'],
  runtime: ['canonical', 'config', 'app', 'http', 'flows', 'sse', 'upstream', 'observe'],
};

/** Flow plumbing any flow may use; the flows themselves may only call each other's entry points as listed. */
const FLOW_PLUMBING = new Set(['context.ts', 'plan.ts', 'reply.ts', 'image-calls.ts', 'state.ts']);
const FLOW_CALLS: Record<string, string[]> = { 'chat.ts': ['fan-out.ts', 'chat-to-images.ts'] };

describe('architecture', () => {
  it('canonical imports nothing outside itself', () => {
    for (const f of sources('src/canonical')) {
      for (const { spec } of imports(f)) expect(resolved(f, spec), `${f} imports ${spec}`).toMatch(/^src\/canonical\//);
    }
  });

  it('translators import only canonical, the contract, valibot and their own folder', () => {
    for (const f of sources('translators')) {
      if (f === 'translators/index.ts' || f === 'translators/types.ts') continue;
      const dialect = f.split('/')[1]!;
      for (const { spec } of imports(f)) {
        const r = resolved(f, spec);
        const ok = r === 'valibot' || r.startsWith('src/canonical/') || r === 'translators/types.ts' || r.startsWith(`translators/${dialect}/`);
        expect(ok, `${f} imports ${spec}`).toBe(true);
      }
    }
  });

  it('no dialect folder, tests included, imports another dialect folder', () => {
    for (const f of sources('translators', true)) {
      const dialect = f.split('/')[1]!;
      if (!f.split('/')[2]) continue;
      for (const { spec } of imports(f)) {
        const other = /^translators\/([^/]+)\//.exec(resolved(f, spec))?.[1];
        if (other && other !== dialect) expect.fail(`${f} imports ${spec}`);
      }
    }
  });

  it('each src folder imports only the folders below it', () => {
    const bad: string[] = [];
    for (const { from, to } of edges(sources('src'))) {
      if (!to.startsWith('src/') && !to.startsWith('translators/')) {
        if (to.startsWith('node:') && folderOf(from) !== 'runtime') bad.push(`${from} → ${to} (only src/runtime may use Node)`);
        continue;
      }
      const src = folderOf(from);
      const dst = to.startsWith('translators/') ? to : folderOf(to);
      if (src === dst) continue;
      if (!(ALLOWED[src] ?? []).includes(dst)) bad.push(`${from} → ${to}`);
    }
    expect(bad).toEqual([]);
  });

  it('no flow imports another flow, but for the entry points the chat flow hands over to', () => {
    const bad: string[] = [];
    for (const { from, to } of edges(sources('src/flows'))) {
      if (!to.startsWith('src/flows/')) continue;
      const [a, b] = [from.slice('src/flows/'.length), to.slice('src/flows/'.length)];
      if (!FLOW_PLUMBING.has(b) && !(FLOW_CALLS[a] ?? []).includes(b)) bad.push(`${from} → ${to}`);
    }
    expect(bad).toEqual([]);
  });

  it('there is no import cycle among src/ and translators/ (type-only imports aside)', () => {
    const files = allSources();
    const known = new Set(files);
    const out = new Map(files.map((f) => [f, [] as string[]]));
    for (const { from, to, typeOnly } of edges(files)) {
      const target = known.has(to) ? to : known.has(`${to}.ts`) ? `${to}.ts` : undefined;
      if (target && !typeOnly) out.get(from)!.push(target);
    }
    // Tarjan's strongly connected components.
    let i = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const on = new Set<string>();
    const cycles: string[][] = [];
    const strong = (v: string) => {
      index.set(v, i);
      low.set(v, i++);
      stack.push(v);
      on.add(v);
      for (const w of out.get(v)!) {
        if (!index.has(w)) {
          strong(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const c: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          c.push(w);
        } while (w !== v);
        if (c.length > 1) cycles.push(c.sort());
      }
    };
    for (const f of files) if (!index.has(f)) strong(f);
    expect(cycles).toEqual([]);
  });

  it('runtime entries never import translators', () => {
    for (const f of sources('src/runtime')) {
      for (const { spec } of imports(f)) expect(resolved(f, spec).startsWith('translators/'), `${f} imports ${spec}`).toBe(false);
    }
  });
});
