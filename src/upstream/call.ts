/**
 * Calling upstream: first-byte timeout, retries with backoff and jitter (honouring retry-after),
 * fallback through the planned attempts, all before the first byte reaches the caller.
 */
import { ByteParts, retryAfterOfHeaders, type FetchLike } from '../kit/index.ts';
import { ProxyError, type Warning } from '../canonical/index.ts';
import type { UpstreamHttpRequest } from '../../translators/types.ts';
import type { ResolvedTarget } from './resolve.ts';
import { jsonOrText } from '../observe/debug.ts';
import { asProxyError, errorLine, type RequestScope } from '../observe/scope.ts';
import { providerOf } from './providers/index.ts';
import { redactHeaders, scrubError, scrubText, secretValues } from './secrets.ts';

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504, 529]);

/** One target of a call with the request encoded for it, and the full URL its provider gives it. */
export interface Attempt {
  target: ResolvedTarget;
  request: UpstreamHttpRequest;
  url: string;
  /** What the encoding could not carry: reported once this target is tried. */
  warnings?: Warning[];
}

export interface UpstreamSuccess<A extends Attempt = Attempt> {
  res: Response;
  attempt: A;
  /** Index of the attempt in the plan (0 = first choice). */
  index: number;
}

/** Decode a failed upstream response in that target's dialect. */
export type DecodeUpstreamError = (target: ResolvedTarget, status: number, body: string, headers: Record<string, string>) => ProxyError;

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
function isTransient(e: ProxyError): boolean {
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
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

async function fetchOnce(
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

/**
 * Try each attempt in order, each up to its upstream's retry count, until one answers 2xx.
 * Returns that response (body unread), or throws the last failure as a ProxyError.
 */
export async function callUpstream<A extends Attempt>(
  fetch: FetchLike,
  scope: RequestScope,
  attempts: readonly A[],
  decodeError: DecodeUpstreamError,
): Promise<UpstreamSuccess<A>> {
  let last: ProxyError | undefined;
  let tries = 0;
  for (let ti = 0; ti < attempts.length; ti++) {
    const attempt = attempts[ti]!;
    const { target, request } = attempt;
    const { retry, timeouts, secretHeaders } = target.upstream;
    if (attempt.warnings) scope.warn(attempt.warnings);
    scope.dump?.(`upstream request → ${target.upstream.name}`, {
      method: request.method,
      url: attempt.url,
      headers: redactHeaders(request.headers, secretHeaders),
      body: jsonOrText(request.body),
    });
    const provider = providerOf(target.upstream);
    for (let n = 1; n <= retry.attempts; n++) {
      tries++;
      scope.log.attempts = tries;
      scope.log.upstream = target.upstream.name;
      let retryable = false;
      let waitSec: number | undefined;
      const sentAt = scope.now();
      // Traced: this attempt's span, its context sent upstream (the caller's own traceparent never goes as it came).
      const span = scope.trace?.attempt({ upstream: target.upstream.name, dialect: target.upstream.dialect, provider: target.upstream.provider, model: target.model, url: attempt.url, method: request.method });
      const traced = span ? { ...request, headers: { ...request.headers, ...span.headers() } } : request;
      try {
        // Credentials made now (a token, a signature), per try: a retry may need a fresh one.
        const sent = provider.authorize
          ? { ...traced, headers: await provider.authorize({ ...traced, url: attempt.url }, { upstream: target.upstream, model: target.model, fetch, now: () => scope.now() }) }
          : traced;
        const res = await fetchOnce(fetch, attempt.url, sent, scope, timeouts);
        scope.addUpstreamTime(scope.now() - sentAt);
        if (res.ok) {
          span?.succeeded(res.status);
          if (ti > 0) scope.log.fallback = true;
          return { res, attempt, index: ti };
        }
        const text = await res.text();
        const secrets = secretValues(sent.headers, secretHeaders);
        scope.dump?.(`upstream error ← ${target.upstream.name} (${res.status})`, scrubText(text, secrets));
        const headers = headersToRecord(res.headers);
        // A host that writes errors its own way has them rewritten into the dialect's shape first.
        const body = provider.errorBody ? provider.errorBody(res.status, text, headers) : text;
        last = scrubError(decodeError(target, res.status, body, headers), secrets);
        span?.failed(scope.now(), last.kind, res.status);
        retryable = RETRYABLE_STATUS.has(res.status);
        waitSec = last.retryAfter ?? retryAfterOfHeaders(res.headers, scope.now());
      } catch (e) {
        last = asProxyError(e, scope);
        span?.failed(scope.now(), last.kind);
        scope.dump?.(`upstream failure ← ${target.upstream.name}`, errorLine(last));
        // The caller went away, or the request ran out of time: nothing more to try.
        if (scope.aborted) throw last;
        retryable = isTransient(last);
      }
      if (!retryable) throw last;
      if (n === retry.attempts) break;
      const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (n - 1));
      const delay = waitSec !== undefined ? waitSec * 1000 : backoff * (0.5 + Math.random() / 2);
      if (delay > retry.maxDelayMs || scope.now() - scope.started + delay > retry.budgetMs) break;
      try {
        await sleep(delay, scope.upstreamAbort.signal);
      } catch {
        throw asProxyError(last, scope);
      }
    }
    if (scope.now() - scope.started > target.upstream.retry.budgetMs) break;
  }
  throw last ?? new ProxyError('upstream', 'No upstream could be reached.');
}
