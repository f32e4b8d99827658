/**
 * Calling upstream: first-byte timeout, retries with backoff and jitter (honouring retry-after),
 * fallback through the route's upstreams, all before the first byte reaches the caller.
 */
import { ProxyError } from '../canonical/index.ts';
import type { UpstreamHttpRequest } from '../../translators/types.ts';
import type { ResolvedTarget } from './resolve.ts';
import { DryRun, assertStrict, jsonOrText, redactHeaders } from './debug.ts';
import { asProxyError, type FetchLike, type RequestScope } from './scope.ts';

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504, 529]);

export interface UpstreamSuccess {
  res: Response;
  target: ResolvedTarget;
  request: UpstreamHttpRequest;
  /** Index of the target in the route (0 = first choice). */
  targetIndex: number;
}

export interface CallPlan {
  targets: ResolvedTarget[];
  /** Build (encode) the request for one target; may throw a ProxyError for that dialect. */
  build(target: ResolvedTarget): UpstreamHttpRequest;
  /** Decode a failed upstream response for that target's dialect. */
  decodeError(target: ResolvedTarget, status: number, body: string, headers: Record<string, string>): ProxyError;
}

export function headersToRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

const SECRET_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];
/** Key shapes of the vendors, masked wherever an upstream echoes one back. */
const KEY_PATTERNS: Array<[RegExp, string]> = [
  [/\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_*-]{8,}/g, '$1***'],
  [/\bAIza[0-9A-Za-z_-]{10,}/g, 'AIza***'],
];

/** Strip anything that echoes a credential from an upstream error before the caller sees it. */
export function scrubSecrets(err: ProxyError, req: UpstreamHttpRequest): ProxyError {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (!SECRET_HEADERS.includes(name.toLowerCase())) continue;
    const v = value.replace(/^Bearer\s+/i, '').trim();
    if (v.length >= 4) secrets.push(v);
  }
  const clean = (text: string | undefined) => {
    if (text === undefined) return undefined;
    let out = text;
    for (const s of secrets) out = out.split(s).join('***');
    for (const [re, by] of KEY_PATTERNS) out = out.replace(re, by);
    return out;
  };
  const message = clean(err.message)!;
  const raw = clean(err.raw);
  if (message === err.message && raw === err.raw) return err;
  return new ProxyError(err.kind, message, {
    status: err.status,
    param: err.param,
    code: err.code,
    raw,
    retryAfter: err.retryAfter,
    requestId: err.requestId,
    upstreamType: err.upstreamType,
  });
}

/** `retry-after` in seconds (delta-seconds or an HTTP date), if present. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
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

async function fetchOnce(
  fetch: FetchLike,
  req: UpstreamHttpRequest,
  scope: RequestScope,
  timeouts: { firstByteMs: number; connectMs: number },
): Promise<Response> {
  const { firstByteMs } = timeouts;
  if (fetch.handlesTimeouts) {
    try {
      return await fetch(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
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
    return await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
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
 * Try each target in order, each up to its retry count, until one answers 2xx. Returns that
 * response (body unread), or throws the last failure as a ProxyError.
 */
export async function callUpstream(fetch: FetchLike, scope: RequestScope, plan: CallPlan): Promise<UpstreamSuccess> {
  let last: ProxyError | undefined;
  let attempts = 0;
  for (let ti = 0; ti < plan.targets.length; ti++) {
    const target = plan.targets[ti]!;
    const { retry, timeouts } = target.upstream;
    const request = plan.build(target);
    if (scope.flags.strict) assertStrict(scope.warnings, target.upstream.name);
    if (scope.flags.dryRun) throw new DryRun(request, target);
    scope.dump?.(`upstream request → ${target.upstream.name}`, {
      method: request.method,
      url: request.url,
      headers: redactHeaders(request.headers),
      body: jsonOrText(request.body),
    });
    for (let n = 1; n <= retry.attempts; n++) {
      attempts++;
      scope.log.attempts = attempts;
      scope.log.upstream = target.upstream.name;
      let retryable = false;
      let waitSec: number | undefined;
      const sentAt = scope.now();
      try {
        const res = await fetchOnce(fetch, request, scope, timeouts);
        scope.addUpstreamTime(scope.now() - sentAt);
        if (res.ok) {
          if (ti > 0) scope.log.fallback = true;
          return { res, target, request, targetIndex: ti };
        }
        const body = await res.text();
        const headers = headersToRecord(res.headers);
        last = scrubSecrets(plan.decodeError(target, res.status, body, headers), request);
        retryable = RETRYABLE_STATUS.has(res.status);
        waitSec = last.retryAfter ?? parseRetryAfter(res.headers.get('retry-after'), scope.now());
      } catch (e) {
        last = asProxyError(e, scope);
        // The caller went away: nothing more to try.
        if (scope.aborted) throw last;
        retryable = true;
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
