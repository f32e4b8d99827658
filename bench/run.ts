/**
 * `npm run bench [-- --quick] [-- --runs N]`: Interlingua against a raw node:http passthrough,
 * both in front of the same instant mock upstream, driven by wrk (autocannon when wrk is not
 * installed), the proxy pinned to core 0 and everything else to core 1. For each dialect pair it
 * measures req/s, the proxy process's CPU per request and per 50-event stream (process.cpuUsage()
 * over the fork IPC channel), p50/p99 at c=1 and c=64, time to first token, RSS, and memory after
 * the whole load; several interleaved runs, each measurement on both sides back to back; ratios to
 * the passthrough taken per run, then medians. A reference floor (bench/floor.ts: parse and
 * re-serialise only) is measured alongside for scale.
 * Results also go to .tmp/bench/results.json.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchBundle } from '../scripts/node-bundle.ts';
import type { ProcStats } from './control.ts';
import { describeIdleRss, measureIdleRss, type IdleRss } from './idle-rss.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, '.tmp', 'bench');
mkdirSync(out, { recursive: true });

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : quick ? 1 : 5;
const DUR_C64 = quick ? 1 : 2;
const DUR_C1 = quick ? 1 : 2;
const TTFT_N = quick ? 40 : 150;
const SOAK = { requests: quick ? 0 : 100_000, streams: quick ? 0 : 10_000 };
const started = Date.now();

type Dialect = 'openai' | 'anthropic' | 'gemini';
const PAIRS: Array<[Dialect, Dialect]> = [
  ['openai', 'openai'],
  ['openai', 'anthropic'],
  ['anthropic', 'openai'],
  ['gemini', 'openai'],
  ['openai', 'gemini'],
];

// ---------------------------------------------------------------------------------------------
// Processes

const which = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const PIN = which('taskset') && availableParallelism() >= 2;
const WRK = which('wrk') && !args.includes('--autocannon');
const pin = (pid: number, core: number) => {
  if (PIN) execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
};

async function bundle(): Promise<void> {
  // Prebuilt bundles: what runs is the same code `npm start` runs, without tsx's loader on the path.
  await build({
    entryPoints: { mock: 'bench/mock-upstream.ts', passthrough: 'bench/passthrough.ts', floor: 'bench/floor.ts', proxy: 'bench/proxy-entry.ts' },
    absWorkingDir: root,
    outdir: out,
    ...benchBundle,
  });
}

const live = new Set<ChildProcess>();
const killAll = () => live.forEach((p) => p.kill());

interface Child {
  proc: ChildProcess;
  port: number;
  ask(op: 'stats' | 'gc'): Promise<ProcStats>;
  stop(): void;
}

/**
 * The V8 flags `npm start` gives Node (package.json's start script), so the proxy runs here as
 * it runs there.
 */
const START_FLAGS: string[] =
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.match(/--max-[\w-]+=\d+/g) ?? [];

