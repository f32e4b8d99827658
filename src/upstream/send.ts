/**
 * One try on the wire: the request sent with its first-byte timeout (by the client where it keeps
 * its own, else an abort timer linked to the request's), and what a failed try says about trying
 * again. Retries, keys and fallbacks are call.ts's.
 */
import { ByteParts, type FetchLike } from '../kit/index.ts';
import { ProxyError } from '../canonical/index.ts';
import type { UpstreamHttpRequest } from '../../translators/types.ts';
import { asProxyError, type RequestScope } from '../observe/scope.ts';

/** Statuses another try may cure. */
export const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504, 529]);

export function headersToRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/**
 * A failure before any answer that another try may cure: the network, a timeout, a busy or
 * failing token endpoint. Not a credential or config problem a provider reports (an unreadable
 * key, a refused grant): those fail the same way every time.
 */
export function isTransient(e: ProxyError): boolean {
  switch (e.kind) {
    case 'timeout':
    case 'rate-limit':
    case 'overloaded':
      return true;
    case 'upstream':
      return e.status !== 500;
    default:
      return false;
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A request body as `fetch` takes it: parts joined unless the client sends them as they are. */
function bodyFor(fetch: FetchLike, body: UpstreamHttpRequest['body']): BodyInit | undefined {
  if (body instanceof ByteParts && !fetch.takesByteParts) return body.join() as Uint8Array<ArrayBuffer>;
  return body as BodyInit | undefined;
}

export async function fetchOnce(
  fetch: FetchLike,
  url: string,
  req: UpstreamHttpRequest,
  scope: RequestScope,
  timeouts: { firstByteMs: number; connectMs: number },
): Promise<Response> {
  const { firstByteMs } = timeouts;
  if (fetch.handlesTimeouts) {
    try {
      return await fetch(url, {
        method: req.method,
        headers: req.headers,
        body: bodyFor(fetch, req.body),
        cancel: scope,
        connectTimeoutMs: timeouts.connectMs,
        firstByteTimeoutMs: firstByteMs,
      });
    } catch (e) {
      throw asProxyError(e, scope);
    }
  }
  const attempt = new AbortController();
  const timer = setTimeout(
    () => attempt.abort(new ProxyError('timeout', `Upstream did not answer within ${firstByteMs} ms.`)),
    firstByteMs,
  );
  // The attempt also ends with the request (caller gone, idle timeout). Linked by hand:
  // AbortSignal.any costs another signal and its weak-ref bookkeeping per call on Node 20.
  const outer = scope.upstreamAbort.signal;
  if (outer.aborted) attempt.abort(outer.reason);
  else outer.addEventListener('abort', () => attempt.abort(outer.reason), { once: true });
  const signal = attempt.signal;
  try {
    return await fetch(url, {
      method: req.method,
      headers: req.headers,
      body: bodyFor(fetch, req.body),
      signal,
      connectTimeoutMs: timeouts.connectMs,
    });
  } catch (e) {
    throw asProxyError(e, signal);
  } finally {
    clearTimeout(timer);
  }
}

