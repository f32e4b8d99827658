/**
 * The benchmarks measure prebuilt bundles of the proxy (bench/proxy-entry.ts, built with
 * scripts/node-bundle.ts's options, as the compiled CLI is): a bundle that builds but cannot start
 * (a dependency esbuild bundled in a form that requires files it left behind) breaks every
 * benchmark without any other test noticing. Built here, started, and asked for one answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { benchBundle } from '../scripts/node-bundle.ts';
import { start } from './support/processes.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('the bench proxy bundle starts and answers', async () => {
  await build({ entryPoints: { proxy: 'bench/proxy-entry.ts' }, absWorkingDir: root, outdir: out, ...benchBundle });
  const config = JSON.stringify({ open: true, upstreams: { u: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-x' } }, models: { m: { upstream: 'u' } } });
  const proxy = start(process.execPath, [join(out, 'proxy.mjs'), config]);
  try {
    const port = Number((await proxy.waitFor(/ready (\d+)/))[1]);
    const res = await fetch(`http://127.0.0.1:${port}/v1/models`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toContain('m');
  } finally {
    await proxy.stop();
  }
}, 60_000);

it('the holding control renames the model, sets the upstream key, forwards the rest byte for byte and logs the usage', async () => {
  await build({ entryPoints: { 'holding-proxy': 'bench/holding-proxy.ts' }, absWorkingDir: root, outdir: out, ...benchBundle });
  const seen: Array<{ url: string; auth: string | undefined; key: string | undefined; body: string }> = [];
  const answer = JSON.stringify({ id: 'x', usage: { prompt_tokens: 7, completion_tokens: 3 } });
  const upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, key: req.headers['x-goog-api-key'] as string | undefined, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upPort = (upstream.address() as AddressInfo).port;
  const config = JSON.stringify({
    upstreams: { o: { baseUrl: `http://127.0.0.1:${upPort}/e50/v1`, apiKey: 'sk-up' }, g: { baseUrl: `http://127.0.0.1:${upPort}/e50`, apiKey: 'AIza-up' } },
    models: { alias: { upstream: 'o', model: 'real-model' }, galias: { upstream: 'g', model: 'real-gemini' } },
  });
  const control = start(process.execPath, [join(out, 'holding-proxy.mjs'), config]);
  try {
    const port = Number((await control.waitFor(/ready (\d+)/))[1]);
    const body = '{"model":"alias","messages":[{"role":"user","content":"say \\"model\\":\\"x\\" — café"}]}';
    const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-caller' }, body });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(answer);
    expect(seen[0]).toEqual({ url: '/e50/v1/chat/completions', auth: 'Bearer sk-up', key: undefined, body: body.replace('"model":"alias"', '"model":"real-model"') });
    const gbody = '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}';
    const gres = await fetch(`http://127.0.0.1:${port}/v1beta/models/galias:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-caller' }, body: gbody });
    expect(gres.status).toBe(200);
    expect(seen[1]).toEqual({ url: '/e50/v1beta/models/real-gemini:generateContent', auth: undefined, key: 'AIza-up', body: gbody });
    const unknown = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"nope"}' });
    expect(unknown.status).toBe(404);
    expect(seen).toHaveLength(2);
    const lines = (await control.waitFor(/("model":"galias".*\n)/)).input.trim().split('\n').map((l) => JSON.parse(l) as { model: string; usage: unknown });
    expect(lines.map((l) => [l.model, l.usage])).toEqual([['alias', { prompt_tokens: 7, completion_tokens: 3 }], ['galias', { prompt_tokens: 7, completion_tokens: 3 }]]);
  } finally {
    await control.stop();
    upstream.close();
  }
}, 60_000);
