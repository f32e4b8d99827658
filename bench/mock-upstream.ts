/**
 * The instant mock upstream of the bench: OpenAI Chat, Anthropic Messages and Gemini, JSON and
 * 50-event SSE streams built from the captured fixtures in translators/<dialect>/__fixtures__/.
 * Every reply is prebuilt bytes; a stream writes one event per event-loop turn (setImmediate),
 * as a real upstream flushes one event per token. `node mock.mjs serve TRANSLATORS_DIR/` (forked by bench/run.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveControl } from './control.ts';

export const STREAM_EVENTS = 50;
// The fixtures folder: argv[3] when run from a bundle elsewhere, else next to this file.
const root = process.argv[3] ?? fileURLToPath(new URL('../translators/', import.meta.url));
const fixture = (dialect: string, name: string) => readFileSync(`${root}${dialect}/__fixtures__/${name}`, 'utf8');
const frames = (text: string) => text.split(/\r?\n\r?\n/).filter((f) => f.trim()).map((f) => `${f}\n\n`);

/** head frames, then `middle` frames cycled, then tail frames: STREAM_EVENTS in all. */
function fill(head: string[], middle: string[], tail: string[]): Buffer[] {
  const out = [...head];
  for (let i = 0; out.length < STREAM_EVENTS - tail.length; i++) out.push(middle[i % middle.length]!);
  return [...out, ...tail].map((f) => Buffer.from(f));
}

export function buildReplies() {
  const oa = frames(fixture('openai-chat', 'stream-text-basic.sse'));
  const an = frames(fixture('anthropic', 'stream-text-basic.sse'));
  const gemFinal = JSON.parse(frames(fixture('gemini', 'stream-text-basic.sse'))[0]!.replace(/^data: /, ''));
  const gemMid = structuredClone(gemFinal);
  delete gemMid.candidates[0].finishReason;
  delete gemMid.usageMetadata;
  gemMid.candidates[0].content.parts[0].text = ' token';
  return {
    openai: {
      json: Buffer.from(fixture('openai-chat', 'text-basic.json')),
      stream: fill(oa.slice(0, 1), oa.slice(1, -3), oa.slice(-3)),
    },
    anthropic: {
      json: Buffer.from(fixture('anthropic', 'text-basic.json')),
      stream: fill(an.slice(0, 3), an.filter((f) => f.startsWith('event: content_block_delta')), an.slice(-3)),
    },
    gemini: {
      json: Buffer.from(fixture('gemini', 'system-instruction.json')),
      stream: fill([], [`data: ${JSON.stringify(gemMid)}\n\n`], [`data: ${JSON.stringify(gemFinal)}\n\n`]),
    },
  };
}

function main() {
  const replies = buildReplies();
  const JSON_HEADERS = { 'content-type': 'application/json' };
  const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const r = url.includes('/chat/completions') ? replies.openai : url.includes('/messages') ? replies.anthropic : replies.gemini;
      const stream = url.includes(':') ? url.includes(':streamGenerateContent') : /"stream"\s*:\s*true/.test(body);
      if (!stream) {
        res.writeHead(200, { ...JSON_HEADERS, 'content-length': r.json.byteLength });
        res.end(r.json);
        return;
      }
      res.writeHead(200, SSE_HEADERS);
      let i = 0;
      const next = () => {
        if (res.destroyed) return;
        res.write(r.stream[i++]!);
        if (i < r.stream.length) setImmediate(next);
        else res.end();
      };
      next();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => serveControl((server.address() as AddressInfo).port));
}

if (process.argv[2] === 'serve') main();
