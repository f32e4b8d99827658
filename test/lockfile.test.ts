/**
 * `npm ci` (CI's first step) refuses a lockfile that is not in sync with package.json, and npm
 * counts an optional dependency missing from the lock as out of sync. The registry this machine
 * reaches serves only Linux x64's platform packages, so `npm install` writes no lock entry for the
 * others (opencode-ai's darwin and windows builds): they are listed by hand, as optional, for
 * their platforms. This fails when an install dropped them again, before CI does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './support/processes.ts';

interface Locked {
  version?: string;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
}

it("every locked package's optional dependencies are in the lock (or npm ci refuses it)", () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };
  const missing: string[] = [];
  let checked = 0;
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      checked++;
      // Resolved as Node does: beside the package first, then up the tree.
      const candidates: string[] = [];
      for (let at = path; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
        candidates.push(`${at ? `${at}/` : ''}node_modules/${name}`);
        if (!at.includes('/node_modules/')) {
          candidates.push(`node_modules/${name}`);
          break;
        }
      }
      if (!candidates.some((c) => lock.packages[c])) missing.push(`${path} → ${name}`);
    }
  }
  expect(checked).toBeGreaterThan(0);
  expect(missing).toEqual([]);
});
