/**
 * What bench/agent.ts and bench/ab.ts share: the measured processes (prebuilt bundles forked with
 * an admin channel, pinned to a core), the agent-sized requests in each dialect, the proxy config
 * that routes them to the mock upstream, and one timed slice of sequential keep-alive requests.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { conversation, render, type Conversation, type Dialect } from './agent-bodies.ts';
import type { ProcStats } from './control.ts';

export const SIZES: Record<string, number> = { '30KB': 30_000, '300KB': 300_000, '2MB': 2_000_000 };
export const UPSTREAMS: Dialect[] = ['openai', 'anthropic', 'gemini', 'responses'];
/** Stream lengths the mock upstream serves (one upstream entry per length). */
export const EVENTS = [50, 500, 2000];

// ---------------------------------------------------------------------------------------------
// Processes: the measured ones on core 0, the mock upstream and this client on core 1.

export const PIN = availableParallelism() >= 2 && (() => { try { execFileSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }); return true; } catch { return false; } })();
export const pin = (pid: number, core: number) => PIN && execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });

/** Every forked process still running (killed on exit or SIGINT). */
export const live = new Set<ChildProcess>();
export interface Child { port: number; pid: number; ask(op: 'stats' | 'gc'): Promise<ProcStats>; stop(): void }

/** How long the mock holds a `held` request's answer (requests in flight, for `--memory`). */
export const HOLD_MS = 4000;

