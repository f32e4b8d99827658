/**
 * A/B of the proxy itself at agent scale, for work on its hot paths: the raw node:http
 * passthrough, Interlingua built from a git revision (default HEAD) and Interlingua built from the
 * working tree, all three in the same run, their slices interleaved (the order rotates by round),
 * so that both versions are measured against the same raw passthrough on the same (shared, noisy)
 * machine. CPU per request (user and system), and per event for streams (marginal, 50 → N events).
 *
 * `npx tsx bench/ab.ts [--rev REV] [--pairs 'anthropic→anthropic,…'] [--sizes 30KB,2MB|none]
 * [--stream 2000|none] [--rounds 5] [--n30 150] [--only src/a.ts,src/b.ts] [--flags-before '…'] [--flags-after '…'] [--same]` (`--same`: both sides built
 * from the revision, to compare flags) (`--only`: the "after" side is the
 * revision with only these files taken from the working tree; `path=other` takes `other` as `path`).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { conversation, render, type Dialect } from './agent-bodies.ts';
import type { ProcStats } from './control.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, '.tmp', 'bench-ab');
const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const REV = arg('--rev', 'HEAD');
const PAIRS = arg('--pairs', 'anthropic→anthropic').split(',').map((p) => p.split('→') as [Dialect, Dialect]);
const SIZES: Record<string, number> = { '30KB': 30_000, '300KB': 300_000, '2MB': 2_000_000 };
const sizes = arg('--sizes', '30KB,300KB,2MB').split(',').filter((s) => s in SIZES);
const STREAM = arg('--stream', '2000') === 'none' ? 0 : Number(arg('--stream', '2000'));
const ROUNDS = Number(arg('--rounds', '5'));
const ONLY = arg('--only', '').split(',').filter(Boolean);
/** Node flags for each side (e.g. the same build with another heap setting). */
const FLAGS_BEFORE = arg('--flags-before', '').split(' ').filter(Boolean);
const FLAGS_AFTER = arg('--flags-after', '').split(' ').filter(Boolean);
const COUNT: Record<string, number> = { '30KB': Number(arg('--n30', '150')), '300KB': 40, '2MB': 8 };
const STREAMS = { low: 20, high: 3 };

// ---------------------------------------------------------------------------------------------
// Bundles: the revision's source exported to .tmp/bench-ab/rev (node_modules linked), and ours.

