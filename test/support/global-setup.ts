/**
 * Vitest's global setup: marks the run (`INTERLINGUA_TEST_RUN` in the environment, which the test
 * workers and every process they start inherit; test/support/processes.ts adds it to an
 * environment a test builds itself), and at its end fails the run if a process carrying the mark
 * is still alive, after killing it, so nothing outlives the run: a server, a workerd, a redis.
 * Vitest's own workers (this process's children) are not counted.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';

const MARK = 'INTERLINGUA_TEST_RUN';

/** Processes whose environment carries `MARK=run`, but for `except`'s children: pid and command line. */
export function markedProcesses(run: string, except = process.pid): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // A zombie has exited; its parent has yet to reap it.
      const stat = /^\d+ \(.*\) (\S) (\d+)/s.exec(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (!stat || stat[1] === 'Z' || Number(stat[2]) === except || Number(name) === except) continue;
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`${MARK}=${run}`)) continue;
      found.push({ pid: Number(name), command: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

export default function setup(): () => Promise<void> {
  const run = randomBytes(6).toString('hex');
  process.env.INTERLINGUA_TEST_RUN = run;
  return async () => {
    if (process.platform !== 'linux') return;
    // A process stopped at the very end may still be exiting.
    let left = markedProcesses(run);
    for (let i = 0; i < 50 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = markedProcesses(run);
    }
    if (!left.length) return;
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    throw new Error(`tests left ${left.length} process(es) running (now killed):\n${left.map((p) => `  ${p.pid} ${p.command}`).join('\n')}`);
  };
}
