/**
 * Deadlines end a stream on their own. An upstream body that ignores the abort signal (an injected
 * fetch, a client that never checks it) must not hold the caller: on the idle and the total
 * deadline the pipeline itself ends the caller's stream with its dialect's error event and cancels
 * the upstream body. Through the Hono app (Workers, tests) and the Node listener (an injected
 * fetch's Web stream body, driven in a pull loop).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, createProxy } from '../../src/app.ts';
import type { FetchLike } from '../../src/kit/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import { createNodeListener } from '../../src/runtime/node-server.ts';
import { fixtureText } from '../support/fixtures.ts';
import { splitSse } from '../support/mock-upstream.ts';
import { e2eConfig } from '../support/proxy.ts';
import { requestFor, sseData, streamEndedWithError, type CallerDialect } from './callers.ts';

const IDLE_MS = 300;
const TOTAL_MS = 900;

interface Deaf {
  /** The body's cancel was called (the pipeline stopped reading it). */
  cancelled: boolean;
  /** The body stopped being read: its pull loop ended. */
  stopped: boolean;
}

/**
 * A fetch answering with an event stream that sends `frames`, then either nothing more (`idle`)
 * or a comment every 100 ms for ever (`chatty`), and never looks at the signal.
 */
function deafFetch(frames: string[], mode: 'idle' | 'chatty', seen: Deaf[]): FetchLike {
  return (async () => {
    const deaf: Deaf = { cancelled: false, stopped: false };
    seen.push(deaf);
    const enc = new TextEncoder();
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const f of frames) c.enqueue(enc.encode(f));
        if (mode === 'chatty') timer = setInterval(() => c.enqueue(enc.encode(': still here\n\n')), 100);
        // Safety net for the test run only: the body ends itself long after the deadlines.
        setTimeout(() => {
          clearInterval(timer);
          deaf.stopped = true;
          try {
            c.close();
          } catch {
            // already cancelled
          }
        }, 10_000);
      },
      cancel() {
        deaf.cancelled = true;
        clearInterval(timer);
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as FetchLike;
}

function config() {
  const cfg = e2eConfig('http://127.0.0.1:9', {});
  for (const u of Object.values(cfg.upstreams)) Object.assign(u, { timeouts: { idleMs: IDLE_MS, totalMs: TOTAL_MS } });
  return parseConfig(cfg);
}

const openaiFrames = splitSse(fixtureText('openai-chat', 'stream-text-basic.sse')).slice(0, 3);

const CASES: Array<{ caller: CallerDialect; mode: 'idle' | 'chatty'; message: RegExp; label: string }> = [
  { caller: 'openai-chat', mode: 'idle', message: /idle for 300 ms/, label: 'same dialect, idle' },
  { caller: 'openai-chat', mode: 'chatty', message: /within 900 ms \(timeouts\.totalMs\)/, label: 'same dialect, total deadline' },
  { caller: 'anthropic', mode: 'idle', message: /idle for 300 ms/, label: 'translated, idle' },
  { caller: 'gemini', mode: 'chatty', message: /within 900 ms \(timeouts\.totalMs\)/, label: 'translated, total deadline' },
  { caller: 'openai-responses', mode: 'idle', message: /idle for 300 ms/, label: 'translated to Responses, idle' },
];

type Send = (url: string, init: RequestInit) => Promise<Response>;

function suite(name: string, make: (fetch: FetchLike) => Promise<{ send: Send; base: string; close(): Promise<void> }>) {
  describe(name, () => {
    it.each(CASES)('$label ($caller caller): the error event within the deadline, upstream body cancelled', async ({ caller, mode, message }) => {
      const seen: Deaf[] = [];
      const app = await make(deafFetch(openaiFrames, mode, seen));
      try {
        const started = Date.now();
        const [url, init] = requestFor(caller, app.base, 'to-openai', true);
        const res = await app.send(url, init);
        expect(res.status).toBe(200);
        const text = await res.text();
        const took = Date.now() - started;
        expect(streamEndedWithError(caller, text), text.slice(-400)).toBe(true);
        expect(text).toMatch(message);
        // Well before the body's own 10 s end.
        expect(took).toBeLessThan(4000);
        expect(seen).toHaveLength(1);
        expect(seen[0]!.stopped).toBe(false);
        await new Promise((r) => setTimeout(r, 20));
        expect(seen[0]!.cancelled).toBe(true);
        if (caller === 'openai-chat') expect(sseData(text).at(0)?.data).toBe(sseData(openaiFrames[0]!)[0]!.data);
      } finally {
        await app.close();
      }
    });
  });
}

suite('Hono app (app.request)', async (fetch) => {
  const app = createApp({ config: config(), fetch });
  return { base: 'http://localhost', send: async (url, init) => app.request(url, init), close: async () => {} };
});

const servers: http.Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

suite('Node listener', async (upstreamFetch) => {
  const proxy = createProxy({ config: config(), fetch: upstreamFetch });
  const server = http.createServer(createNodeListener(proxy));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    send: (url, init) => fetch(url, init),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
});
