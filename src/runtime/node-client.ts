/**
 * Node fast paths: a pooled keep-alive upstream client on node:http(s) that returns Web
 * `Response`s (undici's global fetch costs several hundred µs more per call on Node 20), and a
 * body reader that takes the raw IncomingMessage instead of going through a Web `Request`.
 */
import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { ByteParts } from '../kit/index.ts';
import { ProxyError } from '../canonical/index.ts';
import type { Cancel, FetchLike } from '../kit/index.ts';
import { tooLarge } from '../http/inbound.ts';
import { UpstreamResponse } from './node-response.ts';

const agentOptions = { keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' as const };
const httpAgent = new http.Agent(agentOptions);
/**
 * Connections to pinned addresses (the guarded fetcher's) have pools of their own: a socket made
 * for an unchecked lookup is never reused for a checked fetch, nor the other way round.
 */
const pinnedHttpAgent = new http.Agent({ ...agentOptions, maxSockets: 64 });

/**
 * node:https (TLS, OpenSSL's state: ~1.5 MB resident) is loaded with the first HTTPS upstream
 * call, not at start-up: an idle server, or one whose upstreams are all local HTTP, never needs it.
 */
let tls: { https: typeof https; agent: https.Agent; pinned: https.Agent } | undefined;
function httpsClient(): NonNullable<typeof tls> {
  if (!tls) {
    const mod = createRequire(import.meta.url)('node:https') as typeof https;
    tls = { https: mod, agent: new mod.Agent(agentOptions), pinned: new mod.Agent({ ...agentOptions, maxSockets: 64 }) };
  }
  return tls;
}

/** Close pooled sockets (graceful shutdown, tests). */
export function closeAgents(): void {
  for (const a of [httpAgent, pinnedHttpAgent, tls?.agent, tls?.pinned]) a?.destroy();
}

/**
 * The request body as bytes: at once for a string or bytes (every JSON call) or parts (a renamed
 * forwarded body, written piece by piece), else encoded.
 */
function bodyOf(body: RequestInit['body'] | ByteParts, headers: Record<string, string>): Buffer | ByteParts | undefined | Promise<Buffer> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ByteParts) return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return encodedBody(body, headers);
}

async function encodedBody(body: NonNullable<RequestInit['body']>, headers: Record<string, string>): Promise<Buffer> {
  // FormData and anything else the Fetch API can encode: let a Response do the encoding.
  const encoded = new Response(body as BodyInit);
  const type = encoded.headers.get('content-type');
  if (type) headers['content-type'] = type;
  return Buffer.from(await encoded.arrayBuffer());
}

export const nodeFetch: FetchLike = async (input, init) => {
  return nodeRequest(input, init);
};
nodeFetch.handlesTimeouts = true;
nodeFetch.takesByteParts = true;

interface Target {
  https: boolean;
  hostname: string;
  port?: number;
  path: string;
  auth?: string;
}

/** Parsed upstream URLs: a proxy calls the same few URLs again and again. */
const targets = new Map<string, Target>();

function targetOf(input: string): Target {
  let t = targets.get(input);
  if (t) return t;
  const url = new URL(input);
  const host = url.hostname;
  t = {
    https: url.protocol === 'https:',
    hostname: host.startsWith('[') ? host.slice(1, -1) : host,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname + url.search,
    auth: url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
  };
  if (targets.size >= 256) targets.clear();
  targets.set(input, t);
  return t;
}

