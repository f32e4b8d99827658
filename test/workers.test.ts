/**
 * `interlingua --workers N` as real processes: one port served by N workers sharing state and
 * limits through a real Redis, `/metrics` adding up every worker, a crashed worker replaced, and
 * SIGTERM draining every worker (a stream in flight completes) before the primary exits 0. Without
 * `store.url`, a one-line start error. Every process is started through test/support/processes.ts
 * (killed after, group and all, pass or fail).
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.ts';
import { start as startProcess, tsx, type Started } from './support/processes.ts';
import { e2eConfig } from './support/proxy.ts';
import { startRedis, type RunningRedis } from './support/redis.ts';
import { UPSTREAMS } from './e2e/responses-helpers.ts';

const root = join(import.meta.dirname, '..');
const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;
const KEY = 'il-workers-key-31c8f0a2';
const LIMITED = 'il-workers-limited-9e47b2d5';

interface Run extends Started {
  url: Promise<string>;
}

/** The CLI as one node process (the primary), in a process group of its own with its workers. */
function start(args: string[]): Run {
  const p = startProcess(...tsx('src/runtime/cli.ts', ...args), { env: { ...process.env, PORT: '', HOST: '', INTERLINGUA_CONFIG: '' } });
  const url = p.waitFor(/listening on (http:\/\/\S+)/, 60_000).then((m) => m[1]!);
  url.catch(() => {}); // a start that is meant to fail never listens
  return Object.assign(p, { url });
}

/** The pids whose parent is `pid` (the primary's workers), from /proc. */
function workersOf(run: Run): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // `pid (comm) state ppid …`: the command may hold spaces, the last ')' ends it.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === run.child.pid && state !== 'Z') out.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return out.sort((a, b) => a - b);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

let redis: RunningRedis;
let mock: MockUpstream;
let file: string;

beforeAll(async () => {
  redis = await startRedis();
  mock = await startMockUpstream();
  const dir = mkdtempSync(join(root, '.tmp', 'workers-'));
  file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify(
      e2eConfig(mock.url, {
        keys: [{ key: KEY, name: 'team' }, { key: LIMITED, name: 'limited', limits: { requestsPerMinute: 3 } }],
        store: { url: redis.url },
        metrics: true,
      }),
    ),
  );
});
afterAll(async () => {
  await mock?.close();
  await redis?.stop();
});

const ask = (url: string, key = KEY) => new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }] });

describe('--workers', () => {
  it('without store.url: one line saying what the workers must share, exit 1', async () => {
    const dir = mkdtempSync(join(root, '.tmp', 'workers-'));
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify(e2eConfig('http://127.0.0.1:9')));
    const r = start(['--config', plain, '--port', '0', '--workers', '2']);
    expect(await r.exited).toBe(1);
    expect(r.err()).toBe('interlingua: --workers 2 needs "store.url" (Redis): the workers share the state, the key limits, the upstream key cooldowns and the session affinity there\n');
    const bad = start(['--port', '0', '--workers', 'many']);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toBe("interlingua: --workers must be a whole number from 1 to 1024, or auto, not 'many' (see interlingua --help)\n");
  });

  it('serves one port from every worker, /metrics adds them up, limits are one budget, a crashed worker is replaced', async () => {
    const r = start(['--config', file, '--port', '0', '--workers', '2']);
    const url = await r.url;
    expect(r.err()).toContain(', 2 workers, limits on 1 key counted in Redis)');
    const workers = await until(() => (workersOf(r).length === 2 ? workersOf(r) : undefined));
    mock.reply(anthropic.text('Hello there', false));
    for (let i = 0; i < 6; i++) expect((await ask(url)).choices[0]!.message.content).toBe('Hello there');
    const metrics = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).text();
    expect(metrics).toMatch(/^interlingua_key_requests_total\{key="team"\} 6$/m);
    // Six requests over two workers, one budget of three (in one calendar minute).
    const into = (Date.now() % 60_000) / 1000;
    if (into > 50) await new Promise((res) => setTimeout(res, (60 - into) * 1000 + 100));
    const limited = await Promise.allSettled(Array.from({ length: 6 }, () => ask(url, LIMITED)));
    expect(limited.filter((x) => x.status === 'fulfilled')).toHaveLength(3);

    process.kill(workers[0]!, 'SIGKILL');
    await until(() => r.err().includes(`worker ${workers[0]} exited (SIGKILL); starting another`) || undefined);
    const replaced = await until(() => {
      const now = workersOf(r);
      return now.length === 2 && !now.includes(workers[0]!) ? now : undefined;
    });
    expect(replaced).toContain(workers[1]);
    for (let i = 0; i < 4; i++) expect((await ask(url)).choices[0]!.message.content).toBe('Hello there');
    expect(r.out()).not.toContain(KEY);
  });

  it('SIGTERM: every worker finishes its open requests (a stream in flight completes), then the primary exits 0', async () => {
    const r = start(['--config', file, '--port', '0', '--workers', '2']);
    const url = await r.url;
    const workers = await until(() => (workersOf(r).length === 2 ? workersOf(r) : undefined));
    const slow = anthropic.text('Hello there, slowly', true);
    mock.reply({ ...slow, delayMs: 300 });
    const client = new OpenAI({ apiKey: KEY, baseURL: `${url}/v1`, maxRetries: 0 });
    const streams = [0, 1].map(async () => {
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }], stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    });
    await until(() => mock.requests.filter((q) => q.json?.stream).length >= 2 || undefined);
    r.child.kill('SIGTERM'); // the primary alone: it tells its workers
    expect(await Promise.all(streams)).toEqual(['Hello there, slowly', 'Hello there, slowly']);
    expect(await r.exited).toBe(0);
    expect(r.err()).toContain('interlingua: shutting down, 2 workers finishing open requests');
    await until(() => workers.every((p) => !alive(p)) || undefined, 5_000);
  });
});
