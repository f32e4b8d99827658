import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByteParts } from '../kit/index.ts';
import { nodeFetch, readIncoming } from './node-client.ts';

let server: http.Server;
let port: number;
const hosts: string[] = [];
/** What the server read of the last request (readIncoming under a 64 KiB limit), or its error. */
let received: { headers: http.IncomingHttpHeaders; body?: Buffer; error?: string; listeners?: number } | undefined;
const LIMIT = 64 * 1024;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    readIncoming(req, LIMIT).then(
      (body) => {
        // What stays attached to the IncomingMessage lives to the end of the response.
        received = { headers: req.headers, body, listeners: req.listenerCount('data') + req.listenerCount('error') + req.listenerCount('end') };
        res.end('pinned');
      },
      (e: Error) => {
        received = { headers: req.headers, error: e.message };
        res.end('refused');
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Send `chunks` one event-loop turn apart (so they reach the server as separate reads), with or without a length. */
function send(chunks: Buffer[], declare: boolean): Promise<string> {
  const length = chunks.reduce((n, c) => n + c.byteLength, 0);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: declare ? { 'content-length': String(length) } : { 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    let i = 0;
    const next = () => {
      if (i === chunks.length) return req.end();
      req.write(chunks[i++]!);
      setTimeout(next, 5);
    };
    next();
  });
}

const pieces = (n: number, size: number) => Array.from({ length: n }, (_, i) => Buffer.alloc(size, 97 + i));

describe('nodeFetch', () => {
  it('connects to a pinned address, not to what the name resolves to, keeping the Host header', async () => {
    // `.invalid` never resolves: only the pinned address can have been used.
    const res = await nodeFetch(`http://media.invalid:${port}/a.png`, { method: 'GET', pinnedAddress: '127.0.0.1' });
    expect(await res.text()).toBe('pinned');
    expect(hosts.at(-1)).toBe(`media.invalid:${port}`);
    await expect(nodeFetch(`http://media.invalid:${port}/a.png`, { method: 'GET' })).rejects.toThrow();
  });

  it('sends a body in parts as their bytes in order, with their total length', async () => {
    const parts = new ByteParts([Buffer.from('{"model":'), new Uint8Array(0), Buffer.from('"m-2"'), Buffer.from(',"x":"é"}')]);
    const res = await nodeFetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: parts as unknown as BodyInit, headers: { 'content-type': 'application/json' } });
    expect(await res.text()).toBe('pinned');
    expect(received!.headers['content-length']).toBe(String(parts.byteLength));
    expect(received!.body!.toString()).toBe('{"model":"m-2","x":"é"}');
  });
});

describe('readIncoming', () => {
  it('reads a body in one chunk, in several with a declared length, and in several without one, byte for byte', async () => {
    for (const [chunks, declare] of [[pieces(1, 1000), true], [pieces(4, 3000), true], [pieces(4, 3000), false], [[], true]] as Array<[Buffer[], boolean]>) {
      expect(await send(chunks, declare)).toBe('pinned');
      expect(received!.body!.equals(Buffer.concat(chunks))).toBe(true);
      // Nothing of the read stays attached to the request (its closures held the body, to the
      // end of the response, after the flow had let go of it).
      expect(received!.listeners).toBe(0);
    }
  });

  it('refuses a body past the limit, declared or only read', async () => {
    expect(await send(pieces(5, 20_000), true)).toBe('refused');
    expect(received!.error).toMatch(/exceeds the limit of 65536 bytes/);
    expect(await send(pieces(5, 20_000), false)).toBe('refused');
    expect(received!.error).toMatch(/exceeds the limit of 65536 bytes/);
  });
});
