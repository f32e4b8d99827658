/**
 * WebSocket on node:http (RFC 6455), server side, for the Responses socket: the handshake from
 * the `upgrade` event, a frame reader (masked client frames, fragments reassembled, control
 * frames between them, a message size limit checked from the frame headers before anything is
 * buffered, UTF-8 checked) and frame writing. No extension is negotiated: permessage-deflate
 * offers (Codex, the `ws` package) are declined by not naming it in the answer (RFC 7692 §5), and
 * a frame with a reserved bit set is then a protocol error.
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Proxy } from '../app.ts';
import type { Reply } from '../flows/reply.ts';
import { nodeCallerRequest } from './node-server.ts';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** How often an open socket is pinged (clients answer with a pong, RFC 6455 §5.5.2). */
const PING_EVERY_MS = 30_000;

/** `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key` (RFC 6455 §4.2.2). */
export function acceptKey(key: string): string {
  return createHash('sha1').update(key + GUID).digest('base64');
}

export const OP = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

/** What the reader makes of the bytes so far. */
export type FrameEvent =
  | { type: 'text'; text: string }
  | { type: 'binary' }
  | { type: 'ping'; data: Buffer }
  | { type: 'pong' }
  | { type: 'close'; code?: number; reason: string }
  /** The peer broke the protocol (1002), sent bad UTF-8 (1007), or too big a message (1009): close with `code`. */
  | { type: 'fail'; code: number; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Client frames in, events out; after a `fail` it reads nothing more. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);
  /** Chunks of a frame not yet whole, joined once it is (not once per chunk). */
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  /** The bytes the frame at the head of `buf` needs in all (0: not known yet). */
  private need = 0;
  private parts: Buffer[] = [];
  private partBytes = 0;
  private opcode = -1;
  private failed = false;

  constructor(private readonly maxMessageBytes: number) {}

  push(chunk: Buffer): FrameEvent[] {
    if (this.failed) return [];
    if (this.buf.length + this.waitingBytes + chunk.length < this.need) {
      this.waiting.push(chunk);
      this.waitingBytes += chunk.length;
      return [];
    }
    this.buf = this.buf.length || this.waiting.length ? Buffer.concat([this.buf, ...this.waiting, chunk]) : chunk;
    this.waiting = [];
    this.waitingBytes = 0;
    this.need = 0;
    const out: FrameEvent[] = [];
    for (;;) {
      const e = this.next();
      if (!e) break;
      if (e !== true) out.push(e);
      if (e !== true && e.type === 'fail') {
        this.failed = true;
        break;
      }
    }
    return out;
  }

  private fail(code: number, reason: string): FrameEvent {
    return { type: 'fail', code, reason };
  }

  /** One frame off the buffer: its event, `true` for a fragment that completes nothing, undefined when incomplete. */
  private next(): FrameEvent | true | undefined {
    const b = this.buf;
    if (b.length < 2) return undefined;
    const fin = (b[0]! & 0x80) !== 0;
    const opcode = b[0]! & 0x0f;
    if (b[0]! & 0x70) return this.fail(1002, 'reserved bits set (no extension was negotiated)');
    if ((b[1]! & 0x80) === 0) return this.fail(1002, 'client frames must be masked');
    let len = b[1]! & 0x7f;
    let at = 2;
    if (len === 126) {
      if (b.length < 4) return undefined;
      len = b.readUInt16BE(2);
      at = 4;
    } else if (len === 127) {
      if (b.length < 10) return undefined;
      const big = b.readBigUInt64BE(2);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) return this.fail(1009, 'frame too large');
      len = Number(big);
      at = 10;
    }
    const control = opcode >= 8;
    if (control && (len > 125 || !fin)) return this.fail(1002, 'bad control frame');
    if (!control && this.partBytes + len > this.maxMessageBytes) return this.fail(1009, `message exceeds ${this.maxMessageBytes} bytes`);
    if (b.length < at + 4 + len) {
      this.need = at + 4 + len;
      return undefined;
    }
    const mask = b.subarray(at, at + 4);
    const payload = Buffer.from(b.subarray(at + 4, at + 4 + len));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
    this.buf = b.subarray(at + 4 + len);

    switch (opcode) {
      case OP.ping:
        return { type: 'ping', data: payload };
      case OP.pong:
        return { type: 'pong' };
      case OP.close: {
        if (payload.length === 1) return this.fail(1002, 'bad close payload');
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : undefined;
        return { type: 'close', ...(code !== undefined && { code }), reason: payload.subarray(2).toString('utf8') };
      }
      case OP.text:
      case OP.binary:
        if (this.opcode !== -1) return this.fail(1002, 'a new message inside a fragmented one');
        this.opcode = opcode;
        break;
      case OP.continuation:
        if (this.opcode === -1) return this.fail(1002, 'a continuation with no message');
        break;
      default:
        return this.fail(1002, `unknown opcode ${opcode}`);
    }
    this.parts.push(payload);
    this.partBytes += payload.length;
    if (!fin) return true;
    const whole = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    const op = this.opcode;
    this.parts = [];
    this.partBytes = 0;
    this.opcode = -1;
    if (op === OP.binary) return { type: 'binary' };
    try {
      return { type: 'text', text: utf8.decode(whole) };
    } catch {
      return this.fail(1007, 'text is not UTF-8');
    }
  }
}

