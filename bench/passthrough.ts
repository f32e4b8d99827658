/**
 * The baseline: a raw node:http proxy that forwards the request bytes to the upstream over a
 * keep-alive pool and pipes the response bytes back. No parsing, no Hono, no Web streams.
 * `node passthrough.mjs UPSTREAM_PORT` (forked by bench/run.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveControl } from './control.ts';

const upstreamPort = Number(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' });

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}` };
  const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent }, (ur) => {
    res.writeHead(ur.statusCode ?? 502, ur.headers);
    ur.pipe(res);
  });
  up.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(up);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => serveControl((server.address() as AddressInfo).port));
