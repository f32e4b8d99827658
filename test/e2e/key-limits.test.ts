/**
 * Per-key limits through the official SDKs, from every caller dialect (OpenAI Chat, Responses and
 * Images with `openai`, Anthropic Messages with `@anthropic-ai/sdk`, Gemini generateContent and
 * Interactions with `@google/genai`): a key lets in exactly its requests per minute, then gets its
 * SDK's 429 in its own dialect's error shape with `retry-after` to the minute's end, and the
 * upstream is not called; a token budget refuses the request after the one that reached it, not
 * before. The log line names the key (never the key itself) and carries the cost the price table
 * gives the upstream's usage; `/metrics` counts by key name. On Node (memory counters) and in
 * workerd (Workers KV counters).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { fixtureReply, type MockReply } from '../support/mock-upstream.ts';
import { TARGETS, useHarness } from '../support/proxy.ts';
import { imagesConfig } from './images-support.ts';
import { interactionsE2eConfig, rejection } from './interactions-helpers.ts';
import { UPSTREAMS } from './responses-helpers.ts';

const anthropicUpstream = UPSTREAMS.find((u) => u.name === 'anthropic')!;
/** What the Anthropic mock says each answer used: 11 in, 7 out, on claude-sonnet-4-5 ($3 / $15 per million). */
const TOKENS_PER_ANSWER = 18;
const COST_PER_ANSWER = (11 * 3 + 7 * 15) / 1e6;

/** What a refused call shows, read the caller SDK's way. */
interface Refused {
  status: number;
  retryAfter: number;
  /** The error body in the caller dialect's own shape. */
  shape: unknown;
}

interface CallerCase {
  name: string;
  /** One call with `key`; resolves on success. */
  call(url: string, key: string): Promise<unknown>;
  answer: MockReply;
  refused(e: unknown): Refused;
}

const openaiRefused = (e: unknown): Refused => {
  expect(e).toBeInstanceOf(OpenAI.RateLimitError);
  const err = e as InstanceType<typeof OpenAI.RateLimitError>;
  return { status: err.status, retryAfter: Number(err.headers.get('retry-after')), shape: err.error };
};
const googleRefused = (e: unknown): Refused => {
  const err = e as { name: string; status: number; message: string; headers?: Headers; error?: any };
  // generateContent's ApiError carries the body in its message; Interactions' errors carry headers.
  const body = err.error ?? JSON.parse(err.message);
  const details = (body.error ?? body).details as any[] | undefined;
  const delay = details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo')?.retryDelay as string | undefined;
  return { status: err.status, retryAfter: Number(err.headers?.get('retry-after') ?? delay?.replace(/s$/, '')), shape: body.error ?? body };
};
const openai = (url: string, key: string) => new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
const google = (url: string, key: string) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });

const CALLERS: CallerCase[] = [
  {
    name: 'openai-chat',
    call: (url, key) => openai(url, key).chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }] }),
    answer: anthropicUpstream.text('Hello there', false),
    refused: openaiRefused,
  },
  {
    name: 'openai-responses',
    call: (url, key) => openai(url, key).responses.create({ model: 'to-anthropic', input: 'Hi', store: false }),
    answer: anthropicUpstream.text('Hello there', false),
    refused: openaiRefused,
  },
  {
    name: 'anthropic',
    call: (url, key) => new Anthropic({ apiKey: key, baseURL: url, maxRetries: 0 }).messages.create({ model: 'to-anthropic', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }),
    answer: anthropicUpstream.text('Hello there', false),
    refused: (e) => {
      expect(e).toBeInstanceOf(Anthropic.RateLimitError);
      const err = e as InstanceType<typeof Anthropic.RateLimitError>;
      return { status: err.status, retryAfter: Number(err.headers?.get('retry-after')), shape: err.error };
    },
  },
  {
    name: 'gemini',
    call: (url, key) => google(url, key).models.generateContent({ model: 'to-anthropic', contents: 'Hi' }),
    answer: anthropicUpstream.text('Hello there', false),
    refused: googleRefused,
  },
  {
    name: 'gemini-interactions',
    call: (url, key) => google(url, key).interactions.create({ model: 'to-anthropic', input: 'Hi', store: false }, { maxRetries: 0 }),
    answer: anthropicUpstream.text('Hello there', false),
    refused: googleRefused,
  },
  {
    name: 'openai-images',
    call: (url, key) => openai(url, key).images.generate({ model: 'dall-e-3', prompt: 'A small Maltese dog' }),
    answer: fixtureReply('openai-images', 'generations-dalle3-url-revised-prompt.json'),
    refused: openaiRefused,
  },
];

