/**
 * On Node a streamed reply goes from the upstream socket through the byte step straight into the
 * caller's socket (runtime/node-server.ts). A caller that stops reading must pause the upstream,
 * not make the proxy buffer the rest of the stream: the upstream here streams 64 MB and records
 * how far it got while the caller was not reading. Both a same-dialect stream (bytes forwarded)
 * and a translated one are checked, and every event must arrive, in order, once the caller reads.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.ts';
import { startNode } from '../src/runtime/node.ts';
import { INBOUND_KEY, e2eConfig } from './support/proxy.ts';

// Long enough that what the kernel buffers on two loopback sockets (autotuned, up to ~20 MB under
// load) stays far below half of it.
const EVENTS = 32_000;
const PAD = 'x'.repeat(2000);
const BYTES = EVENTS * 2100;

/** An OpenAI-dialect upstream that streams EVENTS chunks as fast as its socket takes them. */
function bigStreamUpstream() {
  const state = { written: 0, done: false };
  const server = http.createServer(async (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < EVENTS; i++) {
      const chunk = { id: 'chatcmpl-big', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: `${i}:${PAD}` }, finish_reason: null }] };
      const frame = `data: ${JSON.stringify(chunk)}\n\n`;
      state.written += frame.length;
      if (!res.write(frame)) await new Promise((r) => res.once('drain', r));
      if (res.destroyed) return;
    }
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-big', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
    state.done = true;
  });
  return { server, state };
}

describe('Node streams: a caller that stops reading pauses the upstream', () => {
  const up = bigStreamUpstream();
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    await new Promise<void>((r) => up.server.listen(0, '127.0.0.1', r));
    const mockUrl = `http://127.0.0.1:${(up.server.address() as AddressInfo).port}`;
    const running = await startNode({ config: parseConfig(e2eConfig(mockUrl)), port: 0, log: () => {} });
    url = `http://127.0.0.1:${running.port}`;
    close = running.close;
  });
  afterAll(async () => {
    await close?.();
    up.server.closeAllConnections();
    await new Promise((r) => up.server.close(r));
  });

  it.each([
    ['same dialect (bytes forwarded)', '/v1/chat/completions', { model: 'gpt-4o-mini' }, { authorization: `Bearer ${INBOUND_KEY}` }],
    ['translated (openai upstream → anthropic caller)', '/v1/messages', { model: 'to-openai', max_tokens: 100 }, { 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01' }],
  ] as const)('%s', async (_name, path, extra, auth) => {
    up.state.written = 0;
    up.state.done = false;
    const body = JSON.stringify({ ...extra, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const duringPause = { done: true, written: 0 };
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth } }, (res) => {
        res.pause();
        setTimeout(() => {
          duringPause.done = up.state.done;
          duringPause.written = up.state.written;
          let out = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (out += c));
          res.on('end', () => resolve(out));
          res.resume();
        }, 1000);
      });
      req.on('error', reject);
      req.end(body);
    });
    // While the caller did not read, the upstream was held far short of the end.
    expect(duringPause.done).toBe(false);
    expect(duringPause.written).toBeLessThan(BYTES / 2);
    expect(up.state.done).toBe(true);
    // Every upstream token arrived, in order, and the stream closed properly.
    const numbers = [...text.matchAll(/"(\d+):x/g)].map((m) => Number(m[1]));
    expect(numbers).toHaveLength(EVENTS);
    expect(numbers.every((n, i) => n === i)).toBe(true);
    expect(text).toMatch(path === '/v1/messages' ? /event: message_stop/ : /data: \[DONE\]/);
  }, 60_000);
});
