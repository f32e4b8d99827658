/**
 * A reference point, not a baseline: the least a translating proxy can do on Node. A raw
 * node:http server that reads the request body, parses it and serialises it again, sends it to the
 * upstream over a keep-alive pool, and parses and re-serialises the answer (JSON; a stream is
 * piped). No routing, validation, translation, logging or error handling. The bench reports its
 * CPU per request next to the passthrough's, so the gap between it and Interlingua is what the
 * proxy's own work costs. `node floor.mjs UPSTREAM_PORT` (forked by bench/run.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveControl } from './control.ts';

const upstreamPort = Number(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' });

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const payload = Buffer.from(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}`, 'content-length': String(payload.byteLength) };
    const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: 'POST', path: req.url, headers, agent }, (ur) => {
      const type = String(ur.headers['content-type'] ?? '');
      if (type.startsWith('text/event-stream')) {
        res.writeHead(ur.statusCode ?? 502, { 'content-type': type });
        ur.pipe(res);
        return;
      }
      const body: Buffer[] = [];
      ur.on('data', (c: Buffer) => body.push(c));
      ur.on('end', () => {
        const out = JSON.stringify(JSON.parse(Buffer.concat(body).toString('utf8')));
        res.writeHead(ur.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
        res.end(out);
      });
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    up.end(payload);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => serveControl((server.address() as AddressInfo).port));
