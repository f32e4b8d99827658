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

export function parseJsonBody(text: string): unknown {
  if (!text.trim()) throw new ProxyError('invalid-request', 'The request body is empty; expected a JSON object.');
  try {
    return JSON.parse(text);
  } catch {
    throw new ProxyError(
      'invalid-request',
      'We could not parse the JSON body of your request. The body must be valid JSON.',
      { code: 'invalid_json' },
    );
  }
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

export function callerInput(req: Request, body: unknown, params: Record<string, string> = {}): CallerInput {
  return { body, headers: headerRecord(req.headers), params, query: queryRecord(req.url) };
}
