/**
 * `npm run bench:agent [-- --quick] [-- --runs N] [-- --pairs anthropic→openai,…] [-- --sizes 30KB,2MB]
 * [-- --no-streams] [-- --memory N] [-- --growing]`: Interlingua at agent scale. Bodies shaped like agent turns
 * (bench/agent-bodies.ts: a 12 KB system prompt, 20 tool schemas, hundreds of tool calls and
 * results; 30 KB, 300 KB and 2 MB), Anthropic, Responses and Gemini callers to each upstream
 * dialect and same-dialect (OpenAI Chat too), and streams of 50, 500 and 2,000 events with
 * tool-call argument deltas. Every case runs against the raw node:http passthrough (the upstream
 * dialect's own body) and the parse-and-re-serialise floor (bench/floor.ts), and a same-dialect
 * case also against the holding control (bench/holding-proxy.ts: holds the body, renames the
 * model, logs), in the same run, interleaved (the order rotates by run), sequential keep-alive requests; CPU is each process's own
 * `process.cpuUsage()` over the fork IPC channel. Ratios are taken per run from adjacent slices,
 * then medians over runs. `--memory N` instead sends N 2 MB requests to a fresh proxy and reports
 * its RSS (after GC) along the way, then what one request holds while in flight (`inFlight`), the
 * floor beside it; `--profile PAIR SIZE [N]` profiles one case. Results also go to .tmp/bench/agent-results.json.
 */
import http from 'node:http';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchBundle } from '../scripts/node-bundle.ts';
import type { Dialect } from './agent-bodies.ts';
import { growing, growingTurns, req as growingReq } from './agent-growing.ts';
import { EVENTS, HOLD_MS, live, median, once, pin, PIN, proxyConfig, proxyReq, REPEATED_BODY_SETTINGS, SIZES, slice, start as startIn, UPSTREAMS, upstreamReq, type Child, type Req, type Slice } from './agent-harness.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
// BENCH_OUT: another directory for the bundles and results (two benches at once in one checkout).
const out = process.env.BENCH_OUT ?? join(root, '.tmp', 'bench');
mkdirSync(out, { recursive: true });

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const RUNS = Number(arg('--runs') ?? (quick ? 1 : 3));
const MEMORY = args.includes('--memory') ? Number(arg('--memory') ?? 10_000) : 0;
const sizes = (arg('--sizes')?.split(',') ?? Object.keys(SIZES)).filter((s) => s in SIZES);
/** Requests per slice, per size (a slice is one target's run of sequential requests). */
const COUNT: Record<string, number> = quick ? { '30KB': 40, '300KB': 12, '2MB': 4 } : { '30KB': 150, '300KB': 40, '2MB': 10 };
const STREAMS: Record<number, number> = quick ? { 50: 10, 500: 4, 2000: 2 } : { 50: 30, 500: 10, 2000: 5 };
const streams = !args.includes('--no-streams');

const CALLERS: Dialect[] = ['anthropic', 'responses', 'gemini'];
const ALL: Array<[Dialect, Dialect]> = [['openai', 'openai'], ...CALLERS.flatMap((c) => UPSTREAMS.map((u) => [c, u] as [Dialect, Dialect]))];
const key = ([c, u]: [Dialect, Dialect]) => `${c}→${u}`;
const PAIRS = arg('--pairs') ? ALL.filter((p) => arg('--pairs')!.split(',').includes(key(p))) : ALL;
const started = Date.now();

