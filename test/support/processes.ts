/**
 * Every process a test starts is started here, and stopped here whatever happens to the test.
 *
 * Each one runs in a process group of its own, and stopping it signals the whole group: what it
 * started itself goes too (`tsx` runs the code in a second node process, `npx` another, wrangler
 * its workerd), which a plain `child.kill()` leaves running. Whatever a test file has not stopped
 * is killed after its last test (pass, fail or timeout), and again when the worker process exits.
 * Each carries the run's mark (`INTERLINGUA_TEST_RUN`, which everything a test starts inherits)
 * in its environment, even when given an environment of its own, by which the global teardown
 * (test/support/global-setup.ts) finds any process that survived the run anyway, kills it and fails.
 *
 * test/processes.test.ts holds the rule that no test spawns a process any other way.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The environment variable marking processes of a test run (its value: the run's id). */
export const RUN_MARK = 'INTERLINGUA_TEST_RUN';
/** The one marking a started process and what it starts (its value: unique in the run). */
const PROCESS_MARK = 'INTERLINGUA_TEST_PROCESS';
let startedCount = 0;

export interface Started {
  child: ChildProcess;
  /** What it printed so far. */
  out(): string;
  err(): string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** The first match of `re` in what it prints (stderr, then stdout); rejects if it exits first or after `timeoutMs`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Signal its whole group (default SIGTERM), SIGKILL after `graceMs`; resolves with the exit code. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

const running = new Set<Started>();

/**
 * Signal `child`'s process group. While its leader runs, the group id is its pid and cannot be
 * reused. Once the leader has exited, that id may name another process's new group (pids wrap at
 * 32,768 here, and a run starts thousands): then only the group's members that carry this run's
 * mark, found in /proc, are signalled one by one, never a group some later test started.
 */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pgid = child.pid;
  if (pgid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // The group is gone already.
    }
    return;
  }
  for (const pid of leftInGroup(pgid, child)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

/** The processes of group `pgid` that `child` left behind: still in the group, and carrying its own mark. */
function leftInGroup(pgid: number, child: ChildProcess): number[] {
  const mark = `${PROCESS_MARK}=${(child as ChildProcess & { markedWith?: string }).markedWith}`;
  const out: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out; // not Linux: nothing to find, nothing signalled
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = /^\d+ \(.*\) \S \d+ (\d+)/s.exec(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (!stat || Number(stat[1]) !== pgid) continue;
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(mark)) continue;
      out.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return out;
}

/** Kill what is still running, at once (the end of a file, or of the worker process). */
export function killAll(): void {
  for (const p of running) killGroup(p.child, 'SIGKILL');
}

try {
  afterAll(async () => {
    await Promise.all([...running].map((p) => p.stop('SIGKILL', 0)));
  });
} catch {
  // Imported outside a test file's collection (a dynamic import inside a hook): the exit hook stays.
}
process.once('exit', killAll);

export interface StartOptions {
  cwd?: string;
  /** The whole environment (default: this process's); the mark is added to it. */
  env?: NodeJS.ProcessEnv;
  stdin?: 'ignore' | 'pipe';
}

/** Start `command args` in a process group of its own. */
export function start(command: string, args: string[], o: StartOptions = {}): Started {
  const options: SpawnOptions = {
    cwd: o.cwd ?? ROOT,
    env: { ...(o.env ?? process.env), [RUN_MARK]: o.env?.[RUN_MARK] ?? process.env[RUN_MARK] ?? 'unmarked', [PROCESS_MARK]: `${process.pid}.${++startedCount}` },
    stdio: [o.stdin ?? 'ignore', 'pipe', 'pipe'],
    detached: true,
  };
  const child = Object.assign(spawn(command, args, options), { markedWith: options.env![PROCESS_MARK] });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  child.stdout!.on('data', (d) => ((stdout += d), changed()));
  child.stderr!.on('data', (d) => ((stderr += d), changed()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (e) => {
      stderr += `\n${command}: ${e.message}`;
      exitCode = 127;
      resolve(127);
      changed();
    });
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
      changed();
    });
  });
  const started: Started = {
    child,
    out: () => stdout,
    err: () => stderr,
    exited,
    waitFor: (re, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = re.exec(stderr) ?? re.exec(stdout);
          if (m) return done(() => resolve(m));
          if (exitCode !== undefined) done(() => reject(new Error(`${command} exited (${exitCode}) before printing ${re}:\n${stderr}\n${stdout}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`${command} did not print ${re} within ${timeoutMs} ms:\n${stderr}\n${stdout}`))), timeoutMs);
        const done = (fn: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          fn();
        };
        listeners.add(check);
        check();
      }),
    stop: async (signal = 'SIGTERM', graceMs = 5_000) => {
      if (exitCode === undefined) {
        killGroup(child, signal);
        const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // What the group's leader left behind goes too.
      killGroup(child, 'SIGKILL');
      running.delete(started);
      return exitCode ?? null;
    },
  };
  running.add(started);
  return started;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run `command args` to its end (killed, group and all, after `timeoutMs`). */
export async function run(command: string, args: string[], o: StartOptions & { timeoutMs?: number } = {}): Promise<RunResult> {
  const p = start(command, args, o);
  const timer = setTimeout(() => void p.stop('SIGKILL', 0), o.timeoutMs ?? 60_000);
  const status = await p.exited;
  clearTimeout(timer);
  await p.stop('SIGKILL', 0);
  return { status, stdout: p.out(), stderr: p.err() };
}

/** A TypeScript entry run by node with tsx's loader: one process (the `tsx` command starts two). */
export function tsx(entry: string, ...args: string[]): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', entry, ...args]];
}
