/**
 * The Node request listener: every request served straight from node:http through the app's one
 * route table (`Proxy.dispatch`) — headers from the IncomingMessage's own record, the body read
 * from the socket, and the flow's `Reply` written with one `writeHead` + `end` (or one `write` per
 * stream chunk, the upstream sockets feeding the caller's). No Web `Request` or `Response` is
 * built on the way, which is most of what a framework adapter costs per request on Node.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Proxy } from '../app.ts';
import type { Reply } from '../flows/reply.ts';
import { queryRecord, type CallerRequest } from '../http/inbound.ts';
import type { ByteStep, Emit, PipeBody } from '../sse/byte-step.ts';
import { readIncoming, readIncomingParts } from './node-client.ts';
import { incomingOf, isNodeResponse } from './node-response.ts';

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

/** A Host header fit to build the request's origin from (anything else: loopback). */
const HOST = /^[A-Za-z0-9.\-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** The IncomingMessage as the app's runtime-neutral request (no response: an upgrade, runtime/node-websocket.ts). */
export function nodeCallerRequest(req: IncomingMessage, res: ServerResponse | undefined): CallerRequest {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const host = req.headers.host;
  return {
    method: req.method ?? 'GET',
    path: q < 0 ? url : url.slice(0, q),
    origin: `http://${host && HOST.test(host) ? host : '127.0.0.1'}`,
    headers: incomingHeaders(req),
    query: q < 0 ? {} : queryRecord(url),
    // The Buffer itself: the flows search it natively and decode it as Node does (chatCallOf).
    bytes: (limit) => readIncoming(req, limit),
    parts: (limit) => readIncomingParts(req, limit),
    text: async (limit) => (await readIncoming(req, limit)).toString('utf8'),
    onGone: (fn) => {
      if (res) onResponseGone(res, fn);
    },
  };
}

/**
 * The routes this listener serves (runtime/node.ts hands it the rest through Hono): the chat
 * routes, the proxy's hot path — POST to Chat Completions, Messages, Responses, Interactions, and
 * a Gemini model's generateContent or streamGenerateContent — and the health probes (`/health`,
 * `HEAD /`), which load balancers send every few seconds. Not token counting, stored answers,
 * model lists or images.
 */
const CHAT_ROUTE = /^\/v1(?:\/chat\/completions|\/messages|\/responses|(?:beta)?\/interactions|(?:beta)?\/models\/[^?]+:(?:stream)?[gG]enerateContent)(?:\?|$)/;

export function isDirectRoute(method: string | undefined, url: string): boolean {
  if (method === 'POST') return CHAT_ROUTE.test(url);
  return ((method === 'GET' || method === 'HEAD') && /^\/health(?:\?|$)/.test(url)) || (method === 'HEAD' && url === '/');
}

export function createNodeListener(proxy: Proxy): RequestListener {
  return (req, res) => {
    proxy.dispatch(nodeCallerRequest(req, res)).then(
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
      pipeReply(body, res);
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
 * A streamed reply: on Node's own client the upstream sockets' data events go through the step
 * straight into the caller's socket; any other upstream body (a Web stream) is read through the
 * same step in a pull loop.
 */
function pipeReply(body: PipeBody, res: ServerResponse): void {
  if (body.upstreams.every(isNodeResponse)) pipeNode(body.upstreams.map((u) => incomingOf(u)!), body.step, res);
  else void pump(body.toStream(), res);
}

/**
 * The upstream sockets through the step into the caller's socket. A slow caller pauses every
 * upstream; a gone caller cancels them; the step's end (done) stops them all.
 */
function pipeNode(ups: IncomingMessage[], step: ByteStep, res: ServerResponse): void {
  let over = false;
  const open = ups.map(() => true);
  // Translated frames come as text: Node encodes them straight into the socket's write.
  const emit: Emit = (chunk) => {
    if (!res.write(chunk)) for (const up of ups) up.pause();
  };
  const onDrain = () => {
    for (const up of ups) up.resume();
  };
  const finish = () => {
    if (over) return;
    over = true;
    res.off('drain', onDrain);
    ups.forEach((up, i) => {
      up.removeAllListeners('data');
      if (open[i]) up.destroy();
    });
    const tail = step.tail?.();
    if (!tail) {
      if (!res.destroyed) res.end();
      return;
    }
    // The last bytes wait for what the step holds them for (a kept answer being stored).
    void tail.then(
      (text) => {
        if (res.destroyed) return;
        if (text) res.write(text);
        res.end();
      },
      () => res.destroy(),
    );
  };
  /** Run a step call; a throw (a bug of ours) ends both sides instead of the process. */
  const guarded = (fn: () => void) => {
    if (over) return;
    try {
      fn();
    } catch {
      over = true;
      step.cancel();
      for (const up of ups) up.destroy();
      res.destroy();
      return;
    }
    if (step.done || open.every((o) => !o)) finish();
  };
  // The step ends the reply on its own at a deadline, whatever the upstream sockets do.
  step.start(() => guarded(() => step.flush(emit)));
  res.on('drain', onDrain);
  ups.forEach((up, lane) => {
    const closeLane = (fn: () => void) => {
      if (!open[lane]) return;
      open[lane] = false;
      guarded(fn);
    };
    up.on('data', (chunk: Buffer) => guarded(() => step.push(lane, chunk, emit)));
    up.once('end', () => closeLane(() => step.end(lane, emit)));
    up.once('error', (e) => closeLane(() => step.fail(lane, e, emit)));
    up.once('close', () => {
      if (!up.complete) closeLane(() => step.fail(lane, new Error('Upstream connection closed before the body was complete.'), emit));
    });
  });
  res.once('close', () => {
    if (over) return;
    over = true;
    step.cancel();
    for (const up of ups) up.destroy();
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
