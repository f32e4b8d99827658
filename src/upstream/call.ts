/**
 * Calling upstream: each try (send.ts, with its first-byte timeout), retries with backoff and
 * jitter (honouring retry-after), the next key of a key pool after a key is refused or
 * rate-limited, fallback through the planned attempts, all before the first byte reaches the caller.
 *
 * A pool's keys (key-pool.ts) are tried each at most once per request, and moving to the next key
 * does not count against `retry.attempts` (which is per key: a 5xx is retried on the same key,
 * then falls back). A session goes to its pinned upstream of the fallback list first, and to its
 * pinned key. When the last upstream tried has every key cooling, the answer is a 429 whose
 * `retry-after` is the soonest key's remaining cooldown.
 */
import { retryAfterOfHeaders, type FetchLike } from '../kit/index.ts';
import { ProxyError, type Warning } from '../canonical/index.ts';
import type { UpstreamHttpRequest } from '../../translators/types.ts';
import type { ResolvedTarget } from './resolve.ts';
import { jsonOrText } from '../observe/debug.ts';
import { asProxyError, errorLine, type RequestScope } from '../observe/scope.ts';
import type { Upstream } from '../config/load.ts';
import type { KeyPool, KeyPools } from './key-pool.ts';
import { CredentialError, providerOf } from './providers/index.ts';
import { redactHeaders, scrubError, scrubText, secretValues } from './secrets.ts';
import { fetchOnce, headersToRecord, isTransient, RETRYABLE_STATUS, sleep } from './send.ts';

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

/** Key pools and the request's session (its keyed hash), when the app has them. */
export interface CallOptions {
  pools?: KeyPools;
  session?: string;
}

/** One call's shared plumbing and its running tally. */
interface Call {
  fetch: FetchLike;
  scope: RequestScope;
  decodeError: DecodeUpstreamError;
  tries: number;
  last?: ProxyError;
}

/** How trying one key ended: an answer, the key at fault (cool it, try the next), or on to the next upstream. */
type KeyOutcome = { type: 'ok'; res: Response } | { type: 'key'; status: number; seconds: number } | { type: 'next' };

/**
 * Whether a failure is the key's (refused, out of quota, rate-limited), and then for how long it
 * cools: a refused key for the pool's cooldown, a rate-limited one until the upstream's
 * retry-after (else the pool's cooldown).
 */
function keyFault(status: number, err: ProxyError, cooldownSeconds: number, waitSec: number | undefined): number | undefined {
  if (status === 401 || status === 403 || err.kind === 'authentication' || err.kind === 'permission') return cooldownSeconds;
  if (status === 429 || status === 402 || err.kind === 'rate-limit') return waitSec ?? cooldownSeconds;
  return undefined;
}

/** The planned credential headers carry the pool's first key; a try on another key carries that one. */
function withKey(headers: Record<string, string>, planned: string | undefined, key: string | undefined): Record<string, string> {
  if (!planned || !key || planned === key) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = value === planned ? key : value === `Bearer ${planned}` ? `Bearer ${key}` : value;
  return out;
}

/** Retries of one attempt on one credential (`member`: the upstream as called with it; `pool` when it is one of several). */
async function tryKey(call: Call, attempt: Attempt, member: Upstream, pool?: { cooldownSeconds: number }): Promise<KeyOutcome> {
  const { fetch, scope } = call;
  const { target } = attempt;
  const { retry, timeouts, secretHeaders } = target.upstream;
  const request = pool ? { ...attempt.request, headers: withKey(attempt.request.headers, target.upstream.apiKey, member.apiKey) } : attempt.request;
  const provider = providerOf(member);
  for (let n = 1; n <= retry.attempts; n++) {
    scope.log.attempts = ++call.tries;
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
        ? { ...traced, headers: await provider.authorize({ ...traced, url: attempt.url }, { upstream: member, model: target.model, fetch, now: () => scope.now() }) }
        : traced;
      const res = await fetchOnce(fetch, attempt.url, sent, scope, timeouts);
      scope.addUpstreamTime(scope.now() - sentAt);
      if (res.ok) {
        span?.succeeded(res.status);
        return { type: 'ok', res };
      }
      const text = await res.text();
      const secrets = secretValues(sent.headers, secretHeaders);
      scope.dump?.(`upstream error ← ${target.upstream.name} (${res.status})`, scrubText(text, secrets));
      const headers = headersToRecord(res.headers);
      // A host that writes errors its own way has them rewritten into the dialect's shape first.
      const body = provider.errorBody ? provider.errorBody(res.status, text, headers) : text;
      const last = (call.last = scrubError(call.decodeError(target, res.status, body, headers), secrets));
      span?.failed(scope.now(), last.kind, res.status);
      retryable = RETRYABLE_STATUS.has(res.status);
      waitSec = last.retryAfter ?? retryAfterOfHeaders(res.headers, scope.now());
      const seconds = pool && keyFault(res.status, last, pool.cooldownSeconds, waitSec);
      if (seconds !== undefined) return { type: 'key', status: res.status, seconds };
    } catch (e) {
      const last = (call.last = asProxyError(e, scope));
      span?.failed(scope.now(), last.kind);
      scope.dump?.(`upstream failure ← ${target.upstream.name}`, errorLine(last));
      // The caller went away, or the request ran out of time: nothing more to try.
      if (scope.aborted) throw last;
      if (pool && e instanceof CredentialError) return { type: 'key', status: last.status, seconds: pool.cooldownSeconds };
      retryable = isTransient(last);
    }
    if (!retryable) throw call.last;
    if (n === retry.attempts) break;
    const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (n - 1));
    const delay = waitSec !== undefined ? waitSec * 1000 : backoff * (0.5 + Math.random() / 2);
    if (delay > retry.maxDelayMs || scope.now() - scope.started + delay > retry.budgetMs) break;
    try {
      await sleep(delay, scope.upstreamAbort.signal);
    } catch {
      throw asProxyError(call.last!, scope);
    }
  }
  return { type: 'next' };
}

