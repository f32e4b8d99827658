/**
 * A scriptable upstream on 127.0.0.1 for end-to-end tests: replays fixtures (JSON or SSE, in
 * chunks if asked), records every request it receives, and can misbehave on demand.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixtureText } from './fixtures.ts';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json?: any;
  /** Resolves when the connection of this request's response has closed (either side). */
  closed: Promise<void>;
}

export interface MockReply {
  status?: number;
  headers?: Record<string, string>;
  /** Whole body (bytes for binary media). */
  body?: string | Uint8Array;
  /** Body written in these pieces (text, or bytes for binary framings), with `delayMs` between them. */
  chunks?: Array<string | Uint8Array>;
  delayMs?: number;
  /** Never answer (hang) — for timeout tests. */
  hang?: boolean;
  /** Destroy the socket after writing what was given. */
  destroy?: boolean;
}

export type MockHandler = (req: ReceivedRequest, n: number) => MockReply | Promise<MockReply>;

export interface MockUpstream {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Set the handler for the following requests. */
  reply(handler: MockHandler | MockReply): void;
  close(): Promise<void>;
}

/** A reply replaying a fixture: `.sse` as text/event-stream, else JSON; status from `error-NNN-` names. */
export function fixtureReply(dialect: string, name: string, extra: Partial<MockReply> = {}): MockReply {
  const text = fixtureText(dialect, name);
  const status = /^error-(\d{3})-/.exec(name)?.[1];
  const sse = name.endsWith('.sse');
  return {
    status: status ? Number(status) : 200,
    headers: { 'content-type': sse ? 'text/event-stream' : 'application/json' },
    ...(sse && !extra.body ? { chunks: splitSse(text) } : { body: text }),
    ...extra,
  };
}

/** Split an SSE body into its events (each chunk one event), as a real server flushes them. */
export function splitSse(text: string): string[] {
  const parts = text.split(/(?<=\r?\n\r?\n)/);
  return parts.filter((p) => p.length > 0);
}

export async function startMockUpstream(): Promise<MockUpstream> {
  let handler: MockHandler = () => ({ status: 500, body: '{"error":"no reply scripted"}' });
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const closed = new Promise<void>((r) => res.once('close', () => r()));
      const rec: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json, closed };
      requests.push(rec);
      const reply = await handler(rec, requests.length);
      if (reply.hang) return;
      res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'application/json' });
      if (reply.chunks) {
        for (const c of reply.chunks) {
          if (res.destroyed) return;
          res.write(c);
          if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        }
        if (reply.destroy) {
          // Let what was written reach the client before the connection breaks.
          await new Promise((r) => setTimeout(r, 20));
          return void res.destroy();
        }
        res.end();
      } else {
        if (reply.destroy) {
          res.write(reply.body ?? '');
          return void res.destroy();
        }
        res.end(reply.body ?? '');
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reply(h) {
      handler = typeof h === 'function' ? h : () => h;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
