/**
 * What a request costs Interlingua beyond the holding control, by body size: `npx tsx
 * bench/fixed-cost.ts [--pair anthropic→anthropic] [--bytes 30000,100000,300000] [--n 200]
 * [--rounds 7] [--forced-gc]` (bench/agent-bodies.ts makes no body under 28 KB: its system prompt and tools). The holding control (bench/holding-proxy.ts; for a translated
 * pair the parse-and-re-serialise floor instead) and Interlingua, both warmed up, then slices of N
 * sequential keep-alive requests, interleaved (the order rotates by round), and each process's CPU
 * per request split by thread from /proc: its main thread and V8's helper threads (concurrent
 * marking and sweeping, the optimizing compiler). Without `--forced-gc` a slice starts where the
 * last one left off (continuous load); with it, from a collected heap, as bench:agent's slices do.
 * Medians over the rounds; the ratio is the median of per-round ratios. Linux only (/proc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchBundle } from '../scripts/node-bundle.ts';
import type { Dialect } from './agent-bodies.ts';
import { live, median, once, pin, proxyConfig, proxyReq, REPEATED_BODY_SETTINGS, start, upstreamReq, type Child } from './agent-harness.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, '.tmp', 'bench-fixed');
const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const [caller, up] = arg('--pair', 'anthropic→anthropic').split('→') as [Dialect, Dialect];
const BYTES = arg('--bytes', '30000,100000,300000').split(',').map(Number);
const N = Number(arg('--n', '200'));
const ROUNDS = Number(arg('--rounds', '7'));
const FORCED_GC = args.includes('--forced-gc');

/** CPU µs the process has used so far: its main thread, and every other thread together. */
function threads(pid: number): { main: number; helpers: number } {
  const tick = 1e6 / 100; // USER_HZ
  let main = 0;
  let helpers = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const us = (Number(f[11]) + Number(f[12])) * tick;
    if (t === String(pid)) main += us;
    else helpers += us;
  }
  return { main, helpers };
}

process.on('SIGINT', () => (live.forEach((p) => p.kill()), process.exit(130)));
try {
  pin(process.pid, 1);
  await build({ ...benchBundle, entryPoints: { 'agent-mock': 'bench/agent-mock.ts', floor: 'bench/floor.ts', 'holding-proxy': 'bench/holding-proxy.ts', proxy: 'bench/proxy-entry.ts' }, absWorkingDir: root, outdir: out });
  const mock = await start(out, 'agent-mock.mjs', [], 1);
  const same = caller === up;
  const base: Child = same ? await start(out, 'holding-proxy.mjs', [proxyConfig(mock.port)], 0) : await start(out, 'floor.mjs', [String(mock.port)], 0);
  const proxy = await start(out, 'proxy.mjs', [proxyConfig(mock.port, REPEATED_BODY_SETTINGS)], 0);
  const sides = { [same ? 'control' : 'floor']: base, interlingua: proxy };
  const names = Object.keys(sides);
  const req = (side: string, bytes: number) => (side === 'floor' ? upstreamReq(up, bytes, false) : proxyReq(caller, up, bytes, false));
  const agents = Object.fromEntries(names.map((n) => [n, new http.Agent({ keepAlive: true, maxSockets: 1 })]));
  const run = async (side: string, bytes: number, n: number) => {
    const t = sides[side]!;
    const a = await t.ask(FORCED_GC ? 'gc' : 'stats');
    const ta = threads(t.pid);
    for (let i = 0; i < n; i++) {
      const r = await once(t.port, req(side, bytes), agents[side]);
      if (r.status !== 200) throw new Error(`${side} ${bytes}: ${r.status} ${r.body.slice(0, 200)}`);
    }
    const b = await t.ask('stats');
    const tb = threads(t.pid);
    return { cpu: (b.cpuUs - a.cpuUs) / n, main: (tb.main - ta.main) / n, helpers: (tb.helpers - ta.helpers) / n };
  };
  for (const bytes of BYTES) for (const s of names) await run(s, bytes, 1000);
  console.log(`${caller}→${up}, ${ROUNDS} rounds of ${N} requests per slice, ${FORCED_GC ? 'each slice from a collected heap' : 'continuous'}; CPU µs per request (main thread + helper threads), medians\n`);
  console.log(`| body | ${names.join(' | ')} | × ${names[0]} | difference |`);
  console.log(`| --- | ${names.map(() => '---').join(' | ')} | --- | --- |`);
  for (const bytes of BYTES) {
    const got: Record<string, Array<Awaited<ReturnType<typeof run>>>> = Object.fromEntries(names.map((n) => [n, []]));
    for (let r = 0; r < ROUNDS; r++) for (const s of names.map((_, i) => names[(i + r) % names.length]!)) got[s]!.push(await run(s, bytes, N));
    const cell = (s: string) => `${median(got[s]!.map((x) => x.cpu)).toFixed(0)} (${median(got[s]!.map((x) => x.main)).toFixed(0)} + ${median(got[s]!.map((x) => x.helpers)).toFixed(0)})`;
    const [b, p] = [got[names[0]!]!, got[names[1]!]!];
    const ratio = median(p.map((x, i) => x.cpu / b[i]!.cpu));
    const diff = median(p.map((x, i) => x.cpu - b[i]!.cpu));
    console.log(`| ${proxyReq(caller, up, bytes, false).body.byteLength} B | ${names.map(cell).join(' | ')} | ${ratio.toFixed(2)} | ${diff.toFixed(0)} µs |`);
  }
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  live.forEach((p) => p.kill());
}
