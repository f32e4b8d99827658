/**
 * Resident memory of the compiled command, as production runs it: `npm run bench:idle-rss`
 * (also printed by `npm run bench`). Builds dist/cli.js afresh into .tmp/bench/cli/, starts
 * `node cli.js --port 0` with no flags and a clean environment, waits for its start-up line and a 200 from /health, lets
 * it settle for a second, and reads VmRSS (with its anonymous and file-backed parts) from
 * /proc/PID/status; again 12 s later, still idle (V8's memory reducer runs a GC on an idle heap).
 * Then one chat completion through it to a local upstream (the first request loads what an idle
 * server has not needed yet, e.g. the upstream HTTPS agent's TLS and Node's fetch classes) and
 * reads it again. Median of several fresh starts. Linux only (/proc).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const MB = 1024;

export interface IdleRss {
  /** kB, medians over the starts: 1 s after the first /health. */
  idle: { rss: number; anon: number; file: number };
  /** 12 s later, still idle: V8's memory reducer has run a GC by then. */
  settled: { rss: number; anon: number; file: number };
  afterRequest: { rss: number; anon: number; file: number };
  starts: number;
  node: string;
}

function status(pid: number): { rss: number; anon: number; file: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A local OpenAI-dialect upstream answering every chat completion with one short message. */
function startUpstream(): Promise<{ url: string; close(): void }> {
  const body = JSON.stringify({
    id: 'chatcmpl-rss',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
  });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}

type Reading = ReturnType<typeof status>;

async function once(cli: string, configFile: string): Promise<{ idle: Reading; settled: Reading; afterRequest: Reading }> {
  // A clean environment, as in the Docker image: variables such as NODE_OPTIONS or
  // NODE_EXTRA_CA_CERTS (which alone loads OpenSSL's certificate store at start-up, ~2 MB) would
  // measure the machine, not Interlingua.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' };
  const child = spawn(process.execPath, [cli, '--config', configFile, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'], env });
  try {
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const url = await new Promise<string>((resolve, reject) => {
      const t = setInterval(() => {
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) {
          clearInterval(t);
          resolve(m[1]!);
        }
      }, 20);
      child.once('exit', () => {
        clearInterval(t);
        reject(new Error(`interlingua exited: ${stderr}`));
      });
    });
    const health = await fetch(`${url}/health`);
    if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
    await health.arrayBuffer();
    await sleep(1000);
    const idle = status(child.pid!);
    await sleep(SETTLE_MS);
    const settled = status(child.pid!);
    const chat = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer rss-bench' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    if (chat.status !== 200) throw new Error(`chat answered ${chat.status}: ${await chat.text()}`);
    await chat.arrayBuffer();
    await sleep(1000);
    return { idle, settled, afterRequest: status(child.pid!) };
  } finally {
    child.kill('SIGTERM');
  }
}

const SETTLE_MS = 12_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureIdleRss(starts = 5): Promise<IdleRss> {
  const outdir = join(root, '.tmp', 'bench', 'cli');
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-cli.ts'), outdir], { cwd: root, stdio: 'inherit' });
  const upstream = await startUpstream();
  const configFile = join(outdir, 'rss-config.json');
  mkdirSync(outdir, { recursive: true });
  // The callers' own key is forwarded (no inbound keys, no upstream key): the default set-up.
  writeFileSync(configFile, JSON.stringify({ upstreams: { up: { dialect: 'openai', baseUrl: `${upstream.url}/v1` } }, models: { '*': { upstream: 'up' } } }));
  try {
    const runs: Array<Awaited<ReturnType<typeof once>>> = [];
    for (let i = 0; i < starts; i++) runs.push(await once(join(outdir, 'cli.js'), configFile));
    const pick = (k: 'idle' | 'settled' | 'afterRequest') => ({
      rss: median(runs.map((r) => r[k].rss)),
      anon: median(runs.map((r) => r[k].anon)),
      file: median(runs.map((r) => r[k].file)),
    });
    return { idle: pick('idle'), settled: pick('settled'), afterRequest: pick('afterRequest'), starts, node: process.version };
  } finally {
    upstream.close();
  }
}

export function describeIdleRss(r: IdleRss): string {
  const mb = (kb: number) => (kb / MB).toFixed(1);
  const goal = r.idle.rss < 50 * MB ? 'met' : 'missed';
  return [
    `compiled CLI (node dist/cli.js, ${r.node}, no flags, clean environment), median of ${r.starts} starts:`,
    `  idle after /health: ${mb(r.idle.rss)} MB RSS (${mb(r.idle.anon)} MB anonymous, ${mb(r.idle.file)} MB file-backed, mostly the node binary) — goal < 50 MB ${goal}`,
    `  idle 12 s later (V8's memory reducer has run): ${mb(r.settled.rss)} MB RSS (${mb(r.settled.anon)} anonymous, ${mb(r.settled.file)} file-backed)`,
    `  after one proxied chat completion: ${mb(r.afterRequest.rss)} MB RSS (${mb(r.afterRequest.anon)} anonymous, ${mb(r.afterRequest.file)} file-backed)`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await measureIdleRss(Number(process.argv[2] ?? 5));
  console.log(describeIdleRss(r));
  mkdirSync(join(root, '.tmp', 'bench'), { recursive: true });
  writeFileSync(join(root, '.tmp', 'bench', 'idle-rss.json'), JSON.stringify(r, null, 2));
}
