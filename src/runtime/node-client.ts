/**
 * Node fast paths: a pooled keep-alive upstream client on node:http(s) that returns Web
 * `Response`s (undici's global fetch costs several hundred µs more per call on Node 20), and a
 * body reader that takes the raw IncomingMessage instead of going through a Web `Request`.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { ProxyError } from '../canonical/index.ts';
import type { BodyReader } from '../routing/inbound.ts';
import { readBodyViaRequest, tooLarge } from '../routing/inbound.ts';
import type { Cancel, FetchLike } from '../routing/scope.ts';

const agentOptions = { keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' as const };
const httpAgent = new http.Agent(agentOptions);
const httpsAgent = new https.Agent(agentOptions);

/** Close pooled sockets (graceful shutdown, tests). */
export function closeAgents(): void {
  httpAgent.destroy();
  httpsAgent.destroy();
}

/** The request body as bytes: at once for a string or bytes (every JSON call), else encoded. */
function bodyOf(body: RequestInit['body'], headers: Record<string, string>): Buffer | undefined | Promise<Buffer> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
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
  const body = bodyOf(init.body, headers);
  const payload = body instanceof Promise ? await body : body;
  if (Buffer.isBuffer(payload)) headers['content-length'] = String(payload.byteLength);
  // The request's abort: the flow's cheap `cancel`, or a Web signal.
  const cancel = init.cancel ?? (init.signal ? signalCancel(init.signal) : undefined);
  if (cancel?.aborted) throw cancel.reason;
  return new Promise<Response>((resolve, reject) => {
    const options = { hostname: url.hostname, port: url.port, path: url.path, auth: url.auth, method: init.method ?? 'GET', headers };
    const req = url.https ? https.request({ ...options, agent: httpsAgent }) : http.request({ ...options, agent: httpAgent });
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
    req.end(payload);
  });
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

const NativeResponse = globalThis.Response;

/**
 * An upstream response's headers, read from the IncomingMessage's own lowercased record: what a
 * fetch Response's immutable `Headers` does for reading, without copying every header into one
 * (tens of µs per call for undici's Headers).
 */
class IncomingHeaders {
  #h: IncomingMessage['headers'];

  constructor(h: IncomingMessage['headers']) {
    this.#h = h;
  }

  get(name: string): string | null {
    const v = this.#h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }

  has(name: string): boolean {
    return this.#h[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    const v = this.#h['set-cookie'];
    return v === undefined ? [] : Array.isArray(v) ? [...v] : [v];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const k of Object.keys(this.#h).sort()) {
      const v = this.get(k);
      if (v !== null) yield [k, v];
    }
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }

  forEach(fn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this as unknown as Headers);
  }

  append(): never {
    throw new TypeError('immutable');
  }

  set(): never {
    throw new TypeError('immutable');
  }

  delete(): never {
    throw new TypeError('immutable');
  }
}
Object.setPrototypeOf(IncomingHeaders.prototype, Headers.prototype);

/**
 * The IncomingMessage as a byte stream: each socket read is enqueued as it arrives (so every SSE
 * event goes on at once), the socket is paused while the reader is 64 KiB behind, and cancelling
 * the stream destroys the upstream request. Lighter than Readable.toWeb per chunk.
 */
function webStreamOf(res: IncomingMessage): ReadableStream<Uint8Array> {
  let paused = false;
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (e: Error) => {
          if (settled) return;
          settled = true;
          controller.error(e);
        };
        res.on('data', (c: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
          if (!paused && (controller.desiredSize ?? 1) <= 0) {
            paused = true;
            res.pause();
          }
        });
        res.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        res.once('error', fail);
        res.once('close', () => {
          if (!res.complete) fail(new Error('Upstream connection closed before the body was complete.'));
        });
      },
      pull() {
        if (paused) {
          paused = false;
          res.resume();
        }
      },
      cancel() {
        settled = true;
        res.destroy();
      },
    },
    { highWaterMark: 65536, size: (c) => c.byteLength },
  );
}