const STREAM_KEY = 'il-tokens-stream-93ac0e5b';
const rpmKey = (c: CallerCase) => `il-rpm-${c.name}-5f2a91c7`;
const tokenKey = (c: CallerCase) => `il-tokens-${c.name}-0d84be13`;

function config(mockUrl: string) {
  const base = interactionsE2eConfig(mockUrl);
  const images = imagesConfig(mockUrl);
  return {
    ...base,
    models: { ...base.models, ...images.models },
    keys: [
      ...CALLERS.flatMap((c) => [
        { key: rpmKey(c), name: `rpm-${c.name}`, limits: { requestsPerMinute: 2 } },
        { key: tokenKey(c), name: `tokens-${c.name}`, limits: { tokensPerMinute: 2 * TOKENS_PER_ANSWER } },
      ]),
      { key: STREAM_KEY, name: 'tokens-stream', limits: { tokensPerMinute: 2 * TOKENS_PER_ANSWER } },
    ],
    metrics: true,
  };
}

/** Seconds into the current UTC minute. */
const intoMinute = () => (Date.now() % 60_000) / 1000;

/** Counting happens in calendar minutes: a case starts early enough in one to finish in it. */
async function roomInThisMinute(seconds = 15): Promise<void> {
  if (intoMinute() > 60 - seconds) await new Promise((r) => setTimeout(r, (60 - intoMinute()) * 1000 + 100));
}

