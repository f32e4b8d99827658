/**
 * Session affinity through the official SDKs, on Node and in workerd: a session — carried as
 * each caller carries one (OpenAI `user`, Responses `prompt_cache_key`, Anthropic
 * `metadata.user_id` or Claude Code's header, Codex's `session_id` header for Google's SDK) —
 * stays on one key of a round-robin pool while requests without one spread, and moves with its
 * key when that key is rate-limited. Toward OpenAI Chat and Responses upstreams a session goes as
 * a `prompt_cache_key` (a keyed hash: stable, 32 hex, never the identity), toward others and to
 * hosts that do not take it not at all. With Redis, two proxies share pins and cooldowns.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createClient } from 'redis';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { useRedisPair } from '../support/redis.ts';
import { workerBundle } from '../support/worker.ts';
import { byKey, CALLERS, keyOf, poolKeys, poolUpstream, UPSTREAMS, type CallerCase, type UpstreamCase } from './key-pools-helpers.ts';

const MATRIX = CALLERS.flatMap((c) => UPSTREAMS.map((u) => ({ caller: c, upstream: u, label: `${c.name} → ${u.name}` })));
const HEX32 = /^[0-9a-f]{32}$/;

function config(mockUrl: string) {
  const upstreams: Record<string, unknown> = {};
  const models: Record<string, unknown> = {};
  for (const { caller, upstream } of MATRIX) {
    for (const kind of ['stick', 'cache']) {
      const name = `${kind}-${caller.name}-${upstream.name}`;
      const p = poolUpstream(mockUrl, upstream, name);
      upstreams[name] = p.upstream;
      models[name] = p.route;
    }
  }
  // A host that does not take prompt_cache_key (Groq), and a one-key OpenAI upstream.
  upstreams.groq = { dialect: 'openai', provider: 'groq', baseUrl: `${mockUrl}/v1`, apiKey: 'gsk-groq-SECRET-0000', retry: { attempts: 1 } };
  upstreams.solo = { dialect: 'openai', baseUrl: `${mockUrl}/v1`, apiKey: 'sk-solo-SECRET-0000', retry: { attempts: 1 } };
  models['to-groq'] = { upstream: 'groq', model: 'gpt-4o-mini' };
  models['to-solo'] = { upstream: 'solo', model: 'gpt-4o-mini' };
  return { keys: [INBOUND_KEY], upstreams, models };
}

/** The prompt_cache_key an upstream request carried, read in its dialect. */
const cacheKeyOf = (r: ReceivedRequest): unknown => r.json?.prompt_cache_key;

describe.each(TARGETS)('%s: sessions through every caller’s SDK', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, config);
  const limited = new Set<string>();
  beforeEach(() => {
    limited.clear();
    h.mock.reply(byKey(limited));
  });
  const take = () => h.mock.requests.splice(0).map(keyOf);

  describe.each(MATRIX)('$label', ({ caller, upstream }: { caller: CallerCase; upstream: UpstreamCase }) => {
    it('a session stays on one key while others spread, and moves with it when it cools', async () => {
      const name = `stick-${caller.name}-${upstream.name}`;
      const session = `session-${caller.name}-${upstream.name}`;
      await caller.send(h.proxy.url, name, { session });
      const [pinned] = take();
      for (let i = 0; i < 3; i++) await caller.send(h.proxy.url, name, { session });
      expect(take()).toEqual([pinned, pinned, pinned]);
      await caller.send(h.proxy.url, name);
      await caller.send(h.proxy.url, name);
      const spread = take();
      expect(new Set(spread).size).toBe(2);
      limited.add(pinned!);
      expect(await caller.send(h.proxy.url, name, { session, stream: true })).toBe('Pooled answer');
      const [tried, moved] = take();
      expect(tried).toBe(pinned);
      expect(poolKeys(name)).toContain(moved);
      expect(moved).not.toBe(pinned);
      for (let i = 0; i < 3; i++) await caller.send(h.proxy.url, name, { session });
      expect(take()).toEqual([moved, moved, moved]);
    });

    const openaiUpstream = upstream.name === 'openai' || upstream.name === 'responses';
    it(openaiUpstream ? 'a session is sent as a keyed prompt_cache_key, stable for it, never its identity' : 'no prompt_cache_key goes to it', async () => {
      const name = `cache-${caller.name}-${upstream.name}`;
      const session = `identity-${caller.name}-${upstream.name}-user@example.com`;
      await caller.send(h.proxy.url, name, { session });
      await caller.send(h.proxy.url, name, { session });
      await caller.send(h.proxy.url, name, { session: `${session}-other` });
      await caller.send(h.proxy.url, name);
      const sent = h.mock.requests.map(cacheKeyOf);
      if (!openaiUpstream) {
        expect(sent).toEqual([undefined, undefined, undefined, undefined]);
        return;
      }
      // A Responses caller's own key reaches a Responses upstream as it is.
      if (caller.name === 'openai-responses' && upstream.name === 'responses') {
        expect(sent).toEqual([session, session, `${session}-other`, undefined]);
        return;
      }
      expect(sent[0]).toMatch(HEX32);
      expect(sent[1]).toBe(sent[0]);
      expect(sent[2]).toMatch(HEX32);
      expect(sent[2]).not.toBe(sent[0]);
      expect(sent[3]).toBeUndefined();
    });
  });

  it('Claude Code’s session header is a session, and wins over metadata.user_id', async () => {
    const name = 'cache-anthropic-openai';
    const claude = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0, defaultHeaders: { 'x-claude-code-session-id': '3f1c2b9e-claude-code' } });
    const ask = (user?: string) => claude.messages.create({ model: name, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], ...(user ? { metadata: { user_id: user } } : {}) });
    await ask();
    await ask('someone-else');
    const [a, b] = h.mock.requests.map(cacheKeyOf);
    expect(a).toMatch(HEX32);
    expect(b).toBe(a);
  });

  it('a forwarded OpenAI body (not decoded) gets its prompt_cache_key spliced in, the rest byte for byte', async () => {
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    const long = 'x'.repeat(12_000);
    await client.chat.completions.create({ model: 'to-solo', messages: [{ role: 'user', content: long }], user: 'forwarded-user' });
    const got = h.mock.requests[0]!;
    expect(cacheKeyOf(got)).toMatch(HEX32);
    const { prompt_cache_key: _key, ...rest } = got.json;
    expect(rest).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: long }], user: 'forwarded-user' });
    expect(got.body.startsWith(`{"prompt_cache_key":"${got.json.prompt_cache_key}",`)).toBe(true);
    // The same session decoded (a small body) gets the same key.
    await client.chat.completions.create({ model: 'to-solo', messages: [{ role: 'user', content: 'short' }], user: 'forwarded-user' });
    expect(cacheKeyOf(h.mock.requests[1]!)).toBe(got.json.prompt_cache_key);
  });

  it('a host that does not take prompt_cache_key is not sent one', async () => {
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'to-groq', messages: [{ role: 'user', content: 'Hi' }], user: 'someone' });
    expect(h.mock.requests[0]!.json).not.toHaveProperty('prompt_cache_key');
  });
});

