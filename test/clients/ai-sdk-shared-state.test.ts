/**
 * The AI SDK's chat with history (`item_reference` replay) where the state must be shared: two
 * Interlingua processes (the Node entry, as `npm start` runs it) behind one Redis, turn 1 through
 * one and turn 2 through the other; and the Worker in workerd with a KV namespace bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { start, tsx, type Started } from '../support/processes.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';
import { startRedis, type RunningRedis } from '../support/redis.ts';
import { clientsConfig } from './harness.ts';
import { chatWithHistory, expectHistoryServed } from './history.ts';

/** `src/runtime/cli.ts --port 0` with this config; resolves with its URL once it listens. */
async function startCli(config: unknown): Promise<{ url: string; child: Started }> {
  const child = start(...tsx('src/runtime/cli.ts', '--port', '0'), { env: { ...process.env, PORT: '', HOST: '', INTERLINGUA_CONFIG: JSON.stringify(config) } });
  return { url: (await child.waitFor(/listening on (http:\/\/\S+)/))[1]!, child };
}

describe('AI SDK history through Redis shared by two proxy processes', () => {
  let mock: MockUpstream;
  let redis: RunningRedis;
  const procs: Array<{ url: string; child: Started }> = [];
  let alone: RunningProxy;
  beforeAll(async () => {
    mock = await startMockUpstream();
    redis = await startRedis();
    const config = clientsConfig(mock.url, {}, { store: { url: redis.url, ttlSeconds: 600 } });
    procs.push(...(await Promise.all([startCli(config), startCli(config)])));
    alone = await startProxy(clientsConfig(mock.url), {}, 'node');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.child.stop()));
    await alone?.close();
    await redis?.stop();
    await mock?.close();
  });

  it('turn 1 through process A, turn 2 through process B: B serves the reference from Redis', async () => {
    expectHistoryServed(await chatWithHistory(mock, procs[0]!.url, procs[1]!.url));
  });

  it('control: an instance with its own memory store does not hold the reference (400 naming it)', async () => {
    const failed = await chatWithHistory(mock, procs[0]!.url, alone.url).catch((e: { statusCode?: number; responseBody?: string }) => e);
    expect((failed as { statusCode?: number }).statusCode).toBe(400);
    expect((failed as { responseBody?: string }).responseBody).toMatch(/item_not_found/);
  });
});

describe('AI SDK history on the Worker with a KV namespace bound', () => {
  let mock: MockUpstream;
  let worker: RunningProxy;
  beforeAll(async () => {
    mock = await startMockUpstream();
    worker = await startProxy(clientsConfig(mock.url), {}, 'worker', { stateKv: true });
  }, 120_000);
  afterAll(async () => {
    await worker?.close();
    await mock?.close();
  });

  it('turn 2 is served from KV', async () => {
    expectHistoryServed(await chatWithHistory(mock, worker.url, worker.url));
  });
});
