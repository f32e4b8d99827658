/**
 * Per-translator-folder mutation scores from Stryker's JSON report (`npm run mutation` writes it to
 * .tmp/mutation/mutation.json): killed (with timeouts) over every mutant that was valid, the
 * score Stryker itself prints. `tsx scripts/mutation-summary.ts [report.json]`.
 */
import { readFileSync } from 'node:fs';

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

const path = process.argv[2] ?? '.tmp/mutation/mutation.json';
const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
const folders = new Map<string, { killed: number; total: number }>();
for (const [file, { mutants }] of Object.entries(report.files)) {
  const folder = file.replace(/^.*?(translators\/[^/]+)\/.*$/, '$1');
  const f = folders.get(folder) ?? { killed: 0, total: 0 };
  for (const m of mutants) {
    if (m.status === 'CompileError' || m.status === 'RuntimeError' || m.status === 'Ignored') continue;
    f.total++;
    if (m.status === 'Killed' || m.status === 'Timeout') f.killed++;
  }
  folders.set(folder, f);
}
for (const [folder, { killed, total }] of [...folders].sort()) {
  console.log(`${folder.padEnd(32)} ${((100 * killed) / Math.max(total, 1)).toFixed(1).padStart(5)} %  (${killed}/${total} killed)`);
}
