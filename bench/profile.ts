/**
 * Where the proxy's time goes: `tsx bench/profile.ts [caller→upstream] [json|stream] [seconds]`
 * runs the bench's mock upstream and Interlingua (node --cpu-prof, pinned like the bench), drives
 * one pair with wrk at c=64, and prints the top functions by self time and by inclusive time of
 * a few known frames. The .cpuprofile lands in .tmp/bench/prof/ (open it in Chrome DevTools).
 */
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchBundle } from '../scripts/node-bundle.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, '.tmp', 'bench');
const profDir = join(out, 'prof');
const [pair = 'openai→anthropic', mode = 'json', secs = '5'] = process.argv.slice(2);
const [first, up] = pair.split(/→|->|:/) as [string, string];
// `raw→<dialect>` profiles the baseline instead: the raw node:http passthrough, sent <dialect>'s own request.
const raw = first === 'raw';
const caller = raw ? up : first;

// Reuse the bundles that `npm run bench` builds.
await build({ entryPoints: { mock: 'bench/mock-upstream.ts', proxy: 'bench/proxy-entry.ts', passthrough: 'bench/passthrough.ts' }, absWorkingDir: root, outdir: out, ...benchBundle });
rmSync(profDir, { recursive: true, force: true });
mkdirSync(profDir, { recursive: true });

const ready = (p: ReturnType<typeof fork>) => new Promise<number>((r) => p.on('message', (m: { ready?: number }) => m.ready !== undefined && r(m.ready)));
const mock = fork(join(out, 'mock.mjs'), ['serve', join(root, 'translators') + '/'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const mockPort = await ready(mock);
execFileSync('taskset', ['-a', '-p', '-c', '1', String(mock.pid)], { stdio: 'ignore' });
const base = `http://127.0.0.1:${mockPort}`;
const config = JSON.stringify({
  open: true,
  upstreams: {
    openai: { dialect: 'openai', baseUrl: `${base}/v1`, apiKey: 'sk-bench-upstream' },
    anthropic: { dialect: 'anthropic', baseUrl: base, apiKey: 'sk-ant-bench-upstream' },
    gemini: { dialect: 'gemini', baseUrl: base, apiKey: 'AIza-bench-upstream' },
  },
  models: { 'bench-openai': { upstream: 'openai' }, 'bench-anthropic': { upstream: 'anthropic' }, 'bench-gemini': { upstream: 'gemini' } },
});
const proxy = fork(join(out, raw ? 'passthrough.mjs' : 'proxy.mjs'), [raw ? String(mockPort) : config], { execArgv: ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=200'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const port = await ready(proxy);
execFileSync('taskset', ['-a', '-p', '-c', '0', String(proxy.pid)], { stdio: 'ignore' });

const stream = mode === 'stream';
const model = `bench-${up}`;
const prompt = "What's the weather like in SF?";
const req =
  caller === 'openai'
    ? { path: '/v1/chat/completions', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream: true } : {}) }) }
    : caller === 'anthropic'
      ? { path: '/v1/messages', headers: { 'content-type': 'application/json', 'x-api-key': 'x', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model, max_tokens: 1024, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream: true } : {}) }) }
      : { path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, headers: { 'content-type': 'application/json', 'x-goog-api-key': 'x' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }] }) };
const script = join(out, 'profile.lua');
writeFileSync(script, [`wrk.method = "POST"`, `wrk.body = [==[${req.body}]==]`, ...Object.entries(req.headers).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`)].join('\n'));
let wrkOut = '';
await new Promise((r) => {
  const w = spawn('taskset', ['-c', '1', 'wrk', '-t1', '-c64', `-d${secs}s`, '-s', script, `http://127.0.0.1:${port}${req.path}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  w.stdout.on('data', (c) => (wrkOut += c));
  w.on('exit', r);
});
process.stdout.write(wrkOut);
const requests = Number(/(\d+) requests in/.exec(wrkOut)?.[1] ?? 1);
proxy.disconnect(); // the child exits normally, so --cpu-prof writes its profile
await new Promise((r) => proxy.on('exit', r));
mock.kill();

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))!;
const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const self = new Map<number, number>();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFn = new Map<string, number>();
const name = (n: Node) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\//, '')}:${n.callFrame.lineNumber + 1}`;
for (const n of prof.nodes) byFn.set(name(n), (byFn.get(name(n)) ?? 0) + (self.get(n.id) ?? 0));
const perReq = (t: number) => `${(t / requests).toFixed(1).padStart(7)} µs/req`;
console.log(`\nself time, top 40 of ${(total / 1000).toFixed(0)} ms, ${requests} requests (${file}):`);
for (const [fn, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)} % ${perReq(t)}  ${fn}`);
// Inclusive time per function name.
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const incl = new Map<string, number>();
const walk = (n: Node, seen: Set<string>): number => {
  let t = self.get(n.id) ?? 0;
  const key = name(n);
  const fresh = !seen.has(key);
  if (fresh) seen.add(key);
  for (const c of n.children ?? []) t += walk(byId.get(c)!, seen);
  if (fresh) {
    incl.set(key, (incl.get(key) ?? 0) + t);
    seen.delete(key);
  }
  return t;
};
walk(prof.nodes[0]!, new Set());
console.log('\ninclusive time, top 60:');
for (const [fn, t] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)} % ${perReq(t)}  ${fn}`);
