/**
 * Node fast paths: a pooled keep-alive upstream client on node:http(s) that returns Web
 * `Response`s (undici's global fetch costs several hundred µs more per call on Node 20), and a
 * body reader that takes the raw IncomingMessage instead of going through a Web `Request`.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { ProxyError } from '../canonical/index.ts';
import type { BodyReader } from '../routing/inbound.ts';
import { readBodyViaRequest, tooLarge } from '../routing/inbound.ts';
import type { FetchLike } from '../routing/scope.ts';

const agentOptions = { keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' as const };
const httpAgent = new http.Agent(agentOptions);
const httpsAgent = new https.Agent(agentOptions);

/** Close pooled sockets (graceful shutdown, tests). */
export function closeAgents(): void {
  httpAgent.destroy();
  httpsAgent.destroy();
}

async function bodyOf(body: RequestInit['body'], headers: Record<string, string>): Promise<Buffer | Readable | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // FormData and anything else the Fetch API can encode: let a Response do the encoding.
  const encoded = new Response(body as BodyInit);
  const type = encoded.headers.get('content-type');
  if (type) headers['content-type'] = type;
  return Buffer.from(await encoded.arrayBuffer());
}

export const nodeFetch: FetchLike = async (input, init) => {
  const url = new URL(input);
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  const payload = await bodyOf(init.body, headers);
  if (Buffer.isBuffer(payload)) headers['content-length'] = String(payload.byteLength);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw signal.reason;
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const req = lib.request(url, {
      method: init.method ?? 'GET',
      headers,
      agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
    });
    const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
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
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : e);
    });
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 502;
      const outHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) outHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      res.once('close', () => signal?.removeEventListener('abort', onAbort));
      const nullBody = status === 204 || status === 304 || init.method === 'HEAD';
      const body = nullBody ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
      // `Response` refuses statuses outside 200–599 (e.g. a misbehaving 1xx/6xx upstream).
      if (status < 200 || status > 599) {
        res.destroy();
        reject(new ProxyError('upstream', `Upstream answered with invalid HTTP status ${status}.`));
        return;
      }
      resolve(new Response(body, { status, statusText: res.statusMessage, headers: outHeaders }));
    });
    if (payload instanceof Readable) payload.pipe(req);
    else req.end(payload);
  });
};

/** Read the raw Node request body with a size limit (no Web Request in between). */
export const readNodeBody: BodyReader = (req, limit, incoming) => {
  const msg = incoming as IncomingMessage | undefined;
  if (!msg || typeof msg.on !== 'function' || msg.readableEnded) return readBodyViaRequest(req, limit);
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
};
