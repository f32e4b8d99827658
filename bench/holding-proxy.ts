/**
 * The holding control: the least a proxy can do that, like Interlingua on a same-dialect route,
 * holds the body, renames the model and accounts for the request. A raw node:http server that
 * buffers the caller's body, finds the model (the first `"model":"…"` of the bytes, or Gemini's
 * path), renames it as the route says, sets the upstream's key, forwards the body over a
 * keep-alive pool, parses the answer for its usage and writes one log line to stdout. No
 * validation, no parameter check, no error shapes, no retries. Same dialect only (the body is
 * the caller's). The same-dialect budget of `npm run bench:agent` is a ratio to this proxy.
 * `node holding-proxy.mjs CONFIG_JSON` (bench/agent-harness.ts's proxyConfig; forked by bench/agent.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveControl } from './control.ts';

interface Config { upstreams: Record<string, { baseUrl: string; apiKey: string }>; models: Record<string, { upstream: string; model: string }> }
const config = JSON.parse(process.argv[2]!) as Config;
const agent = new http.Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' });
const MODEL = Buffer.from('"model":"');
const KEYS = ['authorization', 'x-api-key', 'x-goog-api-key'] as const;

const server = http.createServer((req, res) => {
  const t0 = performance.now();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const gemini = /^\/v1beta\/models\/([^:/]+)(:.*)$/.exec(req.url ?? '');
    // The model: Gemini's path, else the body's first "model" member (its string token's bytes).
    const at = gemini ? -1 : body.indexOf(MODEL);
    const from = at + MODEL.byteLength;
    const to = at < 0 ? -1 : body.indexOf(0x22, from);
    const alias = gemini ? gemini[1]! : to < 0 ? '' : body.toString('utf8', from, to);
    const route = config.models[alias];
    const up = route && config.upstreams[route.upstream];
    if (!route || !up) return (res.writeHead(404, { 'content-type': 'application/json' }), res.end('{"error":"unknown model"}'));
    const base = new URL(up.baseUrl);
    const path = base.pathname.replace(/\/v1$/, '') + (gemini ? `/v1beta/models/${route.model}${gemini[2]}` : req.url);
    const parts = gemini ? [body] : [body.subarray(0, from), Buffer.from(route.model), body.subarray(to)];
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: base.host, 'content-length': String(parts.reduce((n, p) => n + p.byteLength, 0)) };
    for (const k of KEYS) if (headers[k] !== undefined) headers[k] = k === 'authorization' ? `Bearer ${up.apiKey}` : up.apiKey;
    const upReq = http.request({ host: base.hostname, port: base.port, method: 'POST', path, headers, agent }, (ur) => {
      const type = String(ur.headers['content-type'] ?? '');
      const log = (usage: unknown) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), model: alias, upstream: route.upstream, status: ur.statusCode, ms: Math.round(performance.now() - t0), usage })}\n`);
      if (type.startsWith('text/event-stream')) {
        res.writeHead(ur.statusCode ?? 502, { 'content-type': type });
        ur.pipe(res);
        ur.on('end', () => log(null));
        return;
      }
      const answer: Buffer[] = [];
      ur.on('data', (c: Buffer) => answer.push(c));
      ur.on('end', () => {
        const bytes = Buffer.concat(answer);
        let usage: unknown = null;
        try {
          const a = JSON.parse(bytes.toString('utf8')) as { usage?: unknown; usageMetadata?: unknown };
          usage = a.usage ?? a.usageMetadata ?? null;
        } catch {
          // Not JSON: forwarded as it came, logged without usage.
        }
        log(usage);
        res.writeHead(ur.statusCode ?? 502, { 'content-type': type || 'application/json', 'content-length': bytes.byteLength });
        res.end(bytes);
      });
    });
    upReq.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upReq.cork();
    for (const p of parts) upReq.write(p);
    upReq.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => serveControl((server.address() as AddressInfo).port));
