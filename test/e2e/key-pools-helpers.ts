/**
 * Shared pieces of the key-pool end-to-end suites: every caller dialect through its official SDK
 * (text in, text out, a session carried its own way, the SDK's error read back), pool configs on
 * the mock upstream (one upstream per dialect, keys named after what they are for), and a mock
 * handler that answers each key as the test scripts it.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { expect } from 'vitest';
import type { MockReply, ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY } from '../support/proxy.ts';
import { UPSTREAMS, type UpstreamCase } from './responses-helpers.ts';

export { UPSTREAMS, type UpstreamCase };
export { rejection } from './helpers-gemini.ts';

/** The model each upstream dialect's pools are routed to (what the mock's paths expect). */
export const UPSTREAM_MODEL: Record<UpstreamCase['name'], string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
  responses: 'gpt-5-mini',
};
const DIALECT: Record<UpstreamCase['name'], string> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gemini', responses: 'openai-responses' };

/** The key an upstream request carried, in whichever header its dialect puts it. */
export function keyOf(req: ReceivedRequest): string {
  const h = req.headers;
  return String(h['x-goog-api-key'] ?? h['x-api-key'] ?? h['api-key'] ?? h.authorization?.replace(/^Bearer /, '') ?? '');
}

/** The upstream case a request went to, by its path. */
export function caseOf(req: ReceivedRequest): UpstreamCase {
  const u = UPSTREAMS.find((c) => c.path.test(req.url));
  if (!u) throw new Error(`no upstream case for ${req.url}`);
  return u;
}

/** The keys of pool `name`: `n` of them, distinct, secret-shaped, never seen in a reply. */
export function poolKeys(name: string, n = 3): string[] {
  return Array.from({ length: n }, (_, i) => `sk-pool-${name}-k${i}-SECRET-${(i + 7) * 1111}`);
}

/**
 * A pool upstream of dialect `u` on the mock, named `name`, and its route (the same name): keys
 * from `poolKeys`, one try per key (`retry.attempts: 1`).
 */
export function poolUpstream(mockUrl: string, u: UpstreamCase, name: string, extra: Record<string, unknown> = {}) {
  const baseUrl = u.name === 'openai' || u.name === 'responses' ? `${mockUrl}/v1` : mockUrl;
  return {
    upstream: { dialect: DIALECT[u.name], baseUrl, apiKey: poolKeys(name), retry: { attempts: 1 }, ...extra },
    route: { upstream: name, model: UPSTREAM_MODEL[u.name] },
  };
}

/**
 * The mock's handler: a key in `limited` gets the upstream's own 429 (retry in 7 s), any other
 * key the text `answer`, streamed when the request streams.
 */
export function byKey(limited: Set<string>, answer = 'Pooled answer') {
  return (req: ReceivedRequest): MockReply => {
    const u = caseOf(req);
    if (limited.has(keyOf(req))) return u.rateLimited();
    const stream = req.json?.stream === true || req.url.includes('streamGenerateContent');
    return u.text(answer, stream);
  };
}

export type CallerName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'gemini-interactions';

export interface CallerCase {
  name: CallerName;
  /** One text turn to `model`; the session (if any) carried this caller's own way. */
  send(proxyUrl: string, model: string, o?: { session?: string; stream?: boolean }): Promise<string>;
  /** What the SDK's error says: status, the retry-after it saw (seconds), its message. */
  error(e: unknown): { status: number; retryAfter?: number; message: string };
}

const openai = (url: string) => new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
const anthropic = (url: string) => new Anthropic({ apiKey: INBOUND_KEY, baseURL: url, maxRetries: 0 });
const google = (url: string, session?: string) =>
  new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: url, ...(session ? { headers: { session_id: session } } : {}) } });

/** The interactions client retries 429s by itself (four times): not here. */
const NO_RETRY = { maxRetries: 0 } as const;

type StainlessError = { status: number; headers?: Headers; message: string };
const stainless = (e: unknown) => {
  expect(e).toBeInstanceOf(Error);
  const err = e as StainlessError;
  const after = err.headers?.get('retry-after');
  return { status: err.status, retryAfter: after ? Number(after) : undefined, message: err.message };
};

async function streamedText(stream: AsyncIterable<any>, pick: (e: any) => string | undefined): Promise<string> {
  let out = '';
  for await (const e of stream) out += pick(e) ?? '';
  return out;
}

export const CALLERS: CallerCase[] = [
  {
    name: 'openai-chat',
    async send(url, model, o = {}) {
      const body = { model, messages: [{ role: 'user' as const, content: 'Hi' }], ...(o.session ? { user: o.session } : {}) };
      if (o.stream) return streamedText(await openai(url).chat.completions.create({ ...body, stream: true }), (c) => c.choices[0]?.delta?.content);
      return (await openai(url).chat.completions.create(body)).choices[0]!.message.content ?? '';
    },
    error: stainless,
  },
  {
    name: 'openai-responses',
    async send(url, model, o = {}) {
      const body = { model, input: 'Hi', store: false, ...(o.session ? { prompt_cache_key: o.session } : {}) };
      if (o.stream) return streamedText(await openai(url).responses.create({ ...body, stream: true }), (e) => (e.type === 'response.output_text.delta' ? e.delta : undefined));
      return (await openai(url).responses.create(body)).output_text;
    },
    error: stainless,
  },
  {
    name: 'anthropic',
    async send(url, model, o = {}) {
      const body = { model, max_tokens: 100, messages: [{ role: 'user' as const, content: 'Hi' }], ...(o.session ? { metadata: { user_id: o.session } } : {}) };
      if (o.stream) {
        return streamedText(await anthropic(url).messages.create({ ...body, stream: true }), (e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : undefined));
      }
      const msg = await anthropic(url).messages.create(body);
      return msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    },
    error: stainless,
  },
  {
    name: 'gemini',
    async send(url, model, o = {}) {
      const ai = google(url, o.session);
      if (o.stream) return streamedText(await ai.models.generateContentStream({ model, contents: 'Hi' }), (c) => c.text);
      return (await ai.models.generateContent({ model, contents: 'Hi' })).text ?? '';
    },
    error(e) {
      expect(e).toBeInstanceOf(Error);
      const err = e as { status: number; message: string };
      const body = JSON.parse(err.message) as { error: { message: string; details?: Array<Record<string, string>> } };
      const delay = body.error.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo')?.retryDelay;
      return { status: err.status, retryAfter: delay ? Number(delay.replace(/s$/, '')) : undefined, message: body.error.message };
    },
  },
  {
    name: 'gemini-interactions',
    async send(url, model, o = {}) {
      const ai = google(url, o.session);
      if (o.stream) {
        return streamedText(await ai.interactions.create({ model, input: 'Hi', stream: true, store: false }, NO_RETRY), (e) =>
          e.event_type === 'step.delta' && e.delta?.type === 'text' ? e.delta.text : undefined,
        );
      }
      return (await ai.interactions.create({ model, input: 'Hi', store: false }, NO_RETRY)).output_text ?? '';
    },
    error: stainless,
  },
];