/**
 * The upstream's answer as a `Response` that reads the IncomingMessage directly: `text()`,
 * `json()` and `arrayBuffer()` collect its Buffers, `headers` is built on first use, and `body`
 * becomes a Web stream only when asked for (streams). Anything else (`clone()`, `blob()`, `url`…)
 * goes through a real Response made on demand. Each of these costs tens of µs per call when every
 * upstream answer goes through Readable.toWeb + undici's Response.
 */
class UpstreamResponse {
  readonly status: number;
  readonly statusText: string;
  #res: IncomingMessage;
  #nullBody: boolean;
  #headers?: Headers;
  #body?: ReadableStream<Uint8Array> | null;
  #native?: Response;
  #used = false;

  constructor(res: IncomingMessage, status: number, nullBody: boolean) {
    this.#res = res;
    this.status = status;
    this.statusText = res.statusMessage ?? '';
    this.#nullBody = nullBody;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get headers(): Headers {
    return (this.#headers ??= new IncomingHeaders(this.#res.headers) as unknown as Headers);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) this.#body = this.#nullBody ? null : webStreamOf(this.#res);
    return this.#body;
  }

  /** The IncomingMessage itself, for a runtime that reads it directly (once, instead of `body`). */
  takeIncoming(): IncomingMessage | undefined {
    if (this.#used || this.#body !== undefined || this.#nullBody) return undefined;
    this.#used = true;
    return this.#res;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#body?.locked ?? false);
  }

  /** The whole body as one Buffer, straight from the socket. */
  #buffer(): Promise<Buffer> {
    if (this.#used || this.#body !== undefined) return this.#viaNative().arrayBuffer().then((b) => Buffer.from(b));
    this.#used = true;
    const res = this.#res;
    if (this.#nullBody) return Promise.resolve(Buffer.alloc(0));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      res.once('error', reject);
      res.once('close', () => {
        if (!res.complete) reject(new Error('Upstream connection closed before the body was complete.'));
      });
    });
  }

  async text(): Promise<string> {
    const text = (await this.#buffer()).toString('utf8');
    // As Response.text(): a UTF-8 byte order mark is not part of the text.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.#buffer();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.#buffer());
  }

  get redirected(): boolean {
    return false;
  }

  get type(): ResponseType {
    return 'basic';
  }

  get url(): string {
    return this.#viaNative().url;
  }

  blob(): Promise<Blob> {
    return this.#viaNative().blob();
  }

  formData(): Promise<FormData> {
    return this.#viaNative().formData();
  }

  clone(): Response {
    return this.#viaNative().clone();
  }

  #viaNative(): Response {
    if (!this.#native) {
      const init = { status: this.status, statusText: this.statusText, headers: this.headers };
      this.#native = new NativeResponse(this.#nullBody ? null : this.body, init);
    }
    return this.#native;
  }
}
Object.setPrototypeOf(UpstreamResponse.prototype, NativeResponse.prototype);

/** The upstream IncomingMessage behind a `nodeFetch` response whose body nobody has read yet. */
export function incomingOf(res: Response): IncomingMessage | undefined {
  return res instanceof UpstreamResponse ? res.takeIncoming() : undefined;
}

/** Read the raw Node request body with a size limit (no Web Request in between). */
export const readNodeBody: BodyReader = (req, limit, incoming) => {
  const msg = incoming as IncomingMessage | undefined;
  if (!msg || typeof msg.on !== 'function' || msg.readableEnded) return readBodyViaRequest(req, limit);
  return readIncoming(msg, limit);
};

/** The IncomingMessage's body as text, refused past `limit` bytes (declared or read). */
export function readIncoming(msg: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(msg.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    msg.on('data', (c: Buffer) => {
      size += c.byteLength;
      if (size > limit) {
        msg.removeAllListeners('data');
        msg.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(c);
    });
    msg.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    msg.once('error', reject);
  });
}