async function bundles() {
  const rev = join(out, 'rev');
  rmSync(rev, { recursive: true, force: true });
  mkdirSync(rev, { recursive: true });
  execFileSync('sh', ['-c', `git -C '${root}' archive '${REV}' | tar -x -C '${rev}'`]);
  if (!existsSync(join(rev, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(rev, 'node_modules'));
  // The admin channel as in the working tree (what the stats carry), whatever the revision's.
  copyFileSync(join(root, 'bench', 'control.ts'), join(rev, 'bench', 'control.ts'));
  const common = {
    bundle: true, platform: 'node' as const, format: 'esm' as const, target: 'node20', logLevel: 'error' as const, outExtension: { '.js': '.mjs' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  };
  await build({ ...common, entryPoints: { 'agent-mock': 'bench/agent-mock.ts', passthrough: 'bench/passthrough.ts' }, absWorkingDir: root, outdir: out });
  // `--only` files: the revision with just these files from the working tree (others' work in progress left out).
  let afterDir = args.includes('--same') ? rev : root;
  if (ONLY.length) {
    afterDir = join(out, 'only');
    rmSync(afterDir, { recursive: true, force: true });
    execFileSync('cp', ['-a', rev, afterDir]);
    for (const f of ONLY) {
      const [dest, from = dest] = f.split('=') as [string, string?];
      copyFileSync(join(root, from), join(afterDir, dest));
    }
  }
  await build({ ...common, entryPoints: { after: 'bench/proxy-entry.ts' }, absWorkingDir: afterDir, outdir: out });
  await build({ ...common, entryPoints: { before: 'bench/proxy-entry.ts' }, absWorkingDir: rev, outdir: out });
}

// ---------------------------------------------------------------------------------------------
// Processes (as bench/agent.ts: the measured ones on core 0, mock and client on core 1)

const live = new Set<ChildProcess>();
interface Child { port: number; ask(op: 'stats' | 'gc'): Promise<ProcStats>; stop(): void }
const pin = (pid: number, core: number) => execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
function start(file: string, argv: string[], core: number, flags: string[] = []): Promise<Child> {
  const proc = fork(join(out, file), argv, { execArgv: ['--expose-gc', ...flags], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  live.add(proc);
  let seq = 0;
  const waiting = new Map<number, (s: ProcStats) => void>();
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    proc.on('message', (m: { ready?: number; id?: number; stats?: ProcStats }) => {
      if (m.ready !== undefined) {
        pin(proc.pid!, core);
        resolve({
          port: m.ready,
          ask: (op) => new Promise((done) => { const id = ++seq; waiting.set(id, done); proc.send({ id, op }); }),
          stop: () => { proc.removeAllListeners('exit'); proc.kill(); },
        });
      } else if (m.id !== undefined) {
        waiting.get(m.id)?.(m.stats!);
        waiting.delete(m.id);
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Requests (as bench/agent.ts)

interface Req { path: string; headers: Record<string, string>; body: Buffer }
const UPSTREAM_DIALECT: Record<Dialect, string> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gemini', responses: 'openai-responses' };
const HEADERS: Record<Dialect, Record<string, string>> = {
  openai: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-caller' },
  responses: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-caller' },
  anthropic: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench-caller', 'anthropic-version': '2023-06-01' },
  gemini: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-bench-caller' },
};
const pathOf = (d: Dialect, model: string, stream: boolean) =>
  d === 'openai' ? '/v1/chat/completions' : d === 'anthropic' ? '/v1/messages' : d === 'responses' ? '/v1/responses' : `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
const convs = new Map<number, ReturnType<typeof conversation>>();
const conv = (bytes: number) => convs.get(bytes) ?? (convs.set(bytes, conversation(bytes)), convs.get(bytes)!);
function proxyReq(caller: Dialect, up: Dialect, bytes: number, stream: boolean, events: number): Req {
  const model = `agent-${up}-${events}`;
  return { path: pathOf(caller, model, stream), headers: HEADERS[caller], body: Buffer.from(JSON.stringify(render(caller, conv(bytes), model, stream))) };
}
function rawReq(up: Dialect, bytes: number, stream: boolean, events: number): Req {
  const model = `real-${up}`;
  return { path: `/e${events}${pathOf(up, model, stream)}`, headers: HEADERS[up], body: Buffer.from(JSON.stringify(render(up, conv(bytes), model, stream))) };
}
function proxyConfig(mockPort: number): string {
  const upstreams: Record<string, unknown> = {};
  const models: Record<string, unknown> = {};
  for (const d of ['openai', 'anthropic', 'gemini', 'responses'] as Dialect[]) {
    for (const n of [50, 500, 2000]) {
      const v1 = d === 'openai' || d === 'responses' ? '/v1' : '';
      upstreams[`${d}${n}`] = { dialect: UPSTREAM_DIALECT[d], baseUrl: `http://127.0.0.1:${mockPort}/e${n}${v1}`, apiKey: 'sk-bench-upstream' };
      models[`agent-${d}-${n}`] = { upstream: `${d}${n}`, model: `real-${d}` };
    }
  }
  return JSON.stringify({ open: true, upstreams, models });
}

function once(port: number, r: Req, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: r.path, method: 'POST', headers: { ...r.headers, 'content-length': String(r.body.byteLength) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

/** CPU µs per request (user, system) over `n` sequential requests, from a collected heap. */
async function slice(t: Child, r: Req, n: number): Promise<{ user: number; sys: number }> {
  const before = await t.ask('gc');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < n; i++) {
    const res = await once(t.port, r, agent);
    if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${res.body.slice(0, 300)}`);
  }
  const after = await t.ask('stats');
  agent.destroy();
  return { user: (after.userUs - before.userUs) / n, sys: (after.systemUs - before.systemUs) / n };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

// ---------------------------------------------------------------------------------------------

process.on('SIGINT', () => (live.forEach((p) => p.kill()), process.exit(130)));
try {
  pin(process.pid, 1);
  await bundles();
  const mock = await start('agent-mock.mjs', [], 1);
  const raw = await start('passthrough.mjs', [String(mock.port)], 0);
  const cfg = proxyConfig(mock.port);
  const before = await start('before.mjs', [cfg], 0, FLAGS_BEFORE);
  const after = await start('after.mjs', [cfg], 0, FLAGS_AFTER);
  const sides = { raw, before, after } as const;
  type Side = keyof typeof sides;
  const names: Side[] = ['raw', 'before', 'after'];
  interface Case { label: string; run(side: Side): Promise<{ user: number; sys: number }> }
  const cases: Case[] = [];
  for (const [c, u] of PAIRS) {
    for (const s of sizes) {
      const pr = proxyReq(c, u, SIZES[s]!, false, 50);
      const rr = rawReq(u, SIZES[s]!, false, 50);
      cases.push({ label: `${c}→${u} ${s}`, run: (side) => slice(sides[side], side === 'raw' ? rr : pr, COUNT[s]!) });
    }
    if (STREAM) {
      const reqs = (n: number) => ({ p: proxyReq(c, u, 30_000, true, n), r: rawReq(u, 30_000, true, n) });
      const lo = reqs(50);
      const hi = reqs(STREAM);
      cases.push({
        label: `${c}→${u} per event (50→${STREAM})`,
        run: async (side) => {
          const a = await slice(sides[side], side === 'raw' ? lo.r : lo.p, STREAMS.low);
          const b = await slice(sides[side], side === 'raw' ? hi.r : hi.p, STREAMS.high);
          return { user: (b.user - a.user) / (STREAM - 50), sys: (b.sys - a.sys) / (STREAM - 50) };
        },
      });
    }
  }
  // Warm-up: every case on every side.
  for (const k of cases) for (const side of names) await k.run(side);
  const got = new Map<string, Record<Side, Array<{ user: number; sys: number }>>>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of cases) {
      const rec = got.get(k.label) ?? { raw: [], before: [], after: [] };
      got.set(k.label, rec);
      for (let i = 0; i < 3; i++) {
        const side = names[(i + round) % 3]!;
        rec[side].push(await k.run(side));
      }
    }
    process.stderr.write(`  round ${round + 1}/${ROUNDS}\n`);
  }
  console.log(`\nrev ${REV} vs working tree; ${ROUNDS} rounds; CPU µs per request (per event for streams), medians; ratios are medians of per-round ratios to raw\n`);
  console.log('| case | raw user+sys | before user+sys | after user+sys | before × raw | after × raw |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  const f = (x: number) => x.toFixed(x < 100 ? 1 : 0);
  for (const [label, rec] of got) {
    const tot = (s: Side) => rec[s].map((x) => x.user + x.sys);
    const part = (s: Side) => `${f(median(rec[s].map((x) => x.user)))}+${f(median(rec[s].map((x) => x.sys)))}`;
    const ratio = (s: Side) => median(tot(s).map((x, i) => x / tot('raw')[i]!)).toFixed(2);
    console.log(`| ${label} | ${part('raw')} | ${part('before')} | ${part('after')} | ${ratio('before')} | ${ratio('after')} |`);
  }
  for (const c of [mock, raw, before, after]) c.stop();
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  live.forEach((p) => p.kill());
}
