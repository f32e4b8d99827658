import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from './node-client.ts';

let server: http.Server;
let port: number;
const hosts: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    res.end('pinned');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('nodeFetch', () => {
  it('connects to a pinned address, not to what the name resolves to, keeping the Host header', async () => {
    // `.invalid` never resolves: only the pinned address can have been used.
    const res = await nodeFetch(`http://media.invalid:${port}/a.png`, { method: 'GET', pinnedAddress: '127.0.0.1' });
    expect(await res.text()).toBe('pinned');
    expect(hosts.at(-1)).toBe(`media.invalid:${port}`);
    await expect(nodeFetch(`http://media.invalid:${port}/a.png`, { method: 'GET' })).rejects.toThrow();
  });
});
