/**
 * Inbound plumbing shared by every route: reading the body under a size limit, parsing JSON into
 * a caller error, headers and query as plain records.
 */
import { ProxyError } from '../canonical/index.ts';
import type { CallerInput } from '../../translators/types.ts';

/** Reads the raw request body as text (the Node entry supplies a faster reader). */
export type BodyReader = (req: Request, limit: number, nodeIncoming?: unknown) => Promise<string>;

export const readBodyViaRequest: BodyReader = async (req, limit) => {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
};

export function tooLarge(limit: number): ProxyError {
  return new ProxyError('too-large', `Request body exceeds the limit of ${limit} bytes.`, { code: 'request_too_large' });
}

/** Deepest nesting a request or response may have: far beyond any real one, far below a stack. */
export const MAX_JSON_DEPTH = 256;

/** True when `value` nests deeper than `max` (checked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
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
}

export function callerInput(inbound: Inbound, body: unknown, params: Record<string, string> = {}): CallerInput {
  return { body, headers: inbound.headers, params, query: inbound.query };
}