/** Fork the bundle `dir/file` with `argv`, pinned to `core`, once it announces its port. */
export function start(dir: string, file: string, argv: string[], core: number, execArgv: string[] = []): Promise<Child> {
  const proc = fork(join(dir, file), argv, { execArgv: ['--expose-gc', ...execArgv], stdio: ['ignore', process.env.BENCH_CHILD_STDOUT ? 'inherit' : 'ignore', 'inherit', 'ipc'] });
  live.add(proc);
  let seq = 0;
  const waiting = new Map<number, (s: ProcStats) => void>();
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => (live.delete(proc), reject(new Error(`${file} exited with ${code}`))));
    proc.on('message', (m: { ready?: number; id?: number; stats?: ProcStats }) => {
      if (m.ready !== undefined) {
        pin(proc.pid!, core);
        resolve({
          port: m.ready,
          pid: proc.pid!,
          ask: (op) => new Promise((done) => { const id = ++seq; waiting.set(id, done); proc.send({ id, op }); }),
          stop: () => { proc.removeAllListeners('exit'); proc.kill(); live.delete(proc); },
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

export interface Req { path: string; headers: Record<string, string>; body: Buffer }
const UPSTREAM_DIALECT: Record<Dialect, string> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gemini', responses: 'openai-responses' };
export const HEADERS: Record<Dialect, Record<string, string>> = {
  openai: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-caller' },
  responses: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-caller' },
  anthropic: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench-caller', 'anthropic-version': '2023-06-01' },
  gemini: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-bench-caller' },
};
export const pathOf = (d: Dialect, model: string, stream: boolean) =>
  d === 'openai' ? '/v1/chat/completions' : d === 'anthropic' ? '/v1/messages' : d === 'responses' ? '/v1/responses' : `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;

const convs = new Map<number, Conversation>();
const conv = (bytes: number) => convs.get(bytes) ?? (convs.set(bytes, conversation(bytes)), convs.get(bytes)!);
const cache = new Map<string, Req>();
/** The caller's request through Interlingua (model routed to `upstream`, renamed on the way). */
export function proxyReq(caller: Dialect, upstream: Dialect, bytes: number, stream: boolean, events: number | 'held' = 50): Req {
  const id = `p${caller}${upstream}${bytes}${stream}${events}`;
  const model = `agent-${upstream}-${events}`;
  return cache.get(id) ?? (cache.set(id, { path: pathOf(caller, model, stream), headers: HEADERS[caller], body: Buffer.from(JSON.stringify(render(caller, conv(bytes), model, stream))) }), cache.get(id)!);
}
/** The same conversation in the upstream's own dialect, straight to the mock (passthrough, floor). */
export function upstreamReq(upstream: Dialect, bytes: number, stream: boolean, events: number | 'held' = 50): Req {
  const id = `u${upstream}${bytes}${stream}${events}`;
  const model = `real-${upstream}`;
  const prefix = events === 'held' ? `/h${HOLD_MS}/e50` : `/e${events}`;
  return cache.get(id) ?? (cache.set(id, { path: `${prefix}${pathOf(upstream, model, stream)}`, headers: HEADERS[upstream], body: Buffer.from(JSON.stringify(render(upstream, conv(bytes), model, stream))) }), cache.get(id)!);
}

/**
 * Settings for a proxy that is sent the same body again and again (the matrix, bench/ab.ts,
 * bench/fixed-cost.ts): the turn memo off, which would otherwise measure its own hit (every
 * field and element reused) and not the work a request does. bench/agent-growing.ts measures the
 * memo on the traffic it is for.
 */
export const REPEATED_BODY_SETTINGS: Record<string, unknown> = { limits: { turnMemoBytes: 0 } };

/**
 * Interlingua's config: one upstream per dialect and stream length, every route renaming the
 * model; `settings`, top-level config fields on top (REPEATED_BODY_SETTINGS). The
 * holding control (bench/holding-proxy.ts) reads the same routes.
 */
export function proxyConfig(mockPort: number, settings: Record<string, unknown> = {}): string {
  const base = `http://127.0.0.1:${mockPort}`;
  const upstreams: Record<string, unknown> = {};
  const models: Record<string, unknown> = {};
  for (const d of UPSTREAMS) {
    for (const n of EVENTS) {
      const v1 = d === 'openai' || d === 'responses' ? '/v1' : '';
      upstreams[`${d}${n}`] = { dialect: UPSTREAM_DIALECT[d], baseUrl: `${base}/e${n}${v1}`, apiKey: 'sk-bench-upstream' };
      // Every route renames the model, as an alias to a real model does.
      models[`agent-${d}-${n}`] = { upstream: `${d}${n}`, model: `real-${d}` };
    }
    // Answers held HOLD_MS: requests in flight.
    const v1 = d === 'openai' || d === 'responses' ? '/v1' : '';
    upstreams[`${d}held`] = { dialect: UPSTREAM_DIALECT[d], baseUrl: `${base}/h${HOLD_MS}/e50${v1}`, apiKey: 'sk-bench-upstream' };
    models[`agent-${d}-held`] = { upstream: `${d}held`, model: `real-${d}` };
  }
  return JSON.stringify({ open: true, ...settings, upstreams, models });
}

/** The sanity pass's connection; each slice gets its own (a server closes keep-alive sockets idle past its timeout). */
const sanityAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
export interface Once { status: number; body: string; ttftMs: number; totalMs: number }
export function once(port: number, r: Req, agent = sanityAgent): Promise<Once> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let ttft = 0;
    const headers = { ...r.headers, 'content-length': String(r.body.byteLength) };
    const req = http.request({ host: '127.0.0.1', port, path: r.path, method: 'POST', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (!ttft) ttft = Number(process.hrtime.bigint() - t0) / 1e6;
        chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ttftMs: ttft, totalMs: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface Slice { cpuUs: number; userUs: number; sysUs: number; p50Ms: number; ttftMs: number }
/** `n` sequential requests to one target: its CPU per request (and its parts), median latency and TTFT. */
export async function slice(t: Child, r: Req, n: number): Promise<Slice> {
  // Each slice starts from a collected heap (outside the measurement), so none pays for the
  // garbage of the one before; what its own requests leave is collected as they run.
  const before = await t.ask('gc');
  const total: number[] = [];
  const ttft: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < n; i++) {
    const res = await once(t.port, r, agent);
    if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${res.body.slice(0, 300)}`);
    total.push(res.totalMs);
    ttft.push(res.ttftMs);
  }
  const after = await t.ask('stats');
  agent.destroy();
  return {
    cpuUs: (after.cpuUs - before.cpuUs) / n,
    userUs: (after.userUs - before.userUs) / n,
    sysUs: (after.systemUs - before.systemUs) / n,
    p50Ms: median(total),
    ttftMs: median(ttft),
  };
}