async function nodeRequest(input: string, init: Parameters<FetchLike>[1]): Promise<Response> {
  const url = targetOf(input);
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  const body = bodyOf(init.body as RequestInit['body'] | ByteParts, headers);
  const payload = body instanceof Promise ? await body : body;
  if (payload) headers['content-length'] = String(payload.byteLength);
  // The request's abort: the flow's cheap `cancel`, or a Web signal.
  const cancel = init.cancel ?? (init.signal ? signalCancel(init.signal) : undefined);
  if (cancel?.aborted) throw cancel.reason;
  return new Promise<Response>((resolve, reject) => {
    const pinned = init.pinnedAddress;
    const agent = url.https ? (pinned ? httpsClient().pinned : httpsClient().agent) : pinned ? pinnedHttpAgent : httpAgent;
    // One literal, not `{ ...options, agent }`: on Node 20 a spread with a property added makes a
    // new hidden class every call, and Node's client reads the options through megamorphic ICs.
    const options: http.RequestOptions = { hostname: url.hostname, port: url.port, path: url.path, auth: url.auth, method: init.method ?? 'GET', headers, agent };
    // The guarded fetcher checked this address: connect to it, not to a second DNS answer.
    if (pinned) options.lookup = (_host, opts, cb) => pinnedLookup(pinned, opts, cb);
    const req = url.https ? httpsClient().https.request(options) : http.request(options);
    const onAbort = () => req.destroy(cancel?.reason instanceof Error ? cancel.reason : new Error('aborted'));
    if (init.connectTimeoutMs) {
      const limit = init.connectTimeoutMs;
      req.once('socket', (socket) => {
        // A pooled socket is already connected; a fresh one gets `limit` ms to connect.
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => req.destroy(new ProxyError('timeout', `Could not connect to the upstream within ${limit} ms.`)),
          limit,
        );
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
    }
    const firstByte = init.firstByteTimeoutMs;
    const firstByteTimer =
      firstByte === undefined
        ? undefined
        : setTimeout(() => req.destroy(new ProxyError('timeout', `Upstream did not answer within ${firstByte} ms.`)), firstByte);
    const off = cancel?.onAbort(onAbort);
    req.on('error', (e) => {
      clearTimeout(firstByteTimer);
      off?.();
      reject(cancel?.aborted ? cancel.reason : e);
    });
    req.on('response', (res: IncomingMessage) => {
      clearTimeout(firstByteTimer);
      const status = res.statusCode ?? 502;
      if (off) res.once('close', off);
      // `Response` refuses statuses outside 200–599 (e.g. a misbehaving 1xx/6xx upstream).
      if (status < 200 || status > 599) {
        res.destroy();
        reject(new ProxyError('upstream', `Upstream answered with invalid HTTP status ${status}.`));
        return;
      }
      const nullBody = status === 204 || status === 304 || init.method === 'HEAD';
      resolve(new UpstreamResponse(res, status, nullBody) as unknown as Response);
    });
    if (payload instanceof ByteParts) {
      // Written before the socket is assigned, the pieces go out together (one writev), uncopied.
      for (const p of payload.parts) if (p.byteLength > 0) req.write(p);
      req.end();
    } else req.end(payload);
  });
}

/** A `dns.lookup` that always answers the one address given, in the shape the caller asked for. */
function pinnedLookup(address: string, opts: { all?: boolean }, cb: (...args: any[]) => void): void {
  const family = isIP(address);
  if (opts.all) cb(null, [{ address, family }]);
  else cb(null, address, family);
}

function signalCancel(signal: AbortSignal): Cancel {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason;
    },
    onAbort(fn) {
      signal.addEventListener('abort', fn, { once: true });
      return () => signal.removeEventListener('abort', fn);
    },
  };
}

/**
 * Each chunk of the IncomingMessage's body to `take` (with where it starts and the declared
 * length), refused past `limit` bytes, declared or read; then `done(size)`.
 */
function readChunks<T>(msg: IncomingMessage, limit: number, take: (c: Buffer, at: number, declared: number) => void, done: (size: number) => T): Promise<T> {
  const declared = Number(msg.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    let size = 0;
    const onData = (c: Buffer) => {
      const at = size;
      size += c.byteLength;
      if (size > limit) {
        msg.removeAllListeners('data');
        msg.resume();
        reject(tooLarge(limit));
        return;
      }
      take(c, at, declared);
    };
    msg.on('data', onData);
    msg.once('end', () => {
      // These listeners (their closures hold what `take` gathered, and this promise with the body)
      // would live as long as the IncomingMessage, to the end of the response: the body is let go
      // of when the flow lets go of it.
      msg.removeListener('data', onData);
      msg.removeListener('error', reject);
      resolve(done(size));
    });
    msg.once('error', reject);
  });
}

/**
 * The IncomingMessage's body as the chunks it came in, refused past `limit` bytes: nothing is
 * copied (one chunk is that chunk; more are `ByteParts`). For bodies read only piece by piece or
 * through `flatBytes` (src/kit/http.ts), which copies into a buffer it reuses rather than
 * one allocated per request.
 */
export function readIncomingParts(msg: IncomingMessage, limit: number): Promise<Buffer | ByteParts> {
  const chunks: Buffer[] = [];
  return readChunks(
    msg,
    limit,
    (c) => chunks.push(c),
    () => (chunks.length === 0 ? Buffer.alloc(0) : chunks.length === 1 ? chunks[0]! : new ByteParts(chunks)),
  );
}

/**
 * The IncomingMessage's body as one Buffer, refused past `limit` bytes (declared or read). A body
 * that comes in one chunk is that chunk; a longer one with a declared length is copied, chunk by
 * chunk as they come, into one buffer of that length, so each socket chunk can be collected at
 * once: the body is held once while it arrives, not as its chunks and then their concatenation too.
 */
export function readIncoming(msg: IncomingMessage, limit: number): Promise<Buffer> {
  let first: Buffer | undefined;
  let body: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  const take = (c: Buffer, at: number, declared: number) => {
    const size = at + c.byteLength;
    if (at === 0) first = c;
    else if (body || (!chunks && size <= declared)) {
      if (!body) {
        body = Buffer.allocUnsafe(declared);
        first!.copy(body, 0);
        first = undefined;
      }
      if (size <= declared) c.copy(body, at);
      else {
        // More than declared (Node's parser stops that; kept whole all the same).
        chunks = [body.subarray(0, at), c];
        body = undefined;
      }
    } else (chunks ??= [first!]).push(c);
  };
  return readChunks(msg, limit, take, (size) => (body ? body.subarray(0, size) : chunks ? Buffer.concat(chunks, size) : (first ?? Buffer.alloc(0))));
}
