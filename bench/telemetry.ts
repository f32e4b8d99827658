/**
 * What OpenTelemetry costs per request, in process: openai-chat → anthropic through `dispatch`
 * with an instant fake upstream and a fake collector, telemetry off and on, each in its own
 * process, interleaved runs, median CPU µs per request. `npx tsx bench/telemetry.ts [runs]`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createProxy } from '../src/app.ts';
import type { CallerRequest } from '../src/http/inbound.ts';
import { parseConfig } from '../src/config/load.ts';

const N = 20_000;

async function measure(mode: 'off' | 'on'): Promise<number> {
  const answer = readFileSync(new URL('../translators/anthropic/__fixtures__/text-basic.json', import.meta.url), 'utf8');
  const doc: Record<string, unknown> = { open: true, log: { requests: false }, upstreams: { a: { dialect: 'anthropic', baseUrl: 'http://up', apiKey: 'k' } }, models: { '*': { upstream: 'a' } } };
  if (mode === 'on') doc.telemetry = { otlp: { endpoint: 'http://collector', intervalMs: 50 } };
  // The exporter posts with the global fetch: a collector that answers at once.
  globalThis.fetch = (async () => new Response('{}')) as typeof fetch;
  const proxy = createProxy({ config: parseConfig(doc), fetch: async () => new Response(answer, { headers: { 'content-type': 'application/json' } }) });
  const body = JSON.stringify({ model: 'claude-x', messages: [{ role: 'user', content: 'Hi' }] });
  const req = (): CallerRequest => ({
    method: 'POST',
    path: '/v1/chat/completions',
    origin: 'http://proxy',
    headers: { 'content-type': 'application/json' },
    query: {},
    bytes: async () => new TextEncoder().encode(body),
    text: async () => body,
    onGone: () => {},
  });
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) if ((await proxy.dispatch(req())).status !== 200) throw new Error('request failed');
  };
  await run(3000);
  const t = process.cpuUsage();
  await run(N);
  const c = process.cpuUsage(t);
  return (c.user + c.system) / N;
}

const mode = process.argv[2];
if (mode === 'off' || mode === 'on') {
  console.log(String(await measure(mode)));
} else {
  const runs = Number(process.argv[2] ?? 5);
  const self = fileURLToPath(import.meta.url);
  const got: Record<'off' | 'on', number[]> = { off: [], on: [] };
  for (let i = 0; i < runs; i++) {
    for (const m of ['off', 'on'] as const) got[m].push(Number(execFileSync(process.execPath, ['--import', 'tsx', self, m], { encoding: 'utf8' }).trim()));
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  console.log(`telemetry off: ${median(got.off).toFixed(1)} µs CPU/request; on: ${median(got.on).toFixed(1)} (median of ${runs})`);
}