function start(file: string, argv: string[], core: number): Promise<Child> {
  const flags = file === 'proxy.mjs' ? (process.env.BENCH_PROXY_FLAGS?.split(' ').filter(Boolean) ?? START_FLAGS) : [];
  const proc = fork(join(out, file), argv, { execArgv: ['--expose-gc', ...flags], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
  let seq = 0;
  const waiting = new Map<number, (s: ProcStats) => void>();
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    proc.on('message', (m: { ready?: number; id?: number; stats?: ProcStats }) => {
      if (m.ready !== undefined) {
        pin(proc.pid!, core);
        resolve({
          proc,
          port: m.ready,
          ask: (op) =>
            new Promise((done) => {
              const id = ++seq;
              waiting.set(id, done);
              proc.send({ id, op });
            }),
          stop: () => {
            proc.removeAllListeners('exit');
            proc.kill();
          },
        });
      } else if (m.id !== undefined) {
        waiting.get(m.id)?.(m.stats!);
        waiting.delete(m.id);
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Req {
  path: string;
  headers: Record<string, string>;
  body: string;
}

const PROMPT = "What's the weather like in SF?";
function request(caller: Dialect, upstream: Dialect, stream: boolean): Req {
  const model = `bench-${upstream}`;
  if (caller === 'openai')
    return {
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-caller' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: PROMPT }], ...(stream ? { stream: true } : {}) }),
    };
  if (caller === 'anthropic')
    return {
      path: '/v1/messages',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench-caller', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 1024, messages: [{ role: 'user', content: PROMPT }], ...(stream ? { stream: true } : {}) }),
    };
  return {
    path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-bench-caller' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
  };
}

function proxyConfig(mockPort: number): string {
  const base = `http://127.0.0.1:${mockPort}`;
  return JSON.stringify({
    open: true,
    upstreams: {
      openai: { dialect: 'openai', baseUrl: `${base}/v1`, apiKey: 'sk-bench-upstream' },
      anthropic: { dialect: 'anthropic', baseUrl: base, apiKey: 'sk-ant-bench-upstream' },
      gemini: { dialect: 'gemini', baseUrl: base, apiKey: 'AIza-bench-upstream' },
    },
    models: {
      'bench-openai': { upstream: 'openai' },
      'bench-anthropic': { upstream: 'anthropic' },
      'bench-gemini': { upstream: 'gemini' },
    },
  });
}

/** One request; status, body and time to the first body byte (ms). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function once(port: number, r: Req): Promise<{ status: number; body: string; ttftMs: number; totalMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let ttft = 0;
    const req = http.request({ host: '127.0.0.1', port, path: r.path, method: 'POST', headers: r.headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (!ttft) ttft = Number(process.hrtime.bigint() - t0) / 1e6;
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ttftMs: ttft, totalMs: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

// ---------------------------------------------------------------------------------------------
// Load

interface LoadResult {
  requests: number;
  rps: number;
  p50Us: number;
  p99Us: number;
  failed: number;
}

const lua = (r: Req) => {
  const lines = [`wrk.method = "POST"`, `wrk.body = [==[${r.body}]==]`];
  for (const [k, v] of Object.entries(r.headers)) lines.push(`wrk.headers["${k}"] = "${v}"`);
  lines.push(
    `done = function(s, latency, requests)`,
    `  io.write(string.format('\\n{"requests":%d,"durationUs":%d,"errors":%d,"p50":%d,"p99":%d}\\n', s.requests, s.duration,`,
    `    s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout + s.errors.status, latency:percentile(50), latency:percentile(99)))`,
    `end`,
  );
  return lines.join('\n');
};

let scriptSeq = 0;
async function load(port: number, r: Req, connections: number, seconds: number): Promise<LoadResult> {
  if (WRK) {
    const script = join(out, `load-${++scriptSeq % 64}.lua`);
    writeFileSync(script, lua(r));
    const argv = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, `http://127.0.0.1:${port}${r.path}`];
    const text = await new Promise<string>((resolve, reject) => {
      const p = spawn(PIN ? 'taskset' : 'wrk', PIN ? ['-c', '1', 'wrk', ...argv] : argv, { stdio: ['ignore', 'pipe', 'inherit'] });
      let s = '';
      p.stdout.on('data', (c) => (s += c));
      p.on('exit', (code) => (code === 0 ? resolve(s) : reject(new Error(`wrk exited with ${code}`))));
    });
    const j = JSON.parse(text.trim().split('\n').at(-1)!);
    return { requests: j.requests, rps: j.requests / (j.durationUs / 1e6), p50Us: j.p50, p99Us: j.p99, failed: j.errors };
  }
  const { default: autocannon } = await import('autocannon');
  const res = await autocannon({ url: `http://127.0.0.1:${port}${r.path}`, method: 'POST', headers: r.headers, body: r.body, connections, duration: seconds });
  return {
    requests: res.requests.total,
    rps: res.requests.total / res.duration,
    p50Us: res.latency.p50 * 1000,
    p99Us: res.latency.p99 * 1000,
    failed: res.non2xx + res.errors,
  };
}

interface Measured extends LoadResult {
  cpuUs: number;
}
let proxyTotals = { requests: 0, streams: 0 };
async function measure(target: Child, port: number, r: Req, connections: number, seconds: number): Promise<Measured> {
  const before = await target.ask('stats');
  const res = await load(port, r, connections, seconds);
  const after = await target.ask('stats');
  return { ...res, cpuUs: (after.cpuUs - before.cpuUs) / Math.max(1, res.requests) };
}

async function ttft(port: number, r: Req, n: number): Promise<{ ttftMs: number; totalMs: number }> {
  const t: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await once(port, r);
    t.push(res.ttftMs);
    total.push(res.totalMs);
  }
  return { ttftMs: median(t), totalMs: median(total) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

// ---------------------------------------------------------------------------------------------
// Main

type Sample = Record<string, number>;

async function main() {
  if (PIN) pin(process.pid, 1);
  console.log(`interlingua bench: ${quick ? 'quick' : 'full'}, proxy Node flags: ${(process.env.BENCH_PROXY_FLAGS ?? START_FLAGS.join(' ')) || 'none'}, ${RUNS} interleaved run(s), load generator ${WRK ? 'wrk' : 'autocannon'}, ${PIN ? 'proxy pinned to core 0, mock + load generator to core 1' : 'no CPU pinning'}, Node ${process.version}`);
  let bundleSize: { raw: number; gzip: number; parts: Record<string, number> } | undefined;
  try {
    bundleSize = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'bundle-size.ts'), '--json'], { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1)!);
  } catch (e) {
    console.log(`bundle size: failed (${(e as Error).message.split('\n')[0]})`);
  }
  // The compiled command as production starts it (dist/cli.js, no flags), before any load.
  let idleRss: IdleRss | undefined;
  try {
    idleRss = await measureIdleRss(quick ? 3 : 5);
    console.log(describeIdleRss(idleRss));
  } catch (e) {
    console.log(`idle RSS of the compiled CLI: failed (${(e as Error).message.split('\n')[0]})`);
  }
  await bundle();
  const mock = await start('mock.mjs', ['serve', join(root, 'translators') + '/'], 1);
  const base = await start('passthrough.mjs', [String(mock.port)], 0);
  const proxy = await start('proxy.mjs', [proxyConfig(mock.port)], 0);
  const floor = await start('floor.mjs', [String(mock.port)], 0);
  {
    await new Promise((r) => setTimeout(r, 300));
    const idle = await proxy.ask('gc');
    const baseIdle = await base.ask('gc');

    // Sanity: every pair answers 200 in the caller's dialect, streams end properly.
    for (const [caller, up] of PAIRS) {
      for (const stream of [false, true]) {
        const r = await once(proxy.port, request(caller, up, stream));
        const ok = r.status === 200 && (!stream || /\[DONE\]|message_stop|finishReason/.test(r.body));
        if (!ok) throw new Error(`${caller}→${up}${stream ? ' stream' : ''}: ${r.status} ${r.body.slice(0, 300)}`);
      }
    }

    // Warm-up (JIT, pools), then the post-warm-up memory baseline.
    for (let pass = 0; pass < 2; pass++) {
      for (const [caller, up] of PAIRS) {
        for (const stream of [false, true]) {
          const m = await load(proxy.port, request(caller, up, stream), 64, 1);
          proxyTotals[stream ? 'streams' : 'requests'] += m.requests;
          await load(base.port, request(up, up, stream), 64, 1);
          if (!stream) await load(floor.port, request(up, up, false), 64, 1);
        }
      }
    }
    const warm = await proxy.ask('gc');

    const samples = new Map<string, Sample[]>();
    const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
    for (let run = 0; run < RUNS; run++) {
      // Rotate the pair order too, so no pair always runs first after a pause.
      for (const [caller, up] of [...PAIRS.slice(run % PAIRS.length), ...PAIRS.slice(0, run % PAIRS.length)]) {
        const key = `${caller}→${up}`;
        const s: Sample = {};
        // Each measurement runs on both sides back to back (which side goes first alternates by
        // run), so both see the same machine: the ratios below are taken per run, from these
        // adjacent slices, and the report takes their medians.
        const order: Array<'base' | 'proxy'> = run % 2 ? ['proxy', 'base'] : ['base', 'proxy'];
        const both = async <T,>(fn: (t: Child, side: 'base' | 'proxy') => Promise<T>) => {
          const got = {} as Record<'base' | 'proxy', T>;
          for (const side of order) got[side] = await fn(side === 'base' ? base : proxy, side);
          return got;
        };
        const json = (side: 'base' | 'proxy') => request(side === 'base' ? up : caller, up, false);
        const sse = (side: 'base' | 'proxy') => request(side === 'base' ? up : caller, up, true);
        const j64 = await both((t, side) => measure(t, t.port, json(side), 64, DUR_C64));
        // The reference floor (bench/floor.ts), right after, on the upstream dialect's request.
        const f64 = await measure(floor, floor.port, json('base'), 64, DUR_C64);
        s['floor.cpu'] = f64.cpuUs;
        s['ratio.floor'] = f64.cpuUs / j64.base.cpuUs;
        const j1 = await both((t, side) => measure(t, t.port, json(side), 1, DUR_C1));
        const s64 = await both((t, side) => measure(t, t.port, sse(side), 64, DUR_C64));
        const tt = await both((t, side) => ttft(t.port, sse(side), TTFT_N));
        proxyTotals.requests += j64.proxy.requests + j1.proxy.requests;
        proxyTotals.streams += s64.proxy.requests + TTFT_N;
        for (const side of order) {
          Object.assign(s, {
            [`${side}.rps`]: j64[side].rps,
            [`${side}.cpu`]: j64[side].cpuUs,
            [`${side}.p50c1`]: j1[side].p50Us,
            [`${side}.p99c1`]: j1[side].p99Us,
            [`${side}.p50c64`]: j64[side].p50Us,
            [`${side}.p99c64`]: j64[side].p99Us,
            [`${side}.srps`]: s64[side].rps,
            [`${side}.scpu`]: s64[side].cpuUs,
            [`${side}.sp50c64`]: s64[side].p50Us,
            [`${side}.sp99c64`]: s64[side].p99Us,
            [`${side}.ttft`]: tt[side].ttftMs,
            [`${side}.stotal`]: tt[side].totalMs,
            [`${side}.failed`]: j64[side].failed + j1[side].failed + s64[side].failed,
          });
        }
        s['ratio.cpu'] = j64.proxy.cpuUs / j64.base.cpuUs;
        s['ratio.scpu'] = s64.proxy.cpuUs / s64.base.cpuUs;
        s['added.p50c1'] = (j1.proxy.p50Us - j1.base.p50Us) / 1000;
        s['added.ttft'] = tt.proxy.ttftMs - tt.base.ttftMs;
        add(key, s);
      }
      console.log(`  run ${run + 1}/${RUNS} done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }

    // Soak to the counts, then memory again after a full GC.
    const soakStart = Date.now();
    while (proxyTotals.requests < SOAK.requests || proxyTotals.streams < SOAK.streams) {
      if (Date.now() - soakStart > 90_000) break;
      for (const [caller, up] of PAIRS) {
        if (proxyTotals.requests < SOAK.requests) proxyTotals.requests += (await load(proxy.port, request(caller, up, false), 64, 1)).requests;
        if (proxyTotals.streams < SOAK.streams) proxyTotals.streams += (await load(proxy.port, request(caller, up, true), 64, 1)).requests;
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    const end = await proxy.ask('gc');
    const baseEnd = await base.ask('stats');

    report({ samples, idle, baseIdle, baseEnd, warm, end, bundleSize, idleRss });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const MB = 1024 * 1024;
const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

function report(o: {
  samples: Map<string, Sample[]>;
  idle: ProcStats;
  baseIdle: ProcStats;
  baseEnd: ProcStats;
  warm: ProcStats;
  end: ProcStats;
  bundleSize?: { raw: number; gzip: number; parts: Record<string, number> };
  idleRss?: IdleRss;
}) {
  const med = new Map<string, Sample>();
  for (const [key, list] of o.samples) {
    const m: Sample = {};
    for (const k of Object.keys(list[0]!)) m[k] = median(list.map((s) => s[k]!));
    med.set(key, m);
  }
  const rows: string[] = [];
  rows.push('| pair (caller→upstream) | req/s c=64 | CPU µs/req | ×pass | floor ×pass | p50 / p99 c=1 (ms) | p50 / p99 c=64 (ms) | streams/s c=64 | CPU µs/stream | ×pass | TTFT (ms) | +TTFT (ms) |');
  rows.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const ms = (us: number) => f2(us / 1000);
  for (const [key, m] of [...med].sort((a, b) => PAIRS.findIndex(([c, u]) => `${c}→${u}` === a[0]) - PAIRS.findIndex(([c, u]) => `${c}→${u}` === b[0]))) {
    const up = key.split('→')[1];
    rows.push(`| passthrough (${up}) | ${f0(m['base.rps']!)} | ${f0(m['base.cpu']!)} | 1.00 | | ${ms(m['base.p50c1']!)} / ${ms(m['base.p99c1']!)} | ${ms(m['base.p50c64']!)} / ${ms(m['base.p99c64']!)} | ${f0(m['base.srps']!)} | ${f0(m['base.scpu']!)} | 1.00 | ${f2(m['base.ttft']!)} | |`);
    rows.push(`| **${key}** | ${f0(m['proxy.rps']!)} | ${f0(m['proxy.cpu']!)} | **${f2(m['ratio.cpu']!)}** | ${f2(m['ratio.floor']!)} | ${ms(m['proxy.p50c1']!)} / ${ms(m['proxy.p99c1']!)} | ${ms(m['proxy.p50c64']!)} / ${ms(m['proxy.p99c64']!)} | ${f0(m['proxy.srps']!)} | ${f0(m['proxy.scpu']!)} | **${f2(m['ratio.scpu']!)}** | ${f2(m['proxy.ttft']!)} | ${f2(m['added.ttft']!)} |`);
    const failed = m['proxy.failed']! + m['base.failed']!;
    if (failed) rows.push(`| ⚠ ${key}: ${failed} failed requests (median per run) | | | | | | | | | | | |`);
  }
  console.log('\nPer pair (medians over runs; the passthrough row above each pair is its baseline: the upstream dialect\'s request straight through a raw node:http proxy; ×pass and +TTFT are medians of the per-run ratios and differences, each from back-to-back measurements):\n');
  console.log(rows.join('\n'));

  const all = [...med.entries()];
  const same = all.filter(([k]) => k.split('→')[0] === k.split('→')[1]);
  const translated = all.filter(([k]) => k.split('→')[0] !== k.split('→')[1]);
  const worst = (list: typeof all, f: (m: Sample) => number) => {
    let best = { key: '', v: -Infinity };
    for (const [key, m] of list) if (f(m) > best.v) best = { key, v: f(m) };
    return best;
  };
  const cpuSame = worst(same, (m) => m['ratio.cpu']!);
  const cpuTr = worst(translated, (m) => m['ratio.cpu']!);
  const sTr = worst(translated, (m) => m['ratio.scpu']!);
  const addLat = worst(all, (m) => m['added.p50c1']!);
  const addTtft = worst(all, (m) => m['added.ttft']!);
  const heapGrowth = (o.end.heapUsed - o.warm.heapUsed) / o.warm.heapUsed;
  const rssGrowth = (o.end.rss - o.warm.rss) / o.warm.rss;
  const mark = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const t: string[] = [];
  t.push('| metric | target | measured | |');
  t.push('| --- | --- | --- | --- |');
  t.push(`| CPU per request, same-dialect passthrough, non-stream c=64 | ≤ 1.3× | ${f2(cpuSame.v)}× (${cpuSame.key}) | ${mark(cpuSame.v <= 1.3)} |`);
  t.push(`| CPU per request, translated pairs, non-stream c=64 | ≤ 1.5× | ${f2(cpuTr.v)}× (worst: ${cpuTr.key}) | ${mark(cpuTr.v <= 1.5)} |`);
  t.push(`| CPU per 50-event stream, translated | ≤ 1.5× | ${f2(sTr.v)}× (worst: ${sTr.key}) | ${mark(sTr.v <= 1.5)} |`);
  t.push(`| added latency p50 at c=1 / added time to first token | ≤ +0.3 ms | +${f2(addLat.v)} ms (${addLat.key}) / +${f2(addTtft.v)} ms (${addTtft.key}) | ${mark(addLat.v <= 0.3 && addTtft.v <= 0.3)} |`);
  t.push(`| RSS idle / peak at c=64 | ≤ 60 MB / ≤ 120 MB | ${f1(o.idle.rss / MB)} MB / ${f1(o.end.maxRss / MB)} MB (passthrough ${f1(o.baseIdle.rss / MB)} MB / ${f1(o.baseEnd.maxRss / MB)} MB) | ${mark(o.idle.rss <= 60 * MB && o.end.maxRss <= 120 * MB)} |`);
  t.push(`| memory after ${proxyTotals.requests} requests and ${proxyTotals.streams} streams vs post-warm-up (after GC) | within 10 % | heap ${f1(o.warm.heapUsed / MB)} → ${f1(o.end.heapUsed / MB)} MB (${heapGrowth >= 0 ? '+' : ''}${f0(heapGrowth * 100)} %), RSS ${f1(o.warm.rss / MB)} → ${f1(o.end.rss / MB)} MB (${rssGrowth >= 0 ? '+' : ''}${f0(rssGrowth * 100)} %) | ${mark(Math.abs(heapGrowth) <= 0.1 && rssGrowth <= 0.1)} |`);
  if (o.idleRss) {
    const r = o.idleRss;
    t.push(`| RSS idle, compiled CLI (\`node dist/cli.js\`, after /health) / after one request | < 50 MB | ${f1(r.idle.rss / 1024)} MB / ${f1(r.afterRequest.rss / 1024)} MB | ${mark(r.idle.rss < 50 * 1024)} |`);
  }
  if (o.bundleSize) {
    const kb = (n: number) => `${f1(n / 1024)} KiB`;
    t.push(`| Worker bundle | ≤ 60 KB gzip | ${kb(o.bundleSize.gzip)} gzip (${kb(o.bundleSize.raw)} minified) | ${mark(o.bundleSize.gzip <= 60 * 1000)} |`);
  }
  console.log('\nTargets (ratios to the passthrough measured in the same run):\n');
  console.log(t.join('\n'));
  const floors = all.map(([, m]) => m['ratio.floor']!);
  console.log(`\nFor scale: a bare node:http proxy that only parses and re-serialises the JSON both ways (bench/floor.ts) costs ${f2(median(floors))}× the passthrough (median over pairs; per pair in the floor column).`);
  if (quick || proxyTotals.requests < 100_000 || proxyTotals.streams < 10_000) console.log(`\n(memory row: ${quick ? '--quick ' : ''}load below the issue's 100k requests / 10k streams)`);
  console.log(`\nbench took ${f0((Date.now() - started) / 1000)} s`);
  writeFileSync(join(out, 'results.json'), JSON.stringify({ quick, runs: RUNS, wrk: WRK, pinned: PIN, medians: Object.fromEntries(med), idle: o.idle, warm: o.warm, end: o.end, totals: proxyTotals, bundle: o.bundleSize, idleRss: o.idleRss }, null, 2));
}

process.on('SIGINT', () => (killAll(), process.exit(130)));
try {
  await main();
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  killAll();
}
