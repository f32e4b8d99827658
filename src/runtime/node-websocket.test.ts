import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Proxy, SocketSession } from '../app.ts';
import { FrameReader, OP, acceptKey, closeFrame, encodeFrame, handleUpgrade } from './node-websocket.ts';

/** A client frame: masked, as RFC 6455 §5.3 requires of clients. */
function clientFrame(opcode: number, payload: Buffer, o: { fin?: boolean; rsv?: number; masked?: boolean } = {}): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = (o.fin === false ? 0 : 0x80) | (o.rsv ?? 0) | opcode;
  const maskBit = o.masked === false ? 0 : 0x80;
  if (len < 126) head[1] = maskBit | len;
  else if (len < 65536) {
    head[1] = maskBit | 126;
    head.writeUInt16BE(len, 2);
  } else {
    head[1] = maskBit | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  if (o.masked === false) return Buffer.concat([head, payload]);
  const mask = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i]! ^= mask[i & 3]!;
  return Buffer.concat([head, mask, body]);
}

const text = (s: string, o?: Parameters<typeof clientFrame>[2]) => clientFrame(OP.text, Buffer.from(s), o);

describe('the handshake', () => {
  it('answers the key as RFC 6455 §1.3 shows', () => {
    expect(acceptKey('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });
});

describe('FrameReader', () => {
  it('reads a masked text message, fed whole or a byte at a time', () => {
    const frame = text('{"type":"response.create"} ✓');
    expect(new FrameReader(1024).push(frame)).toEqual([{ type: 'text', text: '{"type":"response.create"} ✓' }]);
    const r = new FrameReader(1024);
    const out = [...frame].flatMap((b) => r.push(Buffer.from([b])));
    expect(out).toEqual([{ type: 'text', text: '{"type":"response.create"} ✓' }]);
  });

  it('reassembles fragments, with a ping between them, and reads 16- and 64-bit lengths', () => {
    const big = 'a'.repeat(70_000);
    const r = new FrameReader(1 << 20);
    const out = r.push(Buffer.concat([text('he', { fin: false }), clientFrame(OP.ping, Buffer.from('p')), clientFrame(OP.continuation, Buffer.from('llo')), text('b'.repeat(300)), text(big)]));
    expect(out).toEqual([{ type: 'ping', data: Buffer.from('p') }, { type: 'text', text: 'hello' }, { type: 'text', text: 'b'.repeat(300) }, { type: 'text', text: big }]);
  });

  it('reads a large message fed in many chunks once it is whole', () => {
    const big = 'z'.repeat(200_000);
    const frame = text(big);
    const r = new FrameReader(1 << 20);
    const out: unknown[] = [];
    for (let at = 0; at < frame.length; at += 1000) {
      const got = r.push(frame.subarray(at, at + 1000));
      if (at + 1000 < frame.length) expect(got).toEqual([]);
      out.push(...got);
    }
    expect(out).toEqual([{ type: 'text', text: big }]);
    // And what follows it in the last chunk is read too.
    expect(r.push(Buffer.concat([text('a'), text('b')]))).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]);
  });

  it('reads a close with its code and reason', () => {
    const p = Buffer.concat([Buffer.from([0x03, 0xe8]), Buffer.from('bye')]);
    expect(new FrameReader(10).push(clientFrame(OP.close, p))).toEqual([{ type: 'close', code: 1000, reason: 'bye' }]);
    expect(new FrameReader(10).push(clientFrame(OP.close, Buffer.alloc(0)))).toEqual([{ type: 'close', reason: '' }]);
  });

  it('refuses a message over the limit from its header, before the payload arrives (1009)', () => {
    const frame = text('x'.repeat(2000));
    expect(new FrameReader(1000).push(frame.subarray(0, 4))).toEqual([{ type: 'fail', code: 1009, reason: 'message exceeds 1000 bytes' }]);
    // Fragments count together.
    const r = new FrameReader(1000);
    expect(r.push(Buffer.concat([text('x'.repeat(600), { fin: false }), clientFrame(OP.continuation, Buffer.from('y'.repeat(600)))]))).toEqual([{ type: 'fail', code: 1009, reason: 'message exceeds 1000 bytes' }]);
  });

  it('fails unmasked frames, reserved bits (no extension negotiated), bad fragments and control frames (1002)', () => {
    const code = (b: Buffer) => (new FrameReader(1 << 16).push(b)[0] as { code?: number } | undefined)?.code;
    expect(code(text('hi', { masked: false }))).toBe(1002);
    expect(code(text('hi', { rsv: 0x40 }))).toBe(1002); // a permessage-deflate frame
    expect(code(clientFrame(OP.continuation, Buffer.from('x')))).toBe(1002);
    expect(code(Buffer.concat([text('a', { fin: false }), text('b')]))).toBe(1002);
    expect(code(clientFrame(OP.ping, Buffer.alloc(126)))).toBe(1002);
    expect(code(clientFrame(OP.ping, Buffer.alloc(1), { fin: false }))).toBe(1002);
    expect(code(clientFrame(0x3, Buffer.alloc(1)))).toBe(1002);
  });

  it('fails text that is not UTF-8 (1007), and reads nothing after a failure', () => {
    const r = new FrameReader(100);
    expect(r.push(clientFrame(OP.text, Buffer.from([0xc3, 0x28])))).toEqual([{ type: 'fail', code: 1007, reason: 'text is not UTF-8' }]);
    expect(r.push(text('later'))).toEqual([]);
  });
});

describe('encodeFrame', () => {
  it('writes unmasked frames with 7-, 16- and 64-bit lengths', () => {
    expect([...encodeFrame(OP.text, Buffer.from('hi'))]).toEqual([0x81, 2, 0x68, 0x69]);
    expect([...encodeFrame(OP.text, Buffer.alloc(126)).subarray(0, 4)]).toEqual([0x81, 126, 0, 126]);
    const big = encodeFrame(OP.text, Buffer.alloc(65536));
    expect(big[1]).toBe(127);
    expect(big.readBigUInt64BE(2)).toBe(65536n);
    expect([...closeFrame(1009, 'too big')]).toEqual([0x88, 9, 0x03, 0xf1, ...Buffer.from('too big')]);
  });
});

describe('handleUpgrade', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  /** A server whose app echoes each message back upper-cased. */
  async function echoServer(): Promise<number> {
    const proxy = {
      openSocket: async () => ({
        maxMessageBytes: 1000,
        accept: (peer: { send(t: string): void }): SocketSession => ({ message: (t) => peer.send(t.toUpperCase()), closed: () => {} }),
      }),
    } as unknown as Proxy;
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.end(`plain ${req.method} ${req.url} ${req.headers.upgrade ?? '-'} ${req.headers.connection ?? '-'} ${body}`));
    });
    server.on('upgrade', (req, socket, head) => handleUpgrade(proxy, server!, req, socket, head, new Set()));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  }

  it('switches protocols, declines permessage-deflate, and serves frames', async () => {
    const port = await echoServer();
    const req = http.get({ port, host: '127.0.0.1', path: '/v1/responses', headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-extensions': 'permessage-deflate; client_max_window_bits' } });
    const [res, socket] = await new Promise<[http.IncomingMessage, import('node:stream').Duplex]>((resolve) => req.on('upgrade', (r, s) => resolve([r, s])));
    expect(res.statusCode).toBe(101);
    expect(res.headers['sec-websocket-accept']).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(res.headers['sec-websocket-extensions']).toBeUndefined();
    const got = new Promise<Buffer>((r) => socket.once('data', r));
    socket.write(text('hello'));
    expect([...(await got)]).toEqual([...encodeFrame(OP.text, Buffer.from('HELLO'))]);
    socket.destroy();
  });

  it("serves a request asking for another protocol (curl's h2c) as the plain request it is, body and all", async () => {
    const port = await echoServer();
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/v1/chat/completions', headers: { connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': 'AAMAAABkAAQCAAAAAAIAAAAA', 'content-type': 'application/json' } });
    req.end('{"model":"m"}');
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    let body = '';
    for await (const c of res) body += c;
    expect(res.statusCode).toBe(200);
    expect(body).toBe('plain POST /v1/chat/completions - - {"model":"m"}');
  });

  it('refuses a request that is no WebSocket handshake with a 400', async () => {
    const port = await echoServer();
    const req = http.get({ port, host: '127.0.0.1', path: '/v1/responses', headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '8', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    expect(res.statusCode).toBe(400);
    expect(res.headers['sec-websocket-version']).toBe('13');
    res.resume();
  });
});