/**
 * The keys of a pool in the order the session and the strategy give, each once: an answer, or
 * `cooling` when every key is cooling down by the end, or `next` (a failure that is not a key's).
 */
async function tryPool(call: Call, attempt: Attempt, pool: KeyPool, session: string | undefined): Promise<KeyOutcome | { type: 'cooling' }> {
  const { scope } = call;
  const upstream = attempt.target.upstream;
  const { cooldownSeconds } = upstream.pool!;
  for (const k of await pool.order(session)) {
    // Cooled meanwhile by another request.
    if (pool.cooling(k)) continue;
    const out = await tryKey(call, attempt, pool.member(k), { cooldownSeconds });
    if (out.type === 'ok') {
      scope.log.upstreamKey = k;
      await pool.served(k, session);
      return out;
    }
    if (out.type === 'next') return out;
    await pool.cool(k, out.seconds);
    (scope.log.keyCooldowns ??= []).push(`${upstream.name} ${pool.label(k)} ${out.status}, ${Math.round(out.seconds * 1000) / 1000} s`);
    if (scope.now() - scope.started > upstream.retry.budgetMs) return { type: 'next' };
  }
  for (let k = 0; k < pool.size; k++) if (!pool.cooling(k)) return { type: 'next' };
  return { type: 'cooling' };
}

/** The answer when the last upstream tried has every key cooling down. */
function allCooling(upstream: string, seconds: number): ProxyError {
  return new ProxyError('rate-limit', `Every key of upstream '${upstream}' is cooling down after a rate limit or a refusal; retry in ${seconds} s.`, {
    code: 'rate_limit_exceeded',
    retryAfter: seconds,
  });
}

/**
 * Try each attempt in order (a session's pinned upstream first), each on its pool's keys or its
 * one credential, each key up to its upstream's retry count, until one answers 2xx. Returns that
 * response (body unread), or throws the last failure as a ProxyError.
 */
export async function callUpstream<A extends Attempt>(
  fetch: FetchLike,
  scope: RequestScope,
  attempts: readonly A[],
  decodeError: DecodeUpstreamError,
  o: CallOptions = {},
): Promise<UpstreamSuccess<A>> {
  const call: Call = { fetch, scope, decodeError, tries: 0 };
  const { pools, session } = o;
  const names = attempts.map((a) => a.target.upstream.name);
  const order = pools ? await pools.routeOrder(names, session) : names.map((_, i) => i);
  let soonest: number | undefined;
  let cooled: string | undefined;
  for (const ti of order) {
    const attempt = attempts[ti]!;
    const { target, request } = attempt;
    if (attempt.warnings) scope.warn(attempt.warnings);
    scope.dump?.(`upstream request → ${target.upstream.name}`, {
      method: request.method,
      url: attempt.url,
      headers: redactHeaders(request.headers, target.upstream.secretHeaders),
      body: jsonOrText(request.body),
    });
    const pool = pools?.of(target.upstream);
    const out = pool ? await tryPool(call, attempt, pool, session) : await tryKey(call, attempt, target.upstream);
    cooled = undefined;
    if (out.type === 'ok') {
      if (ti !== order[0]) scope.log.fallback = true;
      // Served by the first of an unpinned list: nothing to remember.
      if (pools && !(ti === 0 && order[0] === 0)) await pools.routeServed(names, session, ti);
      return { res: out.res, attempt, index: ti };
    }
    if (out.type === 'cooling') {
      cooled = target.upstream.name;
      soonest = Math.min(soonest ?? Infinity, pool!.soonest());
    }
    if (scope.now() - scope.started > target.upstream.retry.budgetMs) break;
  }
  if (cooled !== undefined) throw allCooling(cooled, soonest!);
  throw call.last ?? new ProxyError('upstream', 'No upstream could be reached.');
}