/** One unmasked server frame. */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (len < 126) head[1] = len;
  else if (len < 65536) {
    head[1] = 126;
    head.writeUInt16BE(len, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([head, payload]);
}

export function closeFrame(code: number, reason: string): Buffer {
  const r = Buffer.from(reason.slice(0, 120), 'utf8').subarray(0, 123);
  const p = Buffer.alloc(2 + r.length);
  p.writeUInt16BE(code, 0);
  r.copy(p, 2);
  return encodeFrame(OP.close, p);
}

/** A refused upgrade: the reply as a plain HTTP/1.1 response, then the socket ends. */
function writeRefusal(socket: Duplex, reply: Reply): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body instanceof Uint8Array ? Buffer.from(reply.body) : Buffer.alloc(0);
  const head = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`];
  for (const [k, v] of Object.entries(reply.headers)) if (k !== 'content-length' && k !== 'connection') head.push(`${k}: ${v}`);
  head.push(`content-length: ${body.length}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(head.join('\r\n'), 'latin1'), body]));
}

/** Whether the request asks for a WebSocket (RFC 6455 §4.2.1), the key it sends if so. */
function websocketKey(req: IncomingMessage): string | undefined {
  const h = req.headers;
  const upgrade = (h.upgrade ?? '').toLowerCase().split(',').map((s) => s.trim());
  const key = h['sec-websocket-key'];
  if (req.method !== 'GET' || !upgrade.includes('websocket') || typeof key !== 'string' || !/^[A-Za-z0-9+/]{22}==$/.test(key)) return undefined;
  return h['sec-websocket-version'] === '13' ? key : undefined;
}

/**
 * Node hands every request with an `Upgrade` header to the `upgrade` listener once there is one,
 * and leaves its body unread: a request asking for another protocol (curl's `--http2` sends
 * `Upgrade: h2c` on a POST) is given back to the server as the plain HTTP/1.1 request it also is,
 * its head written again without the upgrade and parsed anew on the same connection.
 */
