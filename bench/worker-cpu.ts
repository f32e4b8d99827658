/**
 * `npx tsx bench/worker-cpu.ts [N] [runs]`: CPU time per request of the Worker in workerd (the
 * bundle `npm run build:worker` deploys, served by Miniflare offline, as test/support/worker.ts
 * does) for the 300 KB agent request, next to Interlingua on Node and the raw node:http
 * passthrough in the same run, interleaved. CPU is each process's user + system time from
 * /proc/PID/stat (10 ms ticks, so N requests per slice, default 60). workerd's figure is the
 * whole process: the Worker's isolate plus workerd's own HTTP and Miniflare's entry worker in
 * front of it (on Cloudflare, only the isolate's time is billed as CPU time). Linux only.
 *
 * `npx tsx bench/worker-cpu.ts --growing [N] [runs]`: instead, an agent's conversation growing
 * turn by turn (each turn the last one plus a tool call and its result, from about 300 KB and
 * 2 MB), anthropic→openai, through two workerd instances, one with the turn memo and one without
 * (`limits.turnMemoBytes: 0`), each sent the same turns in the same order, N per slice.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchBundle } from '../scripts/node-bundle.ts';
import { conversation, render, type Dialect } from './agent-bodies.ts';
import { startWorker } from '../test/support/worker.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, '.tmp', 'bench');
const GROWING = process.argv.includes('--growing');
const numbers = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(numbers[0] ?? 60);
const RUNS = Number(numbers[1] ?? 3);
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const cpuUs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_US; // utime, stime (fields 14, 15)
};
/** Every descendant of `pid`, from /proc. */
const children = (pid: number): number[] => {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parent.set(Number(name), Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch {
      // (gone meanwhile)
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [c, pp] of parent) if (pp === p) (out.push(c), walk(c));
  };
  walk(pid);
  return out;
};
const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

