/**
 * A real redis-server (Debian's package; .ci/run installs it) on 127.0.0.1 for the tests that need
 * one: started on a free port with no persistence, stopped after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import net from 'node:net';

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      if (/Ready to accept connections/i.test(out)) resolve();
    };
    child.stdout!.on('data', onData);
    child.once('error', (e) => reject(new Error(`redis-server could not start (apt-get install redis-server): ${e.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A mock upstream and two proxy processes on one Redis, for the enclosing `describe`. */
export interface RedisPair {
  mock: import('./mock-upstream.ts').MockUpstream;
  a: import('./proxy.ts').RunningProxy;
  b: import('./proxy.ts').RunningProxy;
}

/**
 * Started before the enclosing `describe`'s tests (both proxies with `config(mockUrl, redisUrl)`),
 * stopped after them.
 */
export function useRedisPair(config: (mockUrl: string, redisUrl: string) => unknown): RedisPair {
  const pair = {} as RedisPair;
  let redis: RunningRedis | undefined;
  beforeAll(async () => {
    const { startMockUpstream } = await import('./mock-upstream.ts');
    const { startProxy } = await import('./proxy.ts');
    redis = await startRedis();
    pair.mock = await startMockUpstream();
    const doc = config(pair.mock.url, redis.url);
    pair.a = await startProxy(doc);
    pair.b = await startProxy(doc);
  });
  afterAll(async () => {
    await pair.a?.close();
    await pair.b?.close();
    await pair.mock?.close();
    await redis?.stop();
  });
  return pair;
}
