/**
 * The client configs the docs show, read from the docs themselves: the real-client tests run
 * exactly what a reader pastes (with the base URL pointed at the test's proxy), so a config that
 * stops working fails a test. The docs fence them by their own format (`toml`, `jsonc`), never
 * `json`, which test/docs.test.ts loads as an Interlingua config.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The `n`th (from 0) ````lang` block below `heading` in `doc` (a path from the repository root), indentation dropped. */
export function documentedBlock(doc: string, heading: string, lang: string, n = 0): string {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`${doc} has no heading "${heading}"`);
  const next = text.slice(start + heading.length).search(/^#{1,3} /m);
  const section = next < 0 ? text.slice(start) : text.slice(start, start + heading.length + next);
  const blocks = [...section.matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^ *\`\`\``, 'gm'))];
  const m = blocks[n];
  if (!m) throw new Error(`${doc} has no ${lang} block #${n + 1} under "${heading}"`);
  const indent = m[1]!.length;
  return m[2]!.replace(new RegExp(`^ {0,${indent}}`, 'gm'), '');
}
