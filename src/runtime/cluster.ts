/**
 * `interlingua --workers N`: one port served by N processes (`node:cluster`; the primary accepts
 * and hands connections round-robin). The primary serves nothing itself: it starts the workers,
 * prints the one start line once all of them listen, replaces one that crashes (waiting longer
 * while they keep crashing), and on SIGTERM or SIGINT has every worker finish its open requests
 * before it exits. What the workers must share (state, limits, key cooldowns, session affinity)
 * lives in Redis (`store.url`, required). `/metrics` on any worker answers for all of them: the
 * primary collects each worker's counters and adds them up (observe/metrics.ts `mergeMetrics`).
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { mergeMetrics } from '../app.ts';

/** What goes between the primary and its workers. */
type Message =
  | { il: 'listening'; port: number; redis?: { reachable: boolean } }
  | { il: 'metrics?'; id: number }
  | { il: 'metrics-dump'; id: number }
  | { il: 'metrics-part'; id: number; text: string }
  | { il: 'metrics'; id: number; text: string };

const isMessage = (m: unknown): m is Message => !!m && typeof m === 'object' && typeof (m as { il?: unknown }).il === 'string';

/** `--workers` as a count: `auto` is the machine's cores; undefined for a value that is neither. */
export function workerCount(text: string): number | undefined {
  if (text === 'auto') return availableParallelism();
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= 1024 ? n : undefined;
}

export const isWorker = (): boolean => cluster.isWorker;

/** How long a worker's metrics are waited for before the others' are given without them. */
const METRICS_WAIT_MS = 2_000;

export interface PrimaryOptions {
  workers: number;
  /** The start line, once every worker listens on `port` (`redis`: whether the first one reached it). */
  started(port: number, redis?: { reachable: boolean }): string;
  /** Written to stderr (lines). */
  say?: (line: string) => void;
}

/**
 * The primary's metrics rounds: a worker asks for everyone's metrics, every connected worker is
 * asked for its own, and the asker is answered with them merged once all have answered, or gone,
 * or METRICS_WAIT_MS has passed.
 */
class MetricsRounds {
  private readonly rounds = new Map<number, { asker: Worker; parts: string[]; waiting: Set<number>; timer: ReturnType<typeof setTimeout> }>();

  ask(asker: Worker, id: number): void {
    const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
    this.rounds.set(id, { asker, parts: [], waiting: new Set(all.map((w) => w.id)), timer: setTimeout(() => this.answer(id), METRICS_WAIT_MS) });
    for (const w of all) w.send({ il: 'metrics-dump', id } satisfies Message);
  }

  part(worker: Worker, id: number, text: string): void {
    const g = this.rounds.get(id);
    if (!g) return;
    g.parts.push(text);
    g.waiting.delete(worker.id);
    if (g.waiting.size === 0) this.answer(id);
  }

  /** A worker exited: no round waits for it. */
  gone(worker: Worker): void {
    for (const [id, g] of this.rounds) if (g.waiting.delete(worker.id) && g.waiting.size === 0) this.answer(id);
  }

  private answer(id: number): void {
    const g = this.rounds.get(id);
    if (!g) return;
    this.rounds.delete(id);
    clearTimeout(g.timer);
    if (g.asker.isConnected()) g.asker.send({ il: 'metrics', id, text: mergeMetrics(g.parts) } satisfies Message);
  }
}

/** Run as the primary: start, watch, replace and stop the workers. */
export function runPrimary(o: PrimaryOptions): void {
  const say = o.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  let stopping = false;
  let everyoneListened = false;
  let failedExit = false;
  const listening = new Set<number>();
  /** Crash times of the last minute: each one more in it doubles the wait before the next start. */
  const crashes: number[] = [];
  const rounds = new MetricsRounds();

  const fork = () => cluster.fork();

  cluster.on('message', (worker, m: unknown) => {
    if (!isMessage(m)) return;
    switch (m.il) {
      case 'listening':
        listening.add(worker.id);
        if (!everyoneListened && listening.size >= o.workers) {
          everyoneListened = true;
          say(o.started(m.port, m.redis));
        }
        break;
      case 'metrics?':
        rounds.ask(worker, m.id);
        break;
      case 'metrics-part':
        rounds.part(worker, m.id, m.text);
        break;
      default:
        break;
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    rounds.gone(worker);
    if (code !== 0) failedExit = true;
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failedExit ? 1 : 0);
      return;
    }
    if (!everyoneListened) {
      // A worker that cannot start (a port in use, a file it cannot read) will not start again.
      say(`interlingua: a worker exited before listening (${signal ?? `exit code ${code}`}); stopping`);
      stop(1);
      return;
    }
    const now = Date.now();
    while (crashes.length && crashes[0]! < now - 60_000) crashes.shift();
    crashes.push(now);
    const waitMs = Math.min(10_000, 250 * 2 ** (crashes.length - 1));
    say(`interlingua: worker ${worker.process.pid} exited (${signal ?? `exit code ${code}`}); starting another in ${waitMs} ms`);
    setTimeout(() => !stopping && fork(), waitMs).unref();
  });

  const stop = (exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    if (exitCode) failedExit = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (alive.length === 0) process.exit(exitCode);
    if (exitCode === 0) say(`interlingua: shutting down, ${alive.length} worker${alive.length === 1 ? '' : 's'} finishing open requests`);
    for (const w of alive) w.process.kill('SIGTERM');
    // Each worker gives its requests 10 s; past that and a little more, whatever is left is ended.
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(1);
    }, 15_000).unref();
  };
  process.on('SIGTERM', () => stop());
  process.on('SIGINT', () => stop());

  for (let i = 0; i < o.workers; i++) fork();
}

/** A worker's side: say it listens, answer the primary's metrics rounds, ask for everyone's. */
export function workerLink(localMetrics: () => string): { listening(port: number, redis?: { reachable: boolean }): void; gatherMetrics(): Promise<string> } {
  let next = 0;
  const waiting = new Map<number, (text: string) => void>();
  process.on('message', (m: unknown) => {
    if (!isMessage(m)) return;
    if (m.il === 'metrics-dump') process.send?.({ il: 'metrics-part', id: m.id, text: localMetrics() } satisfies Message);
    else if (m.il === 'metrics') waiting.get(m.id)?.(m.text);
  });
  return {
    listening: (port, redis) => process.send?.({ il: 'listening', port, ...(redis && { redis }) } satisfies Message),
    gatherMetrics: () =>
      new Promise((resolve) => {
        const id = ++next;
        // The primary gone or slow: this worker's own counters rather than nothing.
        const timer = setTimeout(() => done(localMetrics()), METRICS_WAIT_MS + 1_000);
        const done = (text: string) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(text);
        };
        waiting.set(id, done);
        process.send?.({ il: 'metrics?', id } satisfies Message);
      }),
  };
}
