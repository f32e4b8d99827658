/**
 * The hub-and-spoke boundaries of STYLE.md, held by reading import specifiers.
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

function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? relative(root, join(root, file, '..', spec)) : spec;
}

describe('architecture', () => {
  it('canonical imports nothing outside itself', () => {
    for (const f of sources('src/canonical')) {
      for (const s of imports(f)) expect(resolved(f, s), `${f} imports ${s}`).toMatch(/^src\/canonical\//);
    }
  });

  it('translators import only canonical, the contract, valibot and their own folder', () => {
    for (const f of sources('translators')) {
      if (f === 'translators/index.ts' || f === 'translators/types.ts') continue;
      const dialect = f.split('/')[1]!;
      for (const s of imports(f)) {
        const r = resolved(f, s);
        const ok =
          r === 'valibot' ||
          r.startsWith('src/canonical/') ||
          r === 'translators/types.ts' ||
          r.startsWith(`translators/${dialect}/`);
        expect(ok, `${f} imports ${s}`).toBe(true);
      }
    }
  });

  it('no dialect folder, tests included, imports another dialect folder', () => {
    for (const f of sources('translators', true)) {
      const dialect = f.split('/')[1]!;
      if (!f.split('/')[2]) continue;
      for (const s of imports(f)) {
        const r = resolved(f, s);
        const other = /^translators\/([^/]+)\//.exec(r)?.[1];
        if (other && other !== dialect) expect.fail(`${f} imports ${s}`);
      }
    }
  });

  it('routing and app never import runtime entries or translator internals', () => {
    for (const f of [...sources('src/routing'), 'src/app.ts', ...sources('src/config'), ...sources('src/sse')]) {
      for (const s of imports(f)) {
        const r = resolved(f, s);
        expect(r.startsWith('src/runtime/'), `${f} imports ${s}`).toBe(false);
        expect(r.startsWith('node:'), `${f} imports ${s}`).toBe(false);
        if (r.startsWith('translators/')) expect(['translators/index.ts', 'translators/types.ts']).toContain(r);
      }
    }
  });

  it('runtime entries never import translators', () => {
    for (const f of sources('src/runtime')) {
      for (const s of imports(f)) expect(resolved(f, s).startsWith('translators/'), `${f} imports ${s}`).toBe(false);
    }
  });
});
