/**
 * The Node request listener. The hot routes (chat completions, messages, Gemini generate/stream)
 * are served straight from node:http: headers from the IncomingMessage's own record, the body read
 * from the socket, and the flow's `Reply` written with one `writeHead` + `end` (or one `write` per
 * stream chunk). No Web `Request` or `Response` is built on the way, which is most of what a
 * framework adapter costs per request on Node. Every other route goes to the Hono app through
 * @hono/node-server, so the answers are the same either way.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Proxy } from '../app.ts';
import { queryRecord } from '../routing/inbound.ts';
import type { Reply } from '../routing/respond.ts';
import type { CallerRequest } from '../routing/serve.ts';
import { PipeBody, type ByteStep, type Emit } from '../routing/pipe.ts';
import { readIncoming } from './node-client.ts';
import { incomingOf } from './node-response.ts';

/**
 * The IncomingMessage's own lowercased header object (Node already joins repeated headers with
 * `, `); only the rare array values (set-cookie) are joined here. No `Headers` is built.
 */
export function incomingHeaders(msg: IncomingMessage): Record<string, string> {
  const h = msg.headers;
  for (const k in h) {
    if (Array.isArray(h[k])) {
      const out: Record<string, string> = {};
      for (const [name, v] of Object.entries(h)) if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : v;
      return out;
    }
  }
  return h as Record<string, string>;
}

/** Call `fn` when the caller's connection goes away before the response is complete. */
export function onResponseGone(res: ServerResponse, fn: () => void): void {
  res.once('close', () => {
    if (!res.writableFinished) fn();
  });
}

export function createNodeListener(proxy: Proxy): RequestListener {
  const viaHono = getRequestListener(proxy.app.fetch);
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const route = proxy.fastRoute(req.method ?? 'GET', path);
    if (!route) return void viaHono(req, res);
    const caller: CallerRequest = {
      method: 'POST',
      path,
      headers: incomingHeaders(req),
      query: q < 0 ? {} : queryRecord(url),
      text: (limit) => readIncoming(req, limit),
      onGone: (fn) => onResponseGone(res, fn),
    };
    route(caller).then(
      (reply) => writeReply(res, reply),
      () => failed(res),
    );
  };
}

/** Write a flow's reply: one writeHead + end for a body in hand, or the stream chunk by chunk. */
export function writeReply(res: ServerResponse, reply: Reply): void {
  const { status, headers, body } = reply;
  try {
    if (body === null) {
      res.writeHead(status, headers);
      res.end();
    } else if (typeof body === 'string' || body instanceof Uint8Array) {
      headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      res.writeHead(status, headers);
      res.end(body);
    } else {
      res.writeHead(status, headers);
      flushHeadersSoon(res);
      const incoming = body instanceof PipeBody ? incomingOf(body.upstream) : undefined;
      if (incoming) pipeNode(incoming, (body as PipeBody).step, res);
      else void pump(body instanceof PipeBody ? body.toStream() : body, res);
    }
  } catch {
    // A header Node refuses (a bug of ours): never a stack trace to the caller.
    failed(res);
  }
}

/**
 * A stream's headers go out with its first event, in one write (one packet, one wake-up of the
 * caller) as a byte-forwarding proxy would send them; if no event comes within
 * HEADERS_ALONE_AFTER_MS, they go out alone, so the caller sees the status while the model thinks.
 */
const HEADERS_ALONE_AFTER_MS = 20;

function flushHeadersSoon(res: ServerResponse): void {
  const timer = setTimeout(() => {
    // (`headersSent` is already true after writeHead; flushing headers already on the wire is a no-op.)
    if (!res.writableEnded && !res.destroyed) res.flushHeaders();
  }, HEADERS_ALONE_AFTER_MS);
  const clear = () => clearTimeout(timer);
  // `prefinish`/`close` end the wait at the latest; the first write sends the headers anyway.
  res.once('close', clear);
  res.once('prefinish', clear);
}

function failed(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: { message: 'Internal proxy error.', type: 'server_error' } }));
}

/**
 * A streamed reply on Node: the upstream socket's data events through the step straight into the
 * caller's socket. A slow caller pauses the upstream; a gone caller cancels it.
 */
function pipeNode(up: IncomingMessage, step: ByteStep, res: ServerResponse): void {
  let over = false;
  // Translated frames come as text: Node encodes them straight into the socket's write.
  const emit: Emit = (chunk) => {
    if (!res.write(chunk)) up.pause();
  };
  const onDrain = () => up.resume();
  const finish = () => {
    if (over) return;
    over = true;
    up.off('data', onData);
    res.off('drain', onDrain);
    if (!res.destroyed) res.end();
  };
  /** Run a step call; a throw (a bug of ours) ends both sides instead of the process. */
  const guarded = (fn: () => void) => {
    try {
      fn();
    } catch {
      over = true;
      step.cancel();
      up.destroy();
      res.destroy();
    }
  };
  const onData = (chunk: Buffer) =>
    guarded(() => {
      step.push(chunk, emit);
      if (step.stopped) {
        finish();
        up.destroy();
      }
    });
  const ended = (fn: () => void) => () => {
    if (over) return;
    guarded(fn);
    finish();
  };
  step.start();
  up.on('data', onData);
  res.on('drain', onDrain);
  up.once('end', ended(() => step.end(emit)));
  up.once('error', (e) => ended(() => step.fail(e, emit))());
  up.once('close', () => {
    if (!up.complete) ended(() => step.fail(new Error('Upstream connection closed before the body was complete.'), emit))();
  });
  res.once('close', () => {
    if (over) return;
    over = true;
    step.cancel();
    up.destroy();
  });
}

/** Each chunk goes out as it comes; a slow caller pauses the stream; a gone caller cancels it. */
async function pump(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  let drained: (() => void) | undefined;
  const onDrain = () => drained?.();
  const onClose = () => {
    drained?.();
    if (!res.writableFinished) reader.cancel().catch(() => {});
  };
  res.on('drain', onDrain);
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) {
        void reader.cancel().catch(() => {});
        break;
      }
      if (!res.write(value)) await new Promise<void>((r) => (drained = r));
      drained = undefined;
    }
    if (!res.destroyed) res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('drain', onDrain);
    res.off('close', onClose);
  }
}
