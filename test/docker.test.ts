/**
 * The Docker image for real: built from the Dockerfile (`docker build --network host`, on the base
 * image `INTERLINGUA_DOCKER_NODE_IMAGE` names: .ci/run makes it with the shared
 * local-node-image.sh, as no image registry is reachable here) and run with `--network host` on
 * 127.0.0.1: /health, a translated dry-run, a real request to a mock upstream, the image's own
 * health check reporting healthy, the process not root, and `docker stop` exiting 0 within the
 * grace period. Every container it starts is removed, pass or fail. Without the variable (no
 * Docker engine on a developer's machine) it is skipped; under CI it is required.
 */
import net from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply, startMockUpstream, type MockUpstream } from './support/mock-upstream.ts';
import { ROOT, run } from './support/processes.ts';

const BASE = process.env.INTERLINGUA_DOCKER_NODE_IMAGE;
const REQUIRED = process.env.CI === 'true';
const IMAGE = 'interlingua-test:latest';
const INBOUND = 'il-docker-inbound';
const UPSTREAM_KEY = 'sk-ant-docker-SECRET-7777';
/** `docker stop`'s grace period before it kills: the server must be gone well within it. */
const GRACE_S = 10;

const containers: string[] = [];
const docker = (args: string[], timeoutMs = 60_000) => run('docker', args, { timeoutMs });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function poll<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(!BASE && !REQUIRED)('the Docker image, built and run', () => {
  let mock: MockUpstream;
  let name: string;
  let url: string;

  beforeAll(async () => {
    if (!BASE) throw new Error('INTERLINGUA_DOCKER_NODE_IMAGE is not set: .ci/run builds it with ../shared/tools/local-node-image.sh');
    // Layers are cached between runs: only what changed is rebuilt (a source change: the build stage's last steps).
    const built = await run('docker', ['build', '--network', 'host', '--build-arg', `NODE_IMAGE=${BASE}`, '-t', IMAGE, ROOT], { timeoutMs: 600_000 });
    if (built.status !== 0) throw new Error(`docker build failed:\n${built.stdout.slice(-4000)}\n${built.stderr.slice(-4000)}`);
    mock = await startMockUpstream();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const config = {
      keys: ['env:INBOUND_KEY'],
      upstreams: { claude: { dialect: 'anthropic', baseUrl: mock.url, apiKey: 'env:UPSTREAM_KEY', retry: { attempts: 1 } } },
      models: { 'gpt-4o': { upstream: 'claude', model: 'claude-sonnet-4-5' } },
    };
    name = `interlingua-test-${process.pid}-${Date.now().toString(36)}`;
    containers.push(name);
    const started = await docker([
      'run', '-d', '--network', 'host', '--name', name,
      '-e', `PORT=${port}`, '-e', `INTERLINGUA_CONFIG=${JSON.stringify(config)}`, '-e', `INBOUND_KEY=${INBOUND}`, '-e', `UPSTREAM_KEY=${UPSTREAM_KEY}`,
      // The image's own HEALTHCHECK command, asked every second instead of every 30.
      '--health-interval', '1s', '--health-start-period', '1s', '--health-retries', '3',
      IMAGE, '--host', '127.0.0.1',
    ]);
    if (started.status !== 0) throw new Error(`docker run failed:\n${started.stderr}`);
    await poll('/health', async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 30_000).catch(async (e: Error) => {
      throw new Error(`${e.message}; container log:\n${(await docker(['logs', name])).stderr}`);
    });
  }, 700_000);

  afterAll(async () => {
    // Every container this file started, whatever happened to the tests.
    if (containers.length) await docker(['rm', '-f', ...containers]);
    await mock?.close();
  });

  it('serves /health, and started with its one line', async () => {
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
    expect((await docker(['logs', name])).stderr).toMatch(/^interlingua listening on http:\/\/127\.0\.0\.1:\d+ \(config from INTERLINGUA_CONFIG, 1 route, 1 upstream\)$/m);
  });

  it('answers a translated dry-run without calling upstream', async () => {
    mock.requests.length = 0;
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND}`, 'content-type': 'application/json', 'x-interlingua-dry-run': 'true' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    const shown = (await res.json()) as { upstream: unknown; request: { url: string; headers: Record<string, string>; body: { model: string } } };
    expect(shown.upstream).toEqual({ name: 'claude', dialect: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(new URL(shown.request.url).pathname).toBe('/v1/messages');
    expect(shown.request.body.model).toBe('claude-sonnet-4-5');
    expect(JSON.stringify(shown)).not.toContain(UPSTREAM_KEY);
    expect(mock.requests).toHaveLength(0);
  });

  it('translates a real request to the mock upstream on the host', async () => {
    mock.requests.length = 0;
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: INBOUND, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBeTruthy();
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]!.url).toBe('/v1/messages');
    expect(mock.requests[0]!.headers['x-api-key']).toBe(UPSTREAM_KEY);
  });

  it("the image's health check reports healthy", async () => {
    const status = await poll(
      'a healthy status',
      async () => {
        const s = (await docker(['inspect', '--format', '{{.State.Health.Status}}', name])).stdout.trim();
        return s === 'healthy' ? s : undefined;
      },
      30_000,
    );
    expect(status).toBe('healthy');
  });

  it('runs as an unprivileged user', async () => {
    expect((await docker(['inspect', '--format', '{{.Config.User}}', name])).stdout.trim()).toBe('node');
    const ids = (await docker(['exec', name, 'node', '-e', "console.log(process.getuid(), require('fs').statSync('/proc/1').uid)"])).stdout.trim().split(' ').map(Number);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).not.toBe(0);
  });

  it('docker stop: the server finishes and exits 0 within the grace period', async () => {
    const stopped = await docker(['stop', '-t', String(GRACE_S), name], 30_000);
    expect(stopped.status).toBe(0);
    // 0, not 137: it exited on the SIGTERM, before the grace period ran out and docker killed it.
    expect((await docker(['inspect', '--format', '{{.State.ExitCode}} {{.State.OOMKilled}}', name])).stdout.trim()).toBe('0 false');
    expect((await docker(['logs', name])).stderr).toContain('interlingua: shutting down, finishing open requests');
  }, 40_000);
});