const live: ChildProcess[] = [];
function startChild(file: string, argv: string[]): Promise<{ port: number; pid: number }> {
  const p = fork(join(out, file), argv, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  live.push(p);
  return new Promise((resolve) => p.on('message', (m: { ready?: number }) => m.ready !== undefined && resolve({ port: m.ready, pid: p.pid! })));
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function send(port: number, path: string, headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'content-length': String(body.byteLength) }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main() {
  await build({
    entryPoints: { 'agent-mock': 'bench/agent-mock.ts', passthrough: 'bench/passthrough.ts', proxy: 'bench/proxy-entry.ts' },
    absWorkingDir: root, outdir: out, ...benchBundle,
  });
  const mock = await startChild('agent-mock.mjs', []);
  const base = `http://127.0.0.1:${mock.port}`;
  const config = {
    open: true,
    upstreams: {
      openai: { dialect: 'openai', baseUrl: `${base}/e50/v1`, apiKey: 'sk-bench-upstream' },
      anthropic: { dialect: 'anthropic', baseUrl: `${base}/e50`, apiKey: 'sk-bench-upstream' },
    },
    models: { 'agent-openai': { upstream: 'openai', model: 'real-openai' }, 'agent-anthropic': { upstream: 'anthropic', model: 'real-anthropic' } },
  };
  const node = await startChild('proxy.mjs', [JSON.stringify(config)]);
  const raw = await startChild('passthrough.mjs', [String(mock.port)]);
  const before = new Set(children(process.pid));
  const worker = await startWorker({ INTERLINGUA_CONFIG: JSON.stringify(config) });
  const workerd = children(process.pid).filter((p) => !before.has(p) && comm(p) === 'workerd');
  if (workerd.length === 0) throw new Error('no workerd process found');
  const workerPort = Number(new URL(worker.url).port);

  const c = conversation(300_000);
  const headers = { 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench-caller', 'anthropic-version': '2023-06-01' };
  const cases: Array<{ name: string; up: Dialect }> = [
    { name: 'anthropic→openai (translated)', up: 'openai' },
    { name: 'anthropic→anthropic (same dialect)', up: 'anthropic' },
  ];
  console.log(`Worker CPU, 300 KB agent request, ${N} sequential requests per slice, ${RUNS} interleaved runs; workerd pids ${workerd.join(', ')}`);
  for (const k of cases) {
    const body = Buffer.from(JSON.stringify(render('anthropic', c, `agent-${k.up}`, false)));
    const upBody = Buffer.from(JSON.stringify(render(k.up, c, `real-${k.up}`, false)));
    const upPath = k.up === 'openai' ? '/e50/v1/chat/completions' : '/e50/v1/messages';
    const sides = {
      raw: { port: raw.port, pids: [raw.pid], path: upPath, body: upBody },
      node: { port: node.port, pids: [node.pid], path: '/v1/messages', body },
      worker: { port: workerPort, pids: workerd, path: '/v1/messages', body },
    };
    for (const s of Object.values(sides)) for (let i = 0; i < 5; i++) await send(s.port, s.path, headers, s.body);
    const got: Record<string, number[]> = { raw: [], node: [], worker: [] };
    for (let run = 0; run < RUNS; run++) {
      const order = (['raw', 'node', 'worker'] as const).map((_, i, a) => a[(i + run) % 3]!);
      for (const name of order) {
        const s = sides[name];
        const t0 = s.pids.reduce((a, p) => a + cpuUs(p), 0);
        for (let i = 0; i < N; i++) {
          const status = await send(s.port, s.path, headers, s.body);
          if (status !== 200) throw new Error(`${name} ${k.name}: ${status}`);
        }
        got[name]!.push((s.pids.reduce((a, p) => a + cpuUs(p), 0) - t0) / N);
      }
    }
    const m = Object.fromEntries(Object.entries(got).map(([n, xs]) => [n, median(xs)]));
    console.log(`${k.name}: raw passthrough ${(m.raw! / 1000).toFixed(2)} ms, Node ${(m.node! / 1000).toFixed(2)} ms (${(m.node! / m.raw!).toFixed(2)}× raw), workerd ${(m.worker! / 1000).toFixed(2)} ms (${(m.worker! / m.node!).toFixed(2)}× Node) CPU per request (medians of ${RUNS})`);
  }
  await worker.close();
}

/** The growing conversation's turns from about `bytes` on, `n` of them. */
function growingTurns(bytes: number, n: number) {
  const start = conversation(bytes).turns.length;
  const whole = conversation(bytes + n * 10_000);
  return Array.from({ length: n }, (_, k) => ({ ...whole, turns: whole.turns.slice(0, start + k) }));
}

async function growing() {
  await build({ entryPoints: { 'agent-mock': 'bench/agent-mock.ts', passthrough: 'bench/passthrough.ts' }, absWorkingDir: root, outdir: out, ...benchBundle });
  const mock = await startChild('agent-mock.mjs', []);
  const raw = await startChild('passthrough.mjs', [String(mock.port)]);
  const config = {
    open: true,
    upstreams: { openai: { dialect: 'openai', baseUrl: `http://127.0.0.1:${mock.port}/e50/v1`, apiKey: 'sk-bench-upstream' } },
    models: { 'agent-openai': { upstream: 'openai', model: 'real-openai' } },
  };
  const workers: Record<string, { port: number; pids: number[] }> = {};
  const opened: Array<{ close(): Promise<void> }> = [];
  for (const [name, limits] of [['on', {}], ['off', { turnMemoBytes: 0 }]] as const) {
    const before = new Set(children(process.pid));
    const w = await startWorker({ INTERLINGUA_CONFIG: JSON.stringify({ ...config, limits }) });
    opened.push(w);
    const pids = children(process.pid).filter((p) => !before.has(p) && comm(p) === 'workerd');
    if (pids.length === 0) throw new Error('no workerd process found');
    workers[name] = { port: Number(new URL(w.url).port), pids };
  }
  const headers = { 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench-caller', 'anthropic-version': '2023-06-01' };
  console.log(`Worker CPU per turn of a growing conversation, anthropic→openai, ${N} turns per slice, ${RUNS} interleaved runs, after 3 turns of warm-up`);
  for (const size of [300_000, 2_000_000]) {
    const turns = growingTurns(size, 3 + RUNS * N);
    // (Made as they are sent: a run's 2 MB bodies all at once would be hundreds of MB.)
    const caller = (k: number) => Buffer.from(JSON.stringify(render('anthropic', turns[k]!, 'agent-openai', false)));
    const sides = {
      raw: { port: raw.port, pids: [raw.pid], path: '/e50/v1/chat/completions', body: (k: number) => Buffer.from(JSON.stringify(render('openai', turns[k]!, 'real-openai', false))) },
      off: { ...workers.off!, path: '/v1/messages', body: caller },
      on: { ...workers.on!, path: '/v1/messages', body: caller },
    };
    const names = Object.keys(sides) as Array<keyof typeof sides>;
    for (const name of names) for (let i = 0; i < 3; i++) await send(sides[name].port, sides[name].path, headers, sides[name].body(i));
    const got: Record<string, number[]> = { raw: [], off: [], on: [] };
    for (let run = 0; run < RUNS; run++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + run) % names.length]!;
        const s = sides[name];
        const bodies = Array.from({ length: N }, (_, k) => s.body(3 + run * N + k));
        const t0 = s.pids.reduce((a, p) => a + cpuUs(p), 0);
        for (let k = 0; k < N; k++) {
          const status = await send(s.port, s.path, headers, bodies[k]!);
          if (status !== 200) throw new Error(`${name} ${size}: ${status}`);
        }
        got[name]!.push((s.pids.reduce((a, p) => a + cpuUs(p), 0) - t0) / N);
      }
    }
    const m = Object.fromEntries(Object.entries(got).map(([n, xs]) => [n, median(xs)]));
    const kb = (caller(3).byteLength / 1000).toFixed(0);
    console.log(`${kb} KB growing: raw passthrough ${(m.raw! / 1000).toFixed(2)} ms, workerd memo off ${(m.off! / 1000).toFixed(2)} ms, memo on ${(m.on! / 1000).toFixed(2)} ms (${(m.on! / m.off!).toFixed(2)}× off) CPU per turn (medians of ${RUNS})`);
  }
  for (const w of opened) await w.close();
}

try {
  await (GROWING ? growing() : main());
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  for (const p of live) p.kill();
}
