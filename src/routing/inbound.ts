/**
 * Inbound plumbing shared by every route: reading the body under a size limit, parsing JSON into
 * a caller error, headers and query as plain records.
 */
import { ProxyError } from '../canonical/index.ts';
import type { CallerInput } from '../../translators/types.ts';

/** Reads the raw request body as text (the Node entry supplies a faster reader). */
export type BodyReader = (req: Request, limit: number, nodeIncoming?: unknown) => Promise<string>;

/**
 * All bytes of a body, refused with `tooBig()` past `limit` — checked against a declared
 * content-length first, then while reading (a body need not declare its size).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  limit: number,
  tooBig: () => ProxyError,
): Promise<Uint8Array> {
  if (Number(declaredLength ?? 0) > limit) throw tooBig();
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export const readBodyViaRequest: BodyReader = async (req, limit) =>
  new TextDecoder().decode(await readCapped(req.body, req.headers.get('content-length'), limit, () => tooLarge(limit)));

export function tooLarge(limit: number): ProxyError {
  return new ProxyError('too-large', `Request body exceeds the limit of ${limit} bytes.`, { code: 'request_too_large' });
}

/** Deepest nesting a request or response may have: far beyond any real one, far below a stack. */
export const MAX_JSON_DEPTH = 256;

/**
 * True when `value` nests deeper than `max`: a depth-first walk that stops at the first branch
 * past `max` (so it recurses at most `max` frames) and allocates nothing.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsDeeperThan(value[i], max - 1)) return true;
    return false;
  }
  const obj = value as Record<string, unknown>;
  for (const k in obj) if (nestsDeeperThan(obj[k], max - 1)) return true;
  return false;
}

export function parseJsonBody(text: string): unknown {
  if (!text.trim()) throw new ProxyError('invalid-request', 'The request body is empty; expected a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProxyError(
      'invalid-request',
      'We could not parse the JSON body of your request. The body must be valid JSON.',
      { code: 'invalid_json' },
    );
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new ProxyError('invalid-request', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, { code: 'invalid_json' });
  }
  return value;
}

export function headerRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = k in out ? `${out[k]}, ${v}` : v;
  });
  return out;
}

export function queryRecord(url: string): Record<string, string> {
  const q = url.indexOf('?');
  if (q < 0) return {};
  const out: Record<string, string> = {};
  new URLSearchParams(url.slice(q + 1)).forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** What every route reads of the caller's request once: lowercased headers and the query. */
export interface Inbound {
  headers: Record<string, string>;
  query: Record<string, string>;
  /** The caller's credential, from whichever place its dialect puts it. */
  credential?: string;
}

export function callerInput(inbound: Inbound, body: unknown, params: Record<string, string> = {}): CallerInput {
  return { body, headers: inbound.headers, params, query: inbound.query };
}
