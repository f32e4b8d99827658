/**
 * The instant mock upstream of `npm run bench:agent`: OpenAI Chat, Anthropic, Gemini and OpenAI
 * Responses, answering one agent turn (a sentence and a tool call) as JSON, or as a stream of N
 * events (mostly tool-call argument deltas), N from the path prefix `/e{N}/` (50 or 2000). Every
 * reply is prebuilt bytes; a stream writes one event per event-loop turn (setImmediate), as a real
 * upstream flushes one event per token. A `/h{MS}` prefix before it holds the answer MS
 * milliseconds (requests in flight, for `--memory`). `node agent-mock.mjs` (forked by bench/agent.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonAnswer, streamAnswer, type Dialect } from './agent-bodies.ts';
import { serveControl } from './control.ts';

export const EVENT_COUNTS = [50, 500, 2000] as const;
const DIALECTS: Dialect[] = ['openai', 'anthropic', 'gemini', 'responses'];
const json = new Map(DIALECTS.map((d) => [d, Buffer.from(jsonAnswer(d))]));
const streams = new Map<string, Buffer[]>(DIALECTS.flatMap((d) => EVENT_COUNTS.map((n) => [`${d}${n}`, streamAnswer(d, n).map((e) => Buffer.from(e))] as [string, Buffer[]])));

function dialectOf(url: string): Dialect {
  if (url.includes('/chat/completions')) return 'openai';
  if (url.includes('/messages')) return 'anthropic';
  if (url.includes('/responses')) return 'responses';
  return 'gemini';
}

const STREAM = Buffer.from('"stream":true');
const server = http.createServer((req, res) => {
  const held = /^\/h(\d+)(\/.*)$/.exec(req.url ?? '');
  const url = held ? held[2]! : (req.url ?? '');
  const holdMs = held ? Number(held[1]) : 0;
  const events = Number(/^\/e(\d+)\//.exec(url)?.[1] ?? 50);
  const dialect = dialectOf(url);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => (holdMs ? setTimeout(answer, holdMs) : answer()));
  const answer = () => {
    // The stream flag: Gemini's method, else `"stream":true` anywhere in the body (JSON.stringify
    // writes no spaces; inside the bench's strings a quote is always escaped).
    const stream = dialect === 'gemini' ? url.includes(':streamGenerateContent') : Buffer.concat(chunks).includes(STREAM);
    if (!stream) {
      const b = json.get(dialect)!;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.byteLength });
      res.end(b);
      return;
    }
    const frames = streams.get(`${dialect}${events}`)!;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let i = 0;
    const next = () => {
      if (res.destroyed) return;
      res.write(frames[i++]!);
      if (i < frames.length) setImmediate(next);
      else res.end();
    };
    next();
  };
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => serveControl((server.address() as AddressInfo).port));
