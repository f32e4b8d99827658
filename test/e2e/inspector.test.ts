/**
 * The inspector on Node (it is never in the Worker): the official `openai` SDK streams through
 * Interlingua to an Anthropic-dialect mock and gets one upstream error; the inspector's API lists
 * both, shows one in full (plan, attempt, timed stream events, what the caller got, the loss
 * report), feeds them live over SSE, downloads a fixture, replays as a dry-run, asks for the
 * inbound key, and never holds a secret.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/runtime/inspector.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, UPSTREAM_KEYS, e2eConfig, useHarness } from '../support/proxy.ts';

const SECRETS = [INBOUND_KEY, ...Object.values(UPSTREAM_KEYS)];

function noSecret(text: string) {
  for (const s of SECRETS) expect(text, `secret ${s.slice(0, 6)}…`).not.toContain(s);
}

describe('node: the inspector', () => {
  const h = useHarness('node', (url) => {
    const base = e2eConfig(url, { inspector: { maxExchanges: 50 } });
    return {
      ...base,
      models: { ...base.models, 'with-fallback': { upstream: [{ upstream: 'anthropic-retrying', model: 'claude-sonnet-4-5' }, { upstream: 'openai', model: 'gpt-4o-mini' }] } },
      upstreams: { ...base.upstreams, 'anthropic-retrying': { ...base.upstreams.anthropic, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } } },
    };
  });
  let client: OpenAI;
  const feed: string[] = [];
  const stopFeed = new AbortController();
  const api = (path: string, init?: RequestInit) => fetch(`${h.proxy.url}/_inspector/api/${path}`, { ...init, headers: { authorization: `Bearer ${INBOUND_KEY}`, ...init?.headers } });

  beforeAll(async () => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    // The live feed, opened before any request (the key as `?key=`, as the page's EventSource sends it).
    const res = await fetch(`${h.proxy.url}/_inspector/api/events?key=${INBOUND_KEY}`, { signal: stopFeed.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    void (async () => {
      const dec = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          feed.push(dec.decode(value, { stream: true }));
        }
      } catch {
        // Aborted at the end.
      }
    })();
  });
  afterAll(() => stopFeed.abort());

  it('records a translated stream and an upstream error, lists, filters, details, feeds them live, without a secret', async () => {
    h.mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
    const stream = await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }], stream: true, logprobs: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);

    h.mock.reply(fixtureReply('anthropic', 'error-400-invalid-request.json'));
    const err = await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);

    // The list: newest first, both done.
    await expect.poll(async () => ((await (await api('exchanges')).json()) as any).exchanges.filter((s: any) => s.done).length).toBe(2);
    const listRes = await api('exchanges');
    const listText = await listRes.text();
    noSecret(listText);
    const [failed, streamed] = JSON.parse(listText).exchanges;
    expect(streamed).toMatchObject({ callerDialect: 'openai-chat', model: 'to-anthropic', status: 200, upstream: { name: 'anthropic', dialect: 'anthropic' }, done: true });
    expect(streamed.warnings).toContain('dropped:logprobs');
    expect(streamed.tokensOut).toBeGreaterThan(0);
    expect(streamed.totalMs).toBeGreaterThanOrEqual(0);
    expect(streamed.overheadMs).toBeGreaterThanOrEqual(0);
    expect(failed).toMatchObject({ status: 400, callerDialect: 'openai-chat' });

    // Filters.
    const ids = async (q: string) => ((await (await api(`exchanges?${q}`)).json()) as any).exchanges.map((s: any) => s.id);
    expect(await ids('status=error')).toEqual([failed.id]);
    expect(await ids('status=2xx')).toEqual([streamed.id]);
    expect(await ids('dialect=anthropic')).toEqual([failed.id, streamed.id]);
    expect(await ids('dialect=gemini')).toEqual([]);
    expect(await ids('model=no-such')).toEqual([]);

    // One exchange in full.
    const fullText = await (await api(`exchanges/${streamed.id}`)).text();
    noSecret(fullText);
    const ex = JSON.parse(fullText);
    expect(ex.caller.headers.authorization).toBe('***');
    expect(ex.caller.body).toMatchObject({ model: 'to-anthropic', stream: true, logprobs: true });
    expect(ex.plan).toEqual([expect.objectContaining({ upstream: 'anthropic', dialect: 'anthropic', model: 'claude-sonnet-4-5' })]);
    expect(ex.attempts).toHaveLength(1);
    const [attempt] = ex.attempts;
    expect(attempt.url).toBe(`${h.mock.url}/v1/messages`);
    expect(attempt.headers['x-api-key']).toBe('***');
    expect(attempt.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
    expect(attempt.status).toBe(200);
    const names = attempt.events.map((e: any) => e.event);
    expect(names[0]).toBe('message_start');
    expect(names).toContain('content_block_delta');
    expect(names[names.length - 1]).toBe('message_stop');
    const times = attempt.events.map((e: any) => e.at);
    expect([...times].sort((a: number, b: number) => a - b)).toEqual(times);
    expect(ex.received.status).toBe(200);
    expect(ex.received.events.length).toBeGreaterThan(1);
    expect(ex.received.events[0].data).toMatchObject({ object: 'chat.completion.chunk' });

    const bad = JSON.parse(await (await api(`exchanges/${failed.id}`)).text());
    expect(bad.attempts[0].status).toBe(400);
    expect(bad.attempts[0].response).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(bad.received.body).toMatchObject({ error: { type: 'invalid_request_error' } });

    // The live feed saw each exchange begin and end.
    await expect.poll(() => feed.join('').split('event: exchange').length - 1).toBeGreaterThanOrEqual(4);
    const frames = feed.join('').split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    expect(frames.filter((f) => f.id === streamed.id).map((f) => f.done)).toEqual([false, true]);
    expect(frames.filter((f) => f.id === failed.id).map((f) => f.done)).toEqual([false, true]);
    noSecret(feed.join(''));
  });

  it('downloads a fixture and replays an exchange as a dry-run', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Replay me' }], seed: 3 });
    await expect.poll(async () => ((await (await api('exchanges')).json()) as any).exchanges[0]?.done).toBe(true);
    const { exchanges } = (await (await api('exchanges')).json()) as any;
    const id = exchanges[0].id;

    const fx = await api(`exchanges/${id}/fixture`);
    expect(fx.headers.get('content-disposition')).toBe(`attachment; filename="interlingua-${id}.json"`);
    const fxText = await fx.text();
    noSecret(fxText);
    expect(JSON.parse(fxText)).toMatchObject({ interlinguaFixture: 1, exchange: { id, caller: { body: { messages: [{ content: 'Replay me' }] } } } });

    // A test can load it: the recorded upstream answer replayed by the mock gives the recorded answer again.
    const { exchange } = JSON.parse(fxText);
    h.mock.reply({ status: exchange.attempts[0].status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(exchange.attempts[0].response) });
    const again = await client.chat.completions.create(exchange.caller.body);
    expect({ ...again, id: undefined, created: undefined }).toEqual({ ...exchange.received.body, id: undefined, created: undefined });
    expect(h.mock.requests[h.mock.requests.length - 1]!.json).toEqual(exchange.attempts[0].body);

    const before = h.mock.requests.length;
    const replay = (await (await api(`exchanges/${id}/replay`, { method: 'POST' })).json()) as any;
    expect(h.mock.requests.length).toBe(before); // a dry-run sends nothing upstream
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ dryRun: true, upstream: { name: 'anthropic' }, request: { url: `${h.mock.url}/v1/messages`, headers: { 'x-api-key': '***' } } });
    expect(replay.body.warnings).toContain('dropped:seed');
    noSecret(JSON.stringify(replay));
  });

  it('shows every try: two failed tries of the first upstream, then the fallback that answered', async () => {
    h.mock.reply((req) => (req.url.startsWith('/v1/messages') ? fixtureReply('anthropic', 'error-529-overloaded.json') : fixtureReply('openai-chat', 'text-basic.json')));
    await client.chat.completions.create({ model: 'with-fallback', messages: [{ role: 'user', content: 'Hi' }] });
    await expect.poll(async () => ((await (await api('exchanges?model=with-fallback')).json()) as any).exchanges[0]?.done).toBe(true);
    const [summary] = ((await (await api('exchanges?model=with-fallback')).json()) as any).exchanges;
    expect(summary).toMatchObject({ status: 200, upstream: { name: 'openai', dialect: 'openai' } });
    const ex = (await (await api(`exchanges/${summary.id}`)).json()) as any;
    expect(ex.plan.map((p: any) => [p.upstream, p.model])).toEqual([['anthropic-retrying', 'claude-sonnet-4-5'], ['openai', 'gpt-4o-mini']]);
    expect(ex.attempts.map((a: any) => [a.upstream, a.status, a.retry])).toEqual([
      ['anthropic-retrying', 529, undefined],
      ['anthropic-retrying', 529, 1],
      ['openai', 200, undefined],
    ]);
    expect(ex.attempts[1].body).toEqual(ex.attempts[0].body);
    expect(ex.attempts[0].response).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(ex.attempts[2].url).toBe(`${h.mock.url}/v1/chat/completions`);
    expect(ex.attempts[2].headers.authorization).toBe('***');
    noSecret(JSON.stringify(ex));
  });

  it('serves the page and asks for the inbound key (header or ?key=)', async () => {
    const page = await fetch(`${h.proxy.url}/_inspector?key=${INBOUND_KEY}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>Interlingua inspector</title>');
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN
    for (const path of ['/_inspector', '/_inspector/api/exchanges', '/_inspector/api/events']) {
      expect((await fetch(`${h.proxy.url}${path}`)).status).toBe(401);
      expect((await fetch(`${h.proxy.url}${path}?key=wrong`)).status).toBe(401);
    }
    expect((await api('exchanges/ex_999999')).status).toBe(404);
  });

  it('answers loopback peers only (unless allowRemote)', () => {
    for (const a of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['10.0.0.2', '192.168.1.5', '::ffff:10.0.0.1', 'fe80::1', '', undefined]) expect(isLoopback(a)).toBe(false);
  });
});

describe('node: the inspector off', () => {
  const h = useHarness('node');
  it('has no /_inspector routes', async () => {
    const res = await fetch(`${h.proxy.url}/_inspector/api/exchanges`, { headers: { authorization: `Bearer ${INBOUND_KEY}` } });
    expect(res.status).toBe(404);
  });
});
