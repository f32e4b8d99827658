/**
 * callUpstream with key pools: which key each try carries, what cools down for how long, what
 * `retry.attempts` counts, when the route falls back, and the 429 when every key is cooling.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../translators/index.ts';
import { ProxyError } from '../canonical/index.ts';
import type { FetchLike } from '../kit/index.ts';
import { parseConfig, type Config } from '../config/load.ts';
import { RequestScope } from '../observe/scope.ts';
import { callUpstream, type Attempt } from './call.ts';
import { createKeyPools, type KeyPools } from './key-pool.ts';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
const OK: Reply = { status: 200, body: { ok: true } };
const RATE: Reply = { status: 429, body: { error: { message: 'Rate limit reached.', type: 'requests', code: 'rate_limit_exceeded' } } };
const REFUSED: Reply = { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } } };
const BROKEN: Reply = { status: 500, body: { error: { message: 'The server had an error.', type: 'server_error' } } };

const KEYS = ['sk-key-0-aaaaaaaa', 'sk-key-1-bbbbbbbb', 'sk-key-2-cccccccc'];

/** The key a request carried, whichever header its dialect puts it in. */
function keyOf(h: Headers): string {
  return h.get('x-goog-api-key') ?? h.get('authorization')?.replace(/^Bearer /, '') ?? '';
}

function harness(upstreams: Record<string, Record<string, unknown>>) {
  let t = 1_700_000_000_000;
  const now = () => t;
  const config: Config = parseConfig({ keys: ['in'], upstreams, models: { '*': { upstream: Object.keys(upstreams) } } });
  const pools: KeyPools = createKeyPools({ now });
  const sent: Array<{ upstream: string; key: string }> = [];
  let script: (upstream: string, key: string, n: number) => Reply = () => OK;
  const fetch: FetchLike = async (url, init) => {
    const upstream = new URL(url).pathname.split('/')[1]!;
    const key = keyOf(new Headers(init.headers));
    sent.push({ upstream, key });
    const r = script(upstream, key, sent.length);
    return new Response(JSON.stringify(r.body ?? {}), { status: r.status, headers: { 'content-type': 'application/json', ...r.headers } });
  };
  const attemptOf = (name: string): Attempt => {
    const upstream = config.upstreams[name]!;
    const headers: Record<string, string> =
      upstream.dialect === 'gemini' ? { 'x-goog-api-key': upstream.apiKey! } : { authorization: `Bearer ${upstream.apiKey}` };
    return {
      target: { upstream, model: 'm' },
      request: { method: 'POST', path: '/x', headers: { ...headers, 'content-type': 'application/json' }, body: '{}', stream: false },
      url: `http://upstream.test/${name}/x`,
    };
  };
  const call = async (targets: string[] = Object.keys(upstreams), session?: string) => {
    const scope = new RequestScope('t', 'req', now);
    const attempts = targets.map(attemptOf);
    const decode = (tg: Attempt['target'], status: number, body: string, headers: Record<string, string>) =>
      registry.chatUpstreams[tg.upstream.dialect].decodeError(status, body, headers);
    const before = sent.length;
    const result = await callUpstream(fetch, scope, attempts, decode, { pools, session }).then(
      (s): { served?: string; error?: ProxyError } => ({ served: s.attempt.target.upstream.name }),
      (e: unknown): { served?: string; error?: ProxyError } => ({ error: e as ProxyError }),
    );
    return { ...result, log: scope.log, sent: sent.slice(before) };
  };
  return {
    call,
    pools,
    config,
    reply: (f: typeof script) => (script = f),
    advance: (ms: number) => (t += ms),
    session: (id: string) => pools.session(id),
  };
}

const pool = (extra: Record<string, unknown> = {}) => ({ dialect: 'openai', baseUrl: 'http://upstream.test/v1', apiKey: KEYS, retry: { attempts: 1, baseDelayMs: 1 }, ...extra });
const single = (key: string, extra: Record<string, unknown> = {}) => ({ dialect: 'openai', baseUrl: 'http://upstream.test/v1', apiKey: key, retry: { attempts: 1, baseDelayMs: 1 }, ...extra });