describe('node: two proxies on one Redis share pins and cooldowns', () => {
  const pair = useRedisPair((mockUrl, redisUrl) => {
    const u = UPSTREAMS.find((c) => c.name === 'openai')!;
    const shared = poolUpstream(mockUrl, u, 'shared');
    const cooled = poolUpstream(mockUrl, u, 'cooled', { apiKeyStrategy: 'fill-first' });
    return {
      keys: [INBOUND_KEY],
      upstreams: {
        shared: shared.upstream,
        cooled: cooled.upstream,
        first: { dialect: 'openai', baseUrl: `${mockUrl}/v1`, apiKey: 'sk-first-SECRET-1111', retry: { attempts: 1 } },
        second: { dialect: 'openai', baseUrl: `${mockUrl}/v1`, apiKey: 'sk-second-SECRET-2222', retry: { attempts: 1 } },
      },
      models: { shared: shared.route, cooled: cooled.route, listed: { upstream: ['first', 'second'], model: 'gpt-4o-mini' } },
      store: { url: redisUrl, secret: 'team-store-secret' },
      fetchAllowHosts: ['127.0.0.1'],
    };
  });
  const limited = new Set<string>();
  const failing = new Set<string>();
  beforeEach(() => {
    pair.mock.requests.length = 0;
    pair.mock.reply((req) => (failing.has(keyOf(req)) ? { status: 503, body: '{"error":{"message":"down","type":"server_error"}}' } : byKey(limited)(req)));
  });
  const chat = (url: string, model: string, user?: string) =>
    new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], ...(user ? { user } : {}) });
  const keys = () => pair.mock.requests.splice(0).map(keyOf);

  it('a session pinned on one proxy goes to the same key on the other', async () => {
    const k = poolKeys('shared');
    await chat(pair.a.url, 'shared'); // a's round-robin moves on: a new session starts at the second key there
    await chat(pair.a.url, 'shared', 'team-session');
    expect(keys()).toEqual([k[0], k[1]]);
    // b would start a new session at its first key; it finds the pin a made.
    await chat(pair.b.url, 'shared', 'team-session');
    await chat(pair.b.url, 'shared', 'team-session');
    expect(keys()).toEqual([k[1], k[1]]);
  });

  it('a key cooled on one proxy is skipped by the other', async () => {
    const k = poolKeys('cooled');
    limited.add(k[0]!);
    await chat(pair.a.url, 'cooled');
    expect(keys()).toEqual([k[0], k[1]]);
    await chat(pair.b.url, 'cooled');
    expect(keys()).toEqual([k[1]]);
  });

  it('the upstream of a fallback list a session landed on, for both proxies', async () => {
    failing.add('sk-first-SECRET-1111');
    await chat(pair.a.url, 'listed', 'list-session');
    expect(keys()).toEqual(['sk-first-SECRET-1111', 'sk-second-SECRET-2222']);
    failing.clear();
    await chat(pair.b.url, 'listed', 'list-session');
    await chat(pair.b.url, 'listed');
    expect(keys()).toEqual(['sk-second-SECRET-2222', 'sk-first-SECRET-1111']);
  });

  it('Redis holds no key and no session identity, only hashes, fingerprints and positions', async () => {
    const client = createClient({ url: pair.redisUrl });
    await client.connect();
    try {
      const names = await client.keys('*');
      expect(names.some((n) => n.includes('affinity:pool:shared:'))).toBe(true);
      expect(names.some((n) => n.endsWith('pool:cooled:cooling'))).toBe(true);
      const values = await Promise.all(names.map((n) => client.get(n)));
      const all = [...names, ...values].join('\n');
      for (const secret of [...poolKeys('shared'), ...poolKeys('cooled'), 'sk-first-SECRET-1111', 'sk-second-SECRET-2222', 'team-session', 'list-session']) {
        expect(all).not.toContain(secret);
      }
    } finally {
      await client.quit();
    }
  });
});
