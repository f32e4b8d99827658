/**
 * The admin channel of a benchmarked process: the parent (bench/run.ts, over the fork IPC
 * channel) asks for CPU time and memory; the child answers from its own process counters, so no
 * HTTP endpoint and no extra work sits on the measured path.
 */
export interface ProcStats {
  /** User + system CPU time in µs since the process started. */
  cpuUs: number;
  /** The user and system parts of it. */
  userUs: number;
  systemUs: number;
  rss: number;
  heapUsed: number;
  /** Memory outside V8's heap held by JS objects (Buffers, ArrayBuffers). */
  external: number;
  /** Peak resident set size in bytes (getrusage). */
  maxRss: number;
}

export function stats(): ProcStats {
  const cpu = process.cpuUsage();
  const mem = process.memoryUsage();
  return { cpuUs: cpu.user + cpu.system, userUs: cpu.user, systemUs: cpu.system, rss: mem.rss, heapUsed: mem.heapUsed, external: mem.external, maxRss: process.resourceUsage().maxRSS * 1024 };
}

/**
 * Answer `{ id, op: 'stats' | 'gc' }` messages; announce `{ ready: port }` (started without an IPC
 * channel, as test/bench-bundle.test.ts starts it: `ready PORT` on stderr).
 */
export function serveControl(port: number): void {
  process.on('message', (m: { id: number; op: string }) => {
    if (m.op === 'gc') {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        gc();
        gc();
      }
    }
    process.send?.({ id: m.id, stats: stats() });
  });
  process.on('disconnect', () => process.exit(0));
  if (process.send) process.send({ ready: port });
  else process.stderr.write(`ready ${port}\n`);
}