describe.each(TARGETS)('%s: key limits from every caller dialect', (target) => {
  const h = useHarness(target, config, { stateKv: target === 'worker' });
  beforeEach(() => roomInThisMinute());

  describe.each(CALLERS)('$name', (c) => {
    it('requests per minute: exactly the limit gets through; the next is a 429 in its own shape, retry-after to the minute end, the upstream not called', async () => {
      h.mock.reply(c.answer);
      await c.call(h.proxy.url, rpmKey(c));
      await c.call(h.proxy.url, rpmKey(c));
      expect(h.mock.requests).toHaveLength(2);
      const before = intoMinute();
      const refused = c.refused(await rejection(c.call(h.proxy.url, rpmKey(c))));
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBeGreaterThanOrEqual(Math.floor(60 - before) - 1);
      expect(refused.retryAfter).toBeLessThanOrEqual(Math.ceil(60 - before));
      expect(JSON.stringify(refused.shape)).toContain(`The key \\"rpm-${c.name}\\" has reached its limit of 2 requests per minute`);
      expect(JSON.stringify(refused.shape)).not.toContain(rpmKey(c));
      expect(h.mock.requests).toHaveLength(2);
    });

    it('tokens per minute: the request that reaches the budget is served, the one after it refused', async () => {
      if (c.name === 'openai-images') return; // an image call's tokens are not counted (docs/team.md)
      h.mock.reply(c.answer);
      await c.call(h.proxy.url, tokenKey(c)); // 18 of 36
      await c.call(h.proxy.url, tokenKey(c)); // 36 of 36: reached
      // Tokens are counted once the answer is over; on workerd that write is kept alive by
      // ctx.waitUntil and may land just after the SDK has read the answer (docs/team.md, "Where the
      // counters are").
      if (target === 'worker') await new Promise((r) => setTimeout(r, 300));
      const refused = c.refused(await rejection(c.call(h.proxy.url, tokenKey(c))));
      expect(refused.status).toBe(429);
      expect(JSON.stringify(refused.shape)).toContain(`limit of ${2 * TOKENS_PER_ANSWER} tokens per minute`);
      expect(h.mock.requests).toHaveLength(2);
    });
  });

  it('a streamed answer counts the tokens its stream reported; the stream past the budget is refused before it starts', async () => {
    h.mock.reply(anthropicUpstream.text('Hello there', true));
    const client = openai(h.proxy.url, STREAM_KEY);
    const read = async () => {
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }], stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    };
    expect(await read()).toBe('Hello there');
    expect(await read()).toBe('Hello there');
    const refused = openaiRefused(await rejection(read()));
    expect(refused.status).toBe(429);
    expect(h.mock.requests).toHaveLength(2);
  });

  it('each caller dialect\'s own error shape', async () => {
    // Counting is by calendar minute and the requests-per-minute cases above may have run in the
    // last one: each key is brought to its limit again here, in this minute, before its refusal.
    await roomInThisMinute(20);
    const shapes: Record<string, unknown> = {};
    for (const c of CALLERS) {
      h.mock.reply(c.answer);
      let refusal: unknown;
      for (let i = 0; i < 3 && refusal === undefined; i++) refusal = await c.call(h.proxy.url, rpmKey(c)).then(() => undefined, (e: unknown) => e);
      shapes[c.name] = c.refused(refusal).shape;
    }
    const message = expect.stringContaining('has reached its limit');
    expect(shapes['openai-chat']).toMatchObject({ message, type: 'requests', code: 'key_limit_reached' });
    expect(shapes['openai-responses']).toMatchObject({ message, code: 'key_limit_reached' });
    expect(shapes['openai-images']).toMatchObject({ message, code: 'key_limit_reached' });
    expect(shapes.anthropic).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message } });
    expect(shapes.gemini).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED', message });
    expect(shapes['gemini-interactions']).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED', message });
  }, 60_000); // the wait for room in the minute (up to 20 s) and eighteen calls

  it('the log line: keyName and the table\'s cost for the usage, the refusal\'s limit; never a key; /metrics by key name', async () => {
    await new Promise((r) => setTimeout(r, 300));
    const lines = h.proxy.logs.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{"time"')).map((l) => JSON.parse(l));
    const served = lines.find((l) => l.keyName === 'tokens-anthropic' && l.status === 200);
    expect(served).toMatchObject({ keyName: 'tokens-anthropic', tokensIn: 11, tokensOut: 7, cost: COST_PER_ANSWER });
    expect(lines.find((l) => l.keyName === 'rpm-gemini' && l.status === 429)).toMatchObject({ limit: 'requestsPerMinute' });
    const res = await fetch(`${h.proxy.url}/metrics`, { headers: { authorization: `Bearer ${rpmKey(CALLERS[0]!)}` } });
    const metrics = await res.text();
    expect(metrics).toMatch(/^interlingua_key_requests_total\{key="tokens-anthropic"\} [1-9]/m);
    expect(metrics).toMatch(/^interlingua_key_tokens_total\{key="tokens-anthropic",direction="in"\} [1-9]/m);
    expect(metrics).toMatch(/^interlingua_key_limited_total\{key="rpm-openai-chat",limit="requestsPerMinute"\} [1-9]/m);
    const cost = Number(/^interlingua_key_cost_usd_total\{key="tokens-anthropic"\} (\S+)/m.exec(metrics)?.[1]);
    expect(cost / COST_PER_ANSWER).toBeCloseTo(Math.round(cost / COST_PER_ANSWER), 6);
    for (const c of CALLERS) {
      for (const key of [rpmKey(c), tokenKey(c)]) {
        expect(h.proxy.logs.join('\n')).not.toContain(key);
        expect(metrics).not.toContain(key);
      }
    }
  });
});
