/**
 * Tests clean up after themselves: every process a test starts goes through
 * test/support/processes.ts, which stops the whole process group (what the process started too),
 * and the global teardown finds any marked process left alive (test/support/global-setup.ts).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import setup, { markedProcesses } from './support/global-setup.ts';
import { ROOT, RUN_MARK, start, tsx } from './support/processes.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? (n === 'node_modules' || n === '__fixtures__' ? [] : files(p)) : /\.ts$/.test(n) ? [p] : [];
  });
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** A node process (through the `tsx` command: two processes) that starts a grandchild and prints its pid. */
const parentScript = `import { spawn } from 'node:child_process';
const g = spawn('sleep', ['60'], { stdio: 'ignore' });
console.log('grandchild ' + g.pid);
setInterval(() => {}, 1000);`;

/** A process's command line, as /proc has it ('' once it is gone). */
const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
};

describe('test processes', () => {
  it('no test starts a process but through test/support/processes.ts', () => {
    const bad = [...files(join(ROOT, 'test')), ...files(join(ROOT, 'src')), ...files(join(ROOT, 'translators'))]
      .map((f) => relative(ROOT, f))
      .filter((f) => f !== 'test/support/processes.ts' && f !== 'test/processes.test.ts')
      .filter((f) => /from\s*['"](node:)?child_process['"]|require\(['"](node:)?child_process['"]\)/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('the run is marked, and the mark reaches what tests start', () => {
    expect(process.env[RUN_MARK]).toMatch(/^[0-9a-f]{12}$/);
  });

  it('stop() ends what the process started too; killing only the process it ran would not', async () => {
    const script = join(ROOT, '.tmp', `spawner-${process.pid}.mts`);
    (await import('node:fs')).writeFileSync(script, parentScript);
    // The `tsx` command: a wrapper process whose node child runs the script, as the old tests ran the CLI.
    const p = start(join(ROOT, 'node_modules', '.bin', 'tsx'), [script], { env: { ...process.env, PATH: process.env.PATH } });
    const grandchild = Number((await p.waitFor(/grandchild (\d+)/))[1]);
    expect(alive(grandchild)).toBe(true);
    // Its pid is printed as soon as it is forked: its /proc entry is read once it has become `sleep`
    // (before its execve has finished, /proc shows no environment to find the mark in).
    await expect.poll(() => commandOf(grandchild), { timeout: 5_000 }).toBe('sleep 60');
    expect(markedProcesses(process.env[RUN_MARK]!, -1).map((m) => m.pid)).toContain(grandchild);
    // What `child.kill('SIGKILL')` did: the wrapper dies, its node child and the grandchild live on.
    p.child.kill('SIGKILL');
    await p.exited;
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(grandchild)).toBe(true);
    // The group goes whole.
    await p.stop();
    await expect.poll(() => alive(grandchild), { timeout: 5_000 }).toBe(false);
    expect(markedProcesses(process.env[RUN_MARK]!, -1).map((m) => m.pid)).not.toContain(grandchild);
  });

  it('tsx() runs a TypeScript entry in one node process', async () => {
    const p = start(...tsx('src/runtime/cli.ts', '--version'));
    expect(await p.exited).toBe(0);
    expect(p.out()).toMatch(/^interlingua \d/);
    await p.stop();
  });

  it('the global teardown kills a process a run left behind, and fails naming it', async () => {
    const outer = process.env[RUN_MARK];
    const teardown = setup();
    const mark = process.env[RUN_MARK]!;
    process.env[RUN_MARK] = outer;
    // An orphan: the shell that started it is gone, as the leaked servers' test workers were.
    const shell = start('/bin/sh', ['-c', 'sleep 60 </dev/null >/dev/null 2>&1 & echo $!'], { env: { ...process.env, [RUN_MARK]: mark } });
    const pid = Number((await shell.waitFor(/(\d+)/))[1]);
    await shell.exited;
    expect(alive(pid)).toBe(true);
    // Until the forked shell child has become `sleep` (execve done), /proc may show it no
    // environment: on a loaded machine the scan could come that early and find nothing.
    await expect.poll(() => commandOf(pid), { timeout: 5_000 }).toBe('sleep 60');
    await expect(teardown()).rejects.toThrow(new RegExp(`tests left 1 process\\(es\\) running \\(now killed\\):\\n  ${pid} sleep 60`));
    await expect.poll(() => alive(pid)).toBe(false);
  }, 15_000);
});
