/**
 * A real redis-server (Debian's package; .ci/run installs it) on 127.0.0.1 for the tests that need
 * one: started on a free port with no persistence, stopped after.
 */
import { afterAll, beforeAll } from 'vitest';
import net from 'node:net';
import { start } from './processes.ts';

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
  const child = start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  await child.waitFor(/Ready to accept connections/i).catch((e: Error) => {
    throw new Error(`redis-server could not start (apt-get install redis-server): ${e.message}`);
  });
  return { url: `redis://127.0.0.1:${port}`, stop: async () => void (await child.stop()) };
}

/** A mock upstream and two proxy processes on one Redis, for the enclosing `describe`. */
export interface RedisPair {
  mock: import('./mock-upstream.ts').MockUpstream;
  a: import('./proxy.ts').RunningProxy;
  b: import('./proxy.ts').RunningProxy;
  /** The Redis both proxies use (to look at what they keep there). */
  redisUrl: string;
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
    pair.redisUrl = redis.url;
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