// BENCH_PROXY_FLAGS: V8 flags for the proxy instead of those of package.json's start script (to try heap sizes).
const START_FLAGS: string[] = process.env.BENCH_PROXY_FLAGS?.split(' ').filter(Boolean) ?? (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.match(/--max-[\w-]+=\d+/g) ?? [];
const start = (file: string, argv: string[], core: number, execArgv: string[] = []): Promise<Child> => startIn(out, file, argv, core, execArgv);

/**
 * Config settings the measured proxy gets on top of the bench's routes (proxyConfig), in every
 * mode but --growing: the matrix sends the same body again and again, so the turn memo is off.
 */
const MATRIX_SETTINGS = REPEATED_BODY_SETTINGS;

const STREAM_END = /\[DONE\]|message_stop|response\.completed|"finishReason"\s*:\s*"STOP"/;

// ---------------------------------------------------------------------------------------------
// Main

type Sample = Record<string, number>;

async function bundle() {
  await build({
    entryPoints: { 'agent-mock': 'bench/agent-mock.ts', passthrough: 'bench/passthrough.ts', floor: 'bench/floor.ts', 'holding-proxy': 'bench/holding-proxy.ts', proxy: 'bench/proxy-entry.ts' },
    absWorkingDir: root, outdir: out, ...benchBundle,
  });
}

async function matrix() {
  const mock = await start('agent-mock.mjs', [], 1);
  const base = await start('passthrough.mjs', [String(mock.port)], 0);
  const floor = await start('floor.mjs', [String(mock.port)], 0);
  const control = await start('holding-proxy.mjs', [proxyConfig(mock.port)], 0);
  const proxy = await start('proxy.mjs', [proxyConfig(mock.port, MATRIX_SETTINGS)], 0, START_FLAGS);
  await new Promise((r) => setTimeout(r, 300));
  const idle = await proxy.ask('gc');
  // Sanity: every case answers 200, streams end properly; then a warm-up pass (JIT, pools).
  for (const p of PAIRS) {
    for (const stream of [false, true]) {
      const r = await once(proxy.port, proxyReq(p[0], p[1], 30_000, stream, stream ? 500 : 50));
      if (r.status !== 200 || (stream && !STREAM_END.test(r.body))) throw new Error(`${key(p)}${stream ? ' stream' : ''}: ${r.status} ${r.body.slice(0, 400)}`);
    }
    if (p[0] === p[1]) {
      const r = await once(control.port, proxyReq(p[0], p[1], 30_000, false));
      if (r.status !== 200) throw new Error(`${key(p)} holding control: ${r.status} ${r.body.slice(0, 400)}`);
    }
  }
  for (const p of PAIRS) {
    for (const s of sizes) {
      await slice(proxy, proxyReq(p[0], p[1], SIZES[s]!, false), 2);
      await slice(base, upstreamReq(p[1], SIZES[s]!, false), 2);
      await slice(floor, upstreamReq(p[1], SIZES[s]!, false), 2);
      if (p[0] === p[1]) await slice(control, proxyReq(p[0], p[1], SIZES[s]!, false), 2);
    }
    if (streams) for (const n of EVENTS) await slice(proxy, proxyReq(p[0], p[1], 30_000, true, n), 1);
  }
  console.log(`  warm-up done (${((Date.now() - started) / 1000).toFixed(0)} s)`);

  const samples = new Map<string, Sample[]>();
  const add = (k: string, s: Sample) => samples.set(k, [...(samples.get(k) ?? []), s]);
  for (let run = 0; run < RUNS; run++) {
    const rot = run % PAIRS.length;
    for (const p of [...PAIRS.slice(rot), ...PAIRS.slice(0, rot)]) {
      const [caller, up] = p;
      // The holding control (same dialect only) takes its turn among the others.
      const all = caller === up ? (['base', 'floor', 'proxy', 'control'] as const) : (['base', 'floor', 'proxy'] as const);
      const sides = all.map((_, i, a) => a[(i + run) % a.length]!);
      for (const s of sizes) {
        const bytes = SIZES[s]!;
        const got: Record<string, Slice> = {};
        for (const side of sides) {
          const target = { base, floor, proxy, control }[side];
          got[side] = side === 'proxy' || side === 'control' ? await slice(target, proxyReq(caller, up, bytes, false), COUNT[s]!) : await slice(target, upstreamReq(up, bytes, false), COUNT[s]!);
        }
        const mb = proxyReq(caller, up, bytes, false).body.byteLength / 1e6;
        add(`${key(p)} ${s}`, {
          mb,
          'base.cpu': got.base!.cpuUs, 'floor.cpu': got.floor!.cpuUs, 'proxy.cpu': got.proxy!.cpuUs,
          'ratio.raw': got.proxy!.cpuUs / got.base!.cpuUs, 'ratio.floor': got.proxy!.cpuUs / got.floor!.cpuUs, 'floor.raw': got.floor!.cpuUs / got.base!.cpuUs,
          ...(got.control ? { 'control.cpu': got.control.cpuUs, 'ratio.control': got.proxy!.cpuUs / got.control.cpuUs, 'control.raw': got.control.cpuUs / got.base!.cpuUs } : {}),
          'proxy.msPerMB': got.proxy!.cpuUs / 1000 / mb, 'base.msPerMB': got.base!.cpuUs / 1000 / mb,
          'base.p50': got.base!.p50Ms, 'proxy.p50': got.proxy!.p50Ms, 'added.p50': got.proxy!.p50Ms - got.base!.p50Ms,
        });
      }
      if (streams) {
        const st: Sample = {};
        for (const n of EVENTS) {
          for (const side of run % 2 ? (['proxy', 'base'] as const) : (['base', 'proxy'] as const)) {
            const r = side === 'proxy' ? await slice(proxy, proxyReq(caller, up, 30_000, true, n), STREAMS[n]!) : await slice(base, upstreamReq(up, 30_000, true, n), STREAMS[n]!);
            st[`${side}.cpu${n}`] = r.cpuUs;
            st[`${side}.ttft${n}`] = r.ttftMs;
          }
        }
        for (const side of ['base', 'proxy']) {
          // Marginal CPU per event: the cost of 1,950 more events, per event (the request's own cost cancels).
          st[`${side}.perEvent`] = (st[`${side}.cpu2000`]! - st[`${side}.cpu50`]!) / 1950;
          st[`${side}.perEventLow`] = (st[`${side}.cpu500`]! - st[`${side}.cpu50`]!) / 450;
          st[`${side}.perEventHigh`] = (st[`${side}.cpu2000`]! - st[`${side}.cpu500`]!) / 1500;
        }
        st['ratio.event'] = st['proxy.perEvent']! / st['base.perEvent']!;
        st['ratio.stream50'] = st['proxy.cpu50']! / st['base.cpu50']!;
        st['ratio.stream2000'] = st['proxy.cpu2000']! / st['base.cpu2000']!;
        st['flat'] = st['proxy.perEventHigh']! / st['proxy.perEventLow']!;
        st['added.ttft'] = median(EVENTS.map((n) => st[`proxy.ttft${n}`]! - st[`base.ttft${n}`]!));
        add(`${key(p)} stream`, st);
      }
    }
    console.log(`  run ${run + 1}/${RUNS} done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  const end = await proxy.ask('stats');
  const baseEnd = await base.ask('stats');
  for (const c of [mock, base, floor, control, proxy]) c.stop();
  return { samples, idle, end, baseEnd };
}

/** N 2 MB requests to a fresh proxy, RSS after GC along the way; the peak above idle per body. */
async function memory(n: number) {
  const mock = await start('agent-mock.mjs', [], 1);
  const proxy = await start('proxy.mjs', [proxyConfig(mock.port, MATRIX_SETTINGS)], 0, START_FLAGS);
  const mix: Array<[Dialect, Dialect]> = [['anthropic', 'openai'], ['responses', 'anthropic'], ['anthropic', 'anthropic'], ['gemini', 'responses']];
  for (const p of mix) await once(proxy.port, proxyReq(p[0], p[1], 30_000, false));
  const idle = await proxy.ask('gc');
  const bodyMB = proxyReq('anthropic', 'openai', 2_000_000, false).body.byteLength / 2 ** 20;
  const points: Array<{ requests: number; rss: number; heapUsed: number; maxRss: number }> = [];
  let peakFirst = 0;
  for (let i = 0; i < n; i++) {
    const p = mix[i % mix.length]!;
    const r = await once(proxy.port, proxyReq(p[0], p[1], 2_000_000, false));
    if (r.status !== 200) throw new Error(`${key(p)} 2MB: ${r.status}`);
    if (i === 19) peakFirst = (await proxy.ask('stats')).maxRss;
    if ((i + 1) % Math.max(1, Math.floor(n / 10)) === 0 || i === n - 1) {
      const s = await proxy.ask('gc');
      points.push({ requests: i + 1, rss: s.rss, heapUsed: s.heapUsed, maxRss: s.maxRss });
      console.log(`  ${i + 1} requests: RSS after GC ${(s.rss / 2 ** 20).toFixed(1)} MB, heap ${(s.heapUsed / 2 ** 20).toFixed(1)} MB, peak ${(s.maxRss / 2 ** 20).toFixed(1)} MB (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
  const held = await inFlight(proxy, mix.map((p) => [key(p), proxyReq(p[0], p[1], 2_000_000, false, 'held'), proxyReq(p[0], p[1], 2_000_000, false)]));
  proxy.stop();
  const floorPeak = await floorMemory(mock.port, mix);
  const floor = await start('floor.mjs', [String(mock.port)], 0);
  const floorHeld = await inFlight(floor, mix.map((p) => [key(p), upstreamReq(p[1], 2_000_000, false, 'held'), upstreamReq(p[1], 2_000_000, false)]));
  floor.stop();
  mock.stop();
  return { idle, bodyMB, peakFirst, points, floorPeak, held, floorHeld };
}

/** Requests of one case in flight at once, for `inFlight`. */
const IN_FLIGHT = 8;

/**
 * What a request holds while its upstream answers, in copies of its body: IN_FLIGHT 2 MB requests
 * of each case at once, held by the mock upstream (HOLD_MS); meanwhile a full GC in the process,
 * and its heap and external memory (Buffers) above what it held idle, per request. The peak RSS
 * above says how V8 sizes its heap and how much garbage waits for a GC; this says what a request
 * itself keeps alive.
 */
async function inFlight(t: Child, cases: Array<[name: string, held: Req, warm: Req]>): Promise<Record<string, { heap: number; buffers: number }>> {
  const out: Record<string, { heap: number; buffers: number }> = {};
  for (const [name, r, warm] of cases) {
    for (let i = 0; i < 3; i++) await once(t.port, warm);
    const idle = await t.ask('gc');
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const answers = Array.from({ length: IN_FLIGHT }, () => once(t.port, r, agent));
    await new Promise((done) => setTimeout(done, HOLD_MS / 2));
    const busy = await t.ask('gc');
    for (const a of await Promise.all(answers)) if (a.status !== 200) throw new Error(`${name} in flight: ${a.status} ${a.body.slice(0, 200)}`);
    agent.destroy();
    const per = (n: number) => n / IN_FLIGHT / r.body.byteLength;
    out[name] = { heap: per(busy.heapUsed - idle.heapUsed), buffers: per(busy.external - idle.external) };
  }
  return out;
}

/** The floor's peak over its idle RSS after 20 such requests (each pair's upstream body), per body. */
async function floorMemory(mockPort: number, mix: Array<[Dialect, Dialect]>): Promise<number> {
  const floor = await start('floor.mjs', [String(mockPort)], 0);
  for (const p of mix) await once(floor.port, upstreamReq(p[1], 30_000, false));
  const idle = await floor.ask('gc');
  for (let i = 0; i < 20; i++) {
    const p = mix[i % mix.length]!;
    await once(floor.port, upstreamReq(p[1], 2_000_000, false));
  }
  const peak = (await floor.ask('stats')).maxRss;
  floor.stop();
  return (peak - idle.rss) / 2 ** 20 / (upstreamReq(mix[0]![1], 2_000_000, false).body.byteLength / 2 ** 20);
}

/**
 * `--profile PAIR SIZE [N]`: N requests of one case (SIZE, or `streamN`: N events) to a proxy started with
 * `--cpu-prof`; prints the top functions by self and inclusive time per request. PAIR
 * `raw→DIALECT` profiles the raw passthrough, `control→DIALECT` the holding control. The .cpuprofile stays in .tmp/bench/prof/ (Chrome DevTools opens it).
 */
async function profile(pair: string, size: string, n: number) {
  const [caller, up] = pair.split('→') as [Dialect | 'raw' | 'control', Dialect];
  const grow = args.includes('--growing');
  const dir = join(out, 'prof');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const mock = await start('agent-mock.mjs', [], 1);
  // `raw→DIALECT` profiles the raw passthrough instead, sent that dialect's own body; `control→DIALECT` the holding control, sent DIALECT→DIALECT.
  const profFlags = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'];
  const proxy = caller === 'raw' ? await start('passthrough.mjs', [String(mock.port)], 0, profFlags)
    : caller === 'control' ? await start('holding-proxy.mjs', [proxyConfig(mock.port)], 0, profFlags)
    : await start('proxy.mjs', [proxyConfig(mock.port, grow ? {} : MATRIX_SETTINGS)], 0, [...START_FLAGS, ...profFlags]);
  const stream = size.startsWith('stream');
  const events = stream ? Number(size.slice(6)) : 50;
  const bytes = stream ? 30_000 : SIZES[size]!;
  const r = caller === 'raw' ? upstreamReq(up, bytes, stream, events) : proxyReq(caller === 'control' ? up : caller, up, bytes, stream, events);
  // `--growing`: each request the last plus a tool call and its result (the turn memo on), from the same sender.
  const warm = grow ? 20 : Math.max(200, n >> 1);
  const turns = grow ? growingTurns(bytes, warm + n).map((c) => (caller === 'raw' ? growingReq(up, `real-${up}`, c, '/e50') : growingReq(caller as Dialect, `agent-${up}-50`, c))) : [];
  const nth = (i: number) => (grow ? turns[i]! : r);
  // A warm-up outside the window (start-up, the first compilations), then N requests in it.
  for (let i = 0; i < warm; i++) await once(proxy.port, nth(i));
  const before = await proxy.ask('stats');
  const from = process.hrtime.bigint() / 1000n;
  for (let i = 0; i < n; i++) await once(proxy.port, nth(warm + i));
  const to = process.hrtime.bigint() / 1000n;
  const after = await proxy.ask('stats');
  mock.stop();
  await new Promise<void>((done) => {
    const p = [...live].find((c) => c.pid === proxy.pid)!;
    p.removeAllListeners('exit');
    p.once('exit', () => done());
    p.disconnect(); // exits normally, so --cpu-prof writes its profile
  });
  interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  const prof = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
  // Only the window's samples (the profile's clock is the monotonic one process.hrtime reads).
  const self = new Map<number, number>();
  let at = prof.startTime;
  prof.samples.forEach((id, i) => {
    at += prof.timeDeltas[i] ?? 0;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i + 1] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = prof.nodes.filter((x) => x.callFrame.functionName === '(idle)').reduce((t, x) => t + (self.get(x.id) ?? 0), 0);
  const cpu = (after.cpuUs - before.cpuUs) / n;
  const busy = (total - idle) / n;
  console.log(`\n${pair} ${size}, ${n} requests after a warm-up: CPU ${cpu.toFixed(0)} µs/req (all threads, process.cpuUsage); main thread busy ${busy.toFixed(0)} µs/req (the profile); the other ${(cpu - busy).toFixed(0)} µs: the sampler's own thread, V8's helper threads (concurrent marking, sweeping, the optimizing compiler), the kernel's work the sampler misses`);
  const name = (x: Node) => `${x.callFrame.functionName || '(anon)'} ${x.callFrame.url.replace(/^.*\//, '')}:${x.callFrame.lineNumber + 1}`;
  const byFn = new Map<string, number>();
  for (const x of prof.nodes) byFn.set(name(x), (byFn.get(name(x)) ?? 0) + (self.get(x.id) ?? 0));
  const per = (t: number) => `${(t / n).toFixed(0).padStart(7)} µs/req`;
  console.log(`\nself time, top 30 of ${(total / 1000).toFixed(0)} ms over ${n} requests:`);
  for (const [fn, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)} % ${per(t)}  ${fn}`);
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  const incl = new Map<string, number>();
  const walk = (x: Node, seen: Set<string>): number => {
    let t = self.get(x.id) ?? 0;
    const k = name(x);
    const fresh = !seen.has(k);
    if (fresh) seen.add(k);
    for (const c of x.children ?? []) t += walk(byId.get(c)!, seen);
    if (fresh) {
      incl.set(k, (incl.get(k) ?? 0) + t);
      seen.delete(k);
    }
    return t;
  };
  walk(prof.nodes[0]!, new Set());
  console.log('\ninclusive time, top 40:');
  for (const [fn, t] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)} % ${per(t)}  ${fn}`);
}

// ---------------------------------------------------------------------------------------------
// Report

const f0 = (x: number) => x.toFixed(0);
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const MB = 2 ** 20;
const mark = (ok: boolean) => (ok ? 'met' : 'MISS');

function medians(samples: Map<string, Sample[]>): Map<string, Sample> {
  const med = new Map<string, Sample>();
  for (const [k, list] of samples) {
    const m: Sample = {};
    for (const f of Object.keys(list[0]!)) m[f] = median(list.map((s) => s[f]!));
    med.set(k, m);
  }
  return med;
}

function report(r: Awaited<ReturnType<typeof matrix>>) {
  const med = medians(r.samples);
  const rows = ['| pair (caller→upstream) | size | raw µs/req | floor × raw | control × raw | Interlingua µs/req | × raw | × floor | × control | Interlingua ms/MB | added p50 (ms) | budget |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
  const worst = { same: 0, tr: 0 };
  for (const p of PAIRS) {
    for (const s of sizes) {
      const m = med.get(`${key(p)} ${s}`);
      if (!m) continue;
      const same = p[0] === p[1];
      const ratio = same ? m['ratio.control']! : m['ratio.floor']!;
      if (same) worst.same = Math.max(worst.same, ratio);
      else worst.tr = Math.max(worst.tr, ratio);
      const bold = (on: boolean, x: number) => (on ? `**${f2(x)}**` : f2(x));
      rows.push(`| ${key(p)} | ${s} (${f0(m.mb! * 1000)} KB) | ${f0(m['base.cpu']!)} | ${f2(m['floor.raw']!)} | ${same ? f2(m['control.raw']!) : ''} | ${f0(m['proxy.cpu']!)} | ${f2(m['ratio.raw']!)} | ${bold(!same, m['ratio.floor']!)} | ${same ? bold(true, m['ratio.control']!) : ''} | ${f1(m['proxy.msPerMB']!)} | ${f2(m['added.p50']!)} | ${same ? `≤1.2× control: ${mark(ratio <= 1.2)}` : `≤1.3× floor: ${mark(ratio <= 1.3)}`} |`);
    }
  }
  console.log(`\nRequests (sequential keep-alive, c=1; medians over ${RUNS} run(s) of per-run ratios from interleaved slices):\n`);
  console.log(rows.join('\n'));
  if (streams) {
    const srows = ['| pair | raw µs/event | Interlingua µs/event | × raw per event | µs/event 50→500 / 500→2000 | flat (high/low) | Interlingua µs per stream 50 / 2000 | × raw 50 / 2000 | added TTFT (ms) | budget ≤1.5× |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
    for (const p of PAIRS) {
      const m = med.get(`${key(p)} stream`);
      if (!m) continue;
      srows.push(`| ${key(p)} | ${f1(m['base.perEvent']!)} | ${f1(m['proxy.perEvent']!)} | **${f2(m['ratio.event']!)}** | ${f1(m['proxy.perEventLow']!)} / ${f1(m['proxy.perEventHigh']!)} | ${f2(m.flat!)} | ${f0(m['proxy.cpu50']!)} / ${f0(m['proxy.cpu2000']!)} | ${f2(m['ratio.stream50']!)} / ${f2(m['ratio.stream2000']!)} | ${f2(m['added.ttft']!)} | ${p[0] === p[1] ? '(same dialect)' : mark(m['ratio.event']! <= 1.5)} |`);
    }
    console.log('\nStreams (30 KB request; 50, 500 and 2,000 events, mostly tool-call argument deltas; per event = marginal CPU from 50 to 2,000 events):\n');
    console.log(srows.join('\n'));
  }
  console.log(`\nRSS: idle after GC ${f1(r.idle.rss / MB)} MB, peak over the run ${f1(r.end.maxRss / MB)} MB (raw passthrough peak ${f1(r.baseEnd.maxRss / MB)} MB)`);
  console.log(`Worst: same-dialect ${f2(worst.same)}× the holding control (budget 1.2), translated ${f2(worst.tr)}× floor (budget 1.3)`);
  console.log(`\nbench:agent took ${f0((Date.now() - started) / 1000)} s`);
  writeFileSync(join(out, 'agent-results.json'), JSON.stringify({ quick, runs: RUNS, worst: { sameDialectXControl: worst.same, translatedXFloor: worst.tr }, medians: Object.fromEntries(med), idle: r.idle, end: r.end }, null, 2));
}

process.on('SIGINT', () => (live.forEach((p) => p.kill()), process.exit(130)));
try {
  pin(process.pid, 1);
  console.log(`interlingua bench:agent: ${quick ? 'quick' : 'full'}, ${RUNS} interleaved run(s), ${PAIRS.length} pairs, sizes ${sizes.join(' ')}, proxy flags ${START_FLAGS.join(' ') || 'none'}, ${PIN ? 'proxy pinned to core 0, mock + client to core 1' : 'no pinning'}, Node ${process.version}`);
  await bundle();
  const prof = args.indexOf('--profile');
  if (prof >= 0) await profile(args[prof + 1]!, args[prof + 2] ?? '2MB', Number(args[prof + 3] ?? 30));
  // Growing conversations, the turn memo on and off (bench/agent-growing.ts).
  else if (args.includes('--growing')) await growing({ out, args, start, startFlags: START_FLAGS, runs: RUNS, quick });
  else if (MEMORY) {
    const m = await memory(MEMORY);
    const first = m.points[0]!;
    const last = m.points.at(-1)!;
    console.log(`\nMemory, ${MEMORY} requests of ${f1(m.bodyMB)} MB (4 pairs in turn), one at a time: idle RSS after GC ${f1(m.idle.rss / MB)} MB; peak after 20 requests ${f1(m.peakFirst / MB)} MB = idle + ${f1((m.peakFirst - m.idle.rss) / MB / m.bodyMB)}× the body (the floor, the same way: idle + ${f1(m.floorPeak)}×); RSS after GC ${f1(first.rss / MB)} MB at ${first.requests} → ${f1(last.rss / MB)} MB at ${last.requests} (${f0(((last.rss - first.rss) / first.rss) * 100)} %), heap ${f1(first.heapUsed / MB)} → ${f1(last.heapUsed / MB)} MB; peak ${f1(last.maxRss / MB)} MB`);
    const copies = (h: Record<string, { heap: number; buffers: number }>) => Object.entries(h).map(([k, v]) => `${k} ${f1(v.heap + v.buffers)} (${f1(v.heap)} + ${f1(v.buffers)})`).join(', ');
    console.log(`In flight (${IN_FLIGHT} requests of 2 MB at once, answers held ${HOLD_MS / 1000} s), held per request in bodies (heap + Buffers): ${copies(m.held)}; the floor: ${copies(m.floorHeld)}`);
    writeFileSync(join(out, 'agent-memory.json'), JSON.stringify(m, null, 2));
  } else report(await matrix());
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  live.forEach((p) => p.kill());
}