function asPlainRequest(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (lower === 'upgrade' || lower === 'http2-settings') continue;
    let value = raw[i + 1]!;
    if (lower === 'connection') {
      value = value.split(',').map((t) => t.trim()).filter((t) => t && !/^(?:upgrade|http2-settings)$/i.test(t)).join(', ');
      if (!value) continue;
    }
    lines.push(`${name}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}

/**
 * Serve an `upgrade` event: a Responses socket when the app accepts it, else the app's reply
 * (a 401 for a wrong key, a 404 for another path, a 400 for a WebSocket handshake that is not
 * one); a request that asks for another protocol is served as a plain request. `track` is told
 * of every open socket, to close them when the server stops.
 */
export function handleUpgrade(proxy: Proxy, server: Server, req: IncomingMessage, socket: Duplex, head: Buffer, track: Set<() => void>): void {
  const tokens = (req.headers.upgrade ?? '').toLowerCase().split(',').map((s) => s.trim());
  if (req.method !== 'GET' || !tokens.includes('websocket')) return asPlainRequest(server, req, socket, head);
  socket.on('error', () => socket.destroy());
  const key = websocketKey(req);
  const caller = nodeCallerRequest(req, undefined);
  void proxy.openSocket(caller).then(
    (opening) => {
      if ('refused' in opening) return writeRefusal(socket, opening.refused);
      if (!key) {
        const body = JSON.stringify({ error: { message: 'Expected a WebSocket handshake (Upgrade: websocket, Sec-WebSocket-Version: 13, a Sec-WebSocket-Key).', type: 'invalid_request_error', param: null, code: 'bad_handshake' } });
        return writeRefusal(socket, { status: 400, headers: { 'content-type': 'application/json', 'sec-websocket-version': '13' }, body });
      }
      if (socket.destroyed) return;
      (socket as Duplex & { setNoDelay?: (on: boolean) => void; setTimeout?: (ms: number) => void }).setNoDelay?.(true);
      (socket as Duplex & { setTimeout?: (ms: number) => void }).setTimeout?.(0);
      socket.write(['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${acceptKey(key)}`, '', ''].join('\r\n'));
      serveSocket(socket, head, opening, track);
    },
    () => writeRefusal(socket, { status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"Internal proxy error.","type":"server_error","param":null,"code":null}}' }),
  );
}

/** Settles when the socket has written what it holds, or is gone. */
function drain(socket: Duplex): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

function serveSocket(socket: Duplex, head: Buffer, opening: Extract<Awaited<ReturnType<Proxy['openSocket']>>, { accept: unknown }>, track: Set<() => void>): void {
  const reader = new FrameReader(opening.maxMessageBytes);
  let closing = false;
  const shut = (code: number, reason: string) => {
    if (closing) return;
    closing = true;
    if (socket.writable) socket.end(closeFrame(code, reason));
    // A peer that never answers the close: the connection goes at the latest after a moment.
    setTimeout(() => socket.destroy(), 2000).unref();
  };
  const session = opening.accept({
    send: (text) => {
      if (!closing && socket.writable) socket.write(encodeFrame(OP.text, Buffer.from(text, 'utf8')));
    },
    close: shut,
    // Backpressure: a caller that reads slowly holds the upstream stream, not this process's memory.
    drained: () => (socket.writableNeedDrain && !socket.destroyed ? drain(socket) : undefined),
  });
  const stop = () => shut(1001, 'server shutting down');
  track.add(stop);
  // A ping now and then keeps an idle socket open through proxies and load balancers that drop quiet connections.
  const pinger = setInterval(() => {
    if (!closing && socket.writable) socket.write(encodeFrame(OP.ping, Buffer.alloc(0)));
  }, PING_EVERY_MS);
  pinger.unref();
  socket.on('close', () => {
    clearInterval(pinger);
    track.delete(stop);
    session.closed();
  });
  // node:http sockets are half-open capable: a peer that ends without a close frame is gone too.
  socket.on('end', () => {
    session.closed();
    socket.end();
  });
  const feed = (chunk: Buffer) => {
    for (const e of reader.push(chunk)) {
      if (e.type === 'text') session.message(e.text);
      else if (e.type === 'ping') socket.write(encodeFrame(OP.pong, e.data));
      else if (e.type === 'binary') shut(1003, 'only text messages are taken');
      else if (e.type === 'close') {
        session.closed();
        // The peer's code echoed (RFC 6455 §5.5.1), unless it is one no frame may carry.
        const code = e.code;
        shut(code !== undefined && code >= 1000 && code < 5000 && ![1004, 1005, 1006, 1015].includes(code) ? code : 1000, '');
      } else if (e.type === 'fail') {
        session.closed();
        shut(e.code, e.reason);
      }
    }
  };
  socket.on('data', feed);
  if (head.length) feed(head);
}
