/**
 * The upstream's answer on Node as a Web `Response` that reads the IncomingMessage directly:
 * headers from Node's own record, the body collected from the socket, a Web stream only when
 * asked for, and the IncomingMessage itself for the Node stream path (`incomingOf`).
 */
import type { IncomingMessage } from 'node:http';

/**
 * Node loads its fetch implementation (undici, ~10 MB resident) on the first touch of
 * `globalThis.Response` or `Headers`: both are linked on the first upstream answer, not at start-up, so an idle server
 * never loads it.
 */
let linked = false;
function linkToResponse(): void {
  linked = true;
  Object.setPrototypeOf(UpstreamResponse.prototype, globalThis.Response.prototype);
  Object.setPrototypeOf(IncomingHeaders.prototype, globalThis.Headers.prototype);
}

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
export class UpstreamResponse {
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
    if (!linked) linkToResponse();
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
      this.#native = new Response(this.#nullBody ? null : this.body, init);
    }
    return this.#native;
  }
}

/** A response of `nodeFetch` whose body nobody has read yet: its IncomingMessage can be piped directly. */
export function isNodeResponse(res: Response): boolean {
  return res instanceof UpstreamResponse && !res.bodyUsed;
}

/** The upstream IncomingMessage behind a `nodeFetch` response whose body nobody has read yet. */
export function incomingOf(res: Response): IncomingMessage | undefined {
  return res instanceof UpstreamResponse ? res.takeIncoming() : undefined;
}

