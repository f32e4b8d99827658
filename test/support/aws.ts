/**
 * AWS pieces for tests and the Bedrock mock, written from the specifications and independent of
 * the code under test: an event-stream frame encoder, Bedrock's `chunk`/exception frames, and a
 * SigV4 verifier that recomputes a signature the way the service does, from the request as it
 * arrived (its raw path, each segment URI-encoded once more).
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 */
import { createHash, createHmac } from 'node:crypto';
import { crc32 } from '../../src/upstream/providers/event-stream.ts';

export const EVENTSTREAM_TYPE = 'application/vnd.amazon.eventstream';

const enc = new TextEncoder();

/** One event-stream message with string headers (type 7). */
export function encodeFrame(headers: Record<string, string>, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === 'string' ? enc.encode(payload) : payload;
  const parts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = enc.encode(name);
    const v = enc.encode(value);
    const h = new Uint8Array(4 + n.length + v.length);
    h[0] = n.length;
    h.set(n, 1);
    h[1 + n.length] = 7;
    new DataView(h.buffer).setUint16(2 + n.length, v.length);
    h.set(v, 4 + n.length);
    parts.push(h);
  }
  const headersLength = parts.reduce((s, p) => s + p.length, 0);
  const total = 16 + headersLength + body.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out, 0, 8));
  let at = 12;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set(body, at);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}

/** A Bedrock `chunk` event carrying one Anthropic stream event (with the `p` padding field Bedrock adds). */
export function chunkFrame(event: unknown): Uint8Array {
  const json = typeof event === 'string' ? event : JSON.stringify(event);
  const bytes = Buffer.from(json, 'utf8').toString('base64');
  return encodeFrame(
    { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
    JSON.stringify({ bytes, p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123' }),
  );
}

/** A Bedrock exception message (`:exception-type` is the lowerCamel member name, e.g. `throttlingException`). */
export function exceptionFrame(type: string, message: string): Uint8Array {
  return encodeFrame({ ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' }, JSON.stringify({ message }));
}

/** The SSE events of an Anthropic fixture as Bedrock streams them. */
export function framesOfSse(text: string): Uint8Array[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n'))
    .filter((data) => data.length > 0)
    .map((data) => chunkFrame(data));
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---- SigV4 verification -------------------------------------------------------------------

export interface VerifiableRequest {
  method: string;
  /** The request target as received: raw path and query (`/model/x%3A0/invoke?a=b`). */
  target: string;
  /** Header names in any case; repeated headers as arrays. */
  headers: Record<string, string | string[] | undefined>;
  body: string | Uint8Array;
}

export interface VerifyOptions {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
  /** Remove `.`/`..` segments and empty segments (every service but S3). */
  normalize?: boolean;
}

export type VerifyResult = { ok: true; canonicalRequest: string } | { ok: false; reason: string; canonicalRequest?: string };

/** RFC 3986 unreserved characters stay, every other UTF-8 byte becomes `%XX` (upper case). */
export function uriEncode(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function canonicalPath(rawPath: string, normalize: boolean): string {
  const input = rawPath.split('/').slice(1);
  if (!normalize) return `/${input.map(uriEncode).join('/')}`;
  // RFC 3986 dot-segment removal, and empty segments collapsed (a trailing slash is kept).
  const out: string[] = [];
  input.forEach((seg, i) => {
    const last = i === input.length - 1;
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
    if (last && (seg === '..' || seg === '.' || seg === '')) out.push('');
  });
  return `/${out.map(uriEncode).join('/')}`;
}

function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  const pairs = rawQuery
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      const [k, v] = i < 0 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)];
      return [uriEncode(decodeURIComponent(k)), uriEncode(decodeURIComponent(v))] as const;
    });
  pairs.sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Recompute the request's SigV4 signature (header form) and compare it with the one it carries. */
export function verifySigV4(req: VerifiableRequest, o: VerifyOptions): VerifyResult {
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name.toLowerCase(), Array.isArray(value) ? value : [value]);
  }
  const auth = headers.get('authorization')?.[0];
  const m = auth && /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return { ok: false, reason: `no SigV4 authorization header (${auth ?? 'none'})` };
  const [, keyId, date, region, service, signedHeaders, signature] = m as unknown as string[];
  if (keyId !== o.accessKeyId) return { ok: false, reason: `unknown access key ${keyId}` };
  if (region !== o.region) return { ok: false, reason: `credential scoped to region ${region}, not ${o.region}` };
  if (service !== o.service) return { ok: false, reason: `credential scoped to service ${service}, not ${o.service}` };
  const amzDate = headers.get('x-amz-date')?.[0];
  if (!amzDate || amzDate.slice(0, 8) !== date) return { ok: false, reason: 'x-amz-date missing or not the credential date' };
  const names = signedHeaders!.split(';');
  if (!names.includes('host')) return { ok: false, reason: 'host is not signed' };
  for (const n of names) if (!headers.has(n)) return { ok: false, reason: `signed header ${n} is missing` };
  const q = req.target.indexOf('?');
  const rawPath = q < 0 ? req.target : req.target.slice(0, q);
  const rawQuery = q < 0 ? '' : req.target.slice(q + 1);
  const canonicalHeaders = names.map((n) => `${n}:${headers.get(n)!.map((v) => v.trim().replace(/\s+/g, ' ')).join(',')}\n`).join('');
  const payloadHash = headers.get('x-amz-content-sha256')?.[0] ?? sha256(req.body);
  const canonicalRequest = [req.method.toUpperCase(), canonicalPath(rawPath, o.normalize ?? true), canonicalQuery(rawQuery), canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${o.secretAccessKey}`, date!), region!), service!), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return expected === signature ? { ok: true, canonicalRequest } : { ok: false, reason: 'signature mismatch', canonicalRequest };
}