describe('a key pool in a call', () => {
  it('round-robin spreads requests over the keys, each carrying its own key', async () => {
    const h = harness({ a: pool() });
    const keys: string[] = [];
    for (let i = 0; i < 6; i++) keys.push(...(await h.call()).sent.map((s) => s.key));
    expect(keys).toEqual([...KEYS, ...KEYS]);
  });

  it('fill-first uses the first key until it cools', async () => {
    const h = harness({ a: pool({ apiKeyStrategy: 'fill-first' }) });
    for (let i = 0; i < 3; i++) expect((await h.call()).sent.map((s) => s.key)).toEqual([KEYS[0]]);
    h.reply((_, key) => (key === KEYS[0] ? { ...RATE, headers: { 'retry-after': '20' } } : OK));
    const moved = await h.call();
    expect(moved.sent.map((s) => s.key)).toEqual([KEYS[0], KEYS[1]]);
    expect(moved.log.upstreamKey).toBe(1);
    expect((await h.call()).sent.map((s) => s.key)).toEqual([KEYS[1]]);
    h.advance(20_001);
    h.reply(() => OK);
    expect((await h.call()).sent.map((s) => s.key)).toEqual([KEYS[0]]);
  });

  it('a 429 moves to the next key at once, without using up retry.attempts, and cools the key for its retry-after', async () => {
    const h = harness({ a: pool({ apiKeyStrategy: 'fill-first', retry: { attempts: 1 } }) });
    h.reply((_, key) => (key === KEYS[2] ? OK : { ...RATE, headers: { 'retry-after': '7' } }));
    const r = await h.call();
    expect(r.served).toBe('a');
    expect(r.sent.map((s) => s.key)).toEqual(KEYS);
    expect(r.log.attempts).toBe(3);
    expect(r.log.keyCooldowns).toEqual([expect.stringMatching(/^a apiKey\[0\]#[0-9a-f]{12} 429, 7 s$/), expect.stringMatching(/^a apiKey\[1\]#[0-9a-f]{12} 429, 7 s$/)]);
    expect(JSON.stringify(r.log)).not.toContain('sk-key');
    h.advance(6_000);
    expect((await h.call()).sent.map((s) => s.key)).toEqual([KEYS[2]]);
    h.advance(1_001);
    h.reply(() => OK);
    expect((await h.call()).sent.map((s) => s.key)).toEqual([KEYS[0]]);
  });

  it('without a retry-after a rate-limited key cools for keyCooldownSeconds', async () => {
    const h = harness({ a: pool({ apiKeyStrategy: 'fill-first', keyCooldownSeconds: 45 }) });
    h.reply((_, key) => (key === KEYS[0] ? RATE : OK));
    expect((await h.call()).log.keyCooldowns).toEqual([expect.stringMatching(/ 429, 45 s$/)]);
    h.advance(44_000);
    h.reply(() => OK);
    expect((await h.call()).sent[0]!.key).toBe(KEYS[1]);
    h.advance(1_001);
    expect((await h.call()).sent[0]!.key).toBe(KEYS[0]);
  });

  it('a 401 or 403 cools the key for keyCooldownSeconds whatever retry-after says, and is logged each time', async () => {
    const h = harness({ a: pool({ apiKeyStrategy: 'fill-first', keyCooldownSeconds: 30 }) });
    h.reply((_, key) => (key === KEYS[0] ? { ...REFUSED, headers: { 'retry-after': '1' } } : key === KEYS[1] ? { status: 403, body: { error: { message: 'Forbidden.' } } } : OK));
    const r = await h.call();
    expect(r.served).toBe('a');
    expect(r.log.keyCooldowns).toEqual([expect.stringMatching(/^a apiKey\[0\]#\w+ 401, 30 s$/), expect.stringMatching(/^a apiKey\[1\]#\w+ 403, 30 s$/)]);
    h.advance(30_001);
    expect((await h.call()).log.keyCooldowns).toHaveLength(2);
  });

  it('a 5xx is retried on the same key (retry.attempts), then falls back: it is not the key’s fault', async () => {
    const h = harness({ a: pool({ apiKeyStrategy: 'fill-first', retry: { attempts: 2, baseDelayMs: 1 } }), b: single('sk-b-key-dddddddd') });
    h.reply((up, key) => (up === 'b' ? OK : key === KEYS[0] ? RATE : BROKEN));
    const r = await h.call();
    expect(r.sent).toEqual([
      { upstream: 'a', key: KEYS[0] },
      { upstream: 'a', key: KEYS[1] },
      { upstream: 'a', key: KEYS[1] },
      { upstream: 'b', key: 'sk-b-key-dddddddd' },
    ]);
    expect(r.served).toBe('b');
    expect(r.log.fallback).toBe(true);
    expect(h.pools.of(h.config.upstreams.a!)!.cooling(1)).toBe(false);
  });

  it('every key cooling: no upstream call, a 429 whose retry-after is the soonest key’s remaining cooldown, rounded up', async () => {
    const h = harness({ a: pool() });
    h.reply((_, key) => ({ ...RATE, headers: { 'retry-after': key === KEYS[1] ? '12' : '40' } }));
    const first = await h.call();
    expect(first.sent).toHaveLength(3);
    expect(first.error!.status).toBe(429);
    expect(first.error!.kind).toBe('rate-limit');
    expect(first.error!.retryAfter).toBe(12);
    h.advance(2_500);
    const again = await h.call();
    expect(again.sent).toEqual([]);
    expect(again.error!.status).toBe(429);
    expect(again.error!.retryAfter).toBe(10);
    expect(again.error!.message).toBe("Every key of upstream 'a' is cooling down after a rate limit or a refusal; retry in 10 s.");
  });

  it('a pool whose keys are all cooling falls back to the next upstream of the route', async () => {
    const h = harness({ a: pool(), b: single('sk-b-key-dddddddd') });
    h.reply((up) => (up === 'a' ? RATE : OK));
    const r = await h.call();
    expect(r.sent.map((s) => s.upstream)).toEqual(['a', 'a', 'a', 'b']);
    expect(r.served).toBe('b');
    const skipped = await h.call();
    expect(skipped.sent.map((s) => s.upstream)).toEqual(['b']);
    expect(skipped.log.fallback).toBe(true);
  });

  it('the last upstream’s own failure is the answer when it is not a pool that is cooling', async () => {
    const h = harness({ a: pool(), b: single('sk-b-key-dddddddd') });
    h.reply((up) => (up === 'a' ? RATE : BROKEN));
    const r = await h.call();
    expect(r.error!.status).toBe(500);
  });

  it('several pools all cooling: the soonest key of any of them', async () => {
    const h = harness({ a: pool({ keyCooldownSeconds: 50 }), b: pool({ keyCooldownSeconds: 20 }) });
    h.reply(() => RATE);
    const r = await h.call();
    expect(r.sent).toHaveLength(6);
    expect(r.error!.retryAfter).toBe(20);
    expect(r.error!.message).toContain("upstream 'b'");
  });

  it('Gemini’s RetryInfo.retryDelay counts as retry-after', async () => {
    const h = harness({ g: { dialect: 'gemini', baseUrl: 'http://upstream.test', apiKey: ['AIza-key-0-aaaaaaaaaaaa', 'AIza-key-1-bbbbbbbbbbbb'], apiKeyStrategy: 'fill-first', retry: { attempts: 1 } } });
    const exhausted = {
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '33s' }],
        },
      },
    };
    h.reply((_, key) => (key.startsWith('AIza-key-0') ? exhausted : OK));
    const r = await h.call();
    expect(r.log.keyCooldowns).toEqual([expect.stringMatching(/^g apiKey\[0\]#\w+ 429, 33 s$/)]);
    expect(r.sent.map((s) => s.key)).toEqual(['AIza-key-0-aaaaaaaaaaaa', 'AIza-key-1-bbbbbbbbbbbb']);
  });

  it('a one-key upstream behaves as before: a 429 retried on its key (retry-after honoured), nothing cooled', async () => {
    const h = harness({ a: single('sk-only-key-eeeeeeee', { retry: { attempts: 2, baseDelayMs: 1 } }) });
    h.reply((_, __, n) => (n === 1 ? { ...RATE, headers: { 'retry-after-ms': '5' } } : OK));
    const r = await h.call();
    expect(r.sent.map((s) => s.key)).toEqual(['sk-only-key-eeeeeeee', 'sk-only-key-eeeeeeee']);
    expect(r.log.keyCooldowns).toBeUndefined();
    expect(r.log.upstreamKey).toBeUndefined();
    h.reply(() => RATE);
    expect((await h.call()).error!.status).toBe(429);
    expect((await h.call()).sent).toHaveLength(2);
  });
});

describe('sessions in a call', () => {
  it('stay on one key, and re-pin to the key they move to when theirs cools', async () => {
    const h = harness({ a: pool() });
    const s = await h.session('claude-session-1');
    const first = (await h.call(['a'], s)).sent[0]!.key;
    for (let i = 0; i < 4; i++) expect((await h.call(['a'], s)).sent.map((x) => x.key)).toEqual([first]);
    h.reply((_, key) => (key === first ? RATE : OK));
    const moved = (await h.call(['a'], s)).sent.map((x) => x.key);
    expect(moved[0]).toBe(first);
    const next = moved[1]!;
    h.reply(() => OK);
    h.advance(61_000);
    for (let i = 0; i < 3; i++) expect((await h.call(['a'], s)).sent.map((x) => x.key)).toEqual([next]);
  });

  it('stay on the upstream of the fallback list that served them while it is healthy', async () => {
    const h = harness({ a: single('sk-a-key-ffffffff'), b: single('sk-b-key-dddddddd') });
    const s = await h.session('codex-session');
    h.reply((up) => (up === 'a' ? BROKEN : OK));
    expect((await h.call(['a', 'b'], s)).served).toBe('b');
    h.reply(() => OK);
    // a is well again; the session stays on b, another session starts at a.
    for (let i = 0; i < 3; i++) expect((await h.call(['a', 'b'], s)).sent.map((x) => x.upstream)).toEqual(['b']);
    expect((await h.call(['a', 'b'], await h.session('other'))).sent.map((x) => x.upstream)).toEqual(['a']);
    h.reply((up) => (up === 'b' ? BROKEN : OK));
    expect((await h.call(['a', 'b'], s)).sent.map((x) => x.upstream)).toEqual(['b', 'a']);
    h.reply(() => OK);
    expect((await h.call(['a', 'b'], s)).sent.map((x) => x.upstream)).toEqual(['a']);
  });
});
