/**
 * A loss report names the caller's own field, as its wire spells it, never the proxy's canonical
 * name: from every chat caller dialect toward an upstream that lacks the field, in the
 * `x-interlingua-warnings` header, in the dry-run's `warnings` and in strict mode's 400. Nothing
 * is sent upstream (dry-run and strict refusals are pure plans).
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { INBOUND_KEY, responsesE2eConfig } from '../support/proxy.ts';

const app = createApp({
  config: parseConfig(responsesE2eConfig('http://127.0.0.1:9')),
  fetch: () => Promise.reject(new Error('no upstream call is expected')),
});

interface Case {
  caller: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The tokens the loss report must hold (the caller's names). */
  tokens: string[];
  /** Canonical names that must not appear. */
  never: string[];
}

const openaiHeaders = { authorization: `Bearer ${INBOUND_KEY}` };
const anthropicHeaders = { 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01' };
const googleHeaders = { 'x-goog-api-key': INBOUND_KEY };

const CASES: Case[] = [
  {
    caller: 'anthropic → openai',
    path: '/v1/messages',
    headers: anthropicHeaders,
    body: { model: 'to-openai', max_tokens: 64, top_k: 5, messages: [{ role: 'user', content: 'Hi' }] },
    tokens: ['dropped:top_k'],
    never: ['topK'],
  },
  {
    caller: 'anthropic → responses',
    path: '/v1/messages',
    headers: anthropicHeaders,
    body: { model: 'to-responses', max_tokens: 64, top_k: 5, stop_sequences: ['X'], messages: [{ role: 'user', content: 'Hi' }] },
    tokens: ['dropped:top_k', 'dropped:stop_sequences'],
    never: ['topK', 'dropped:stop,'],
  },
  {
    caller: 'gemini → openai',
    path: '/v1beta/models/to-openai:generateContent',
    headers: googleHeaders,
    body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { topK: 40 } },
    tokens: ['dropped:generationConfig.topK'],
    never: ['dropped:topK'],
  },
  {
    caller: 'gemini → anthropic',
    path: '/v1beta/models/to-anthropic:generateContent',
    headers: googleHeaders,
    body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { seed: 7, presencePenalty: 0.5, logprobs: 2, responseLogprobs: true } },
    tokens: ['dropped:generationConfig.seed', 'dropped:generationConfig.presencePenalty', 'dropped:generationConfig.logprobs', 'dropped:generationConfig.responseLogprobs'],
    never: ['presence_penalty', 'topLogprobs', 'dropped:seed'],
  },
  {
    caller: 'openai-chat → anthropic',
    path: '/v1/chat/completions',
    headers: openaiHeaders,
    body: { model: 'to-anthropic', presence_penalty: 0.5, logprobs: true, top_logprobs: 2, messages: [{ role: 'user', content: 'Hi' }] },
    tokens: ['dropped:presence_penalty', 'dropped:top_logprobs', 'dropped:logprobs'],
    never: ['presencePenalty', 'topLogprobs'],
  },
  {
    caller: 'openai-chat → responses',
    path: '/v1/chat/completions',
    headers: openaiHeaders,
    body: { model: 'to-responses', seed: 7, frequency_penalty: 0.5, messages: [{ role: 'user', content: 'Hi' }] },
    tokens: ['dropped:seed', 'dropped:frequency_penalty'],
    never: ['frequencyPenalty'],
  },
  {
    caller: 'responses → gemini',
    path: '/v1/responses',
    headers: openaiHeaders,
    body: {
      model: 'to-gemini',
      input: 'Hi',
      parallel_tool_calls: false,
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} } }],
    },
    tokens: ['dropped:parallel_tool_calls'],
    never: ['parallelToolCalls'],
  },
  {
    caller: 'responses → anthropic',
    path: '/v1/responses',
    headers: openaiHeaders,
    body: { model: 'to-anthropic', input: 'Hi', include: ['message.output_text.logprobs'], top_logprobs: 3 },
    tokens: ['dropped:include', 'dropped:top_logprobs'],
    never: ['dropped:logprobs', 'topLogprobs'],
  },
  {
    caller: 'interactions → anthropic',
    path: '/v1beta/interactions',
    headers: googleHeaders,
    body: { model: 'to-anthropic', input: 'Hi', store: false, generation_config: { seed: 7 } },
    tokens: ['dropped:generation_config.seed'],
    never: ['dropped:seed'],
  },
];

async function send(c: Case, flag: 'x-interlingua-dry-run' | 'x-interlingua-strict') {
  const res = await app.request(c.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...c.headers, [flag]: 'true' },
    body: JSON.stringify(c.body),
  });
  return { res, json: (await res.json()) as any };
}

describe('loss reports name the caller’s own field', () => {
  it.each(CASES.map((c) => [c.caller, c] as const))('%s: header and dry-run', async (_name, c) => {
    const { res, json } = await send(c, 'x-interlingua-dry-run');
    expect(res.status).toBe(200);
    const header = res.headers.get('x-interlingua-warnings') ?? '';
    const tokens = header.split(', ');
    for (const t of c.tokens) {
      expect(tokens).toContain(t);
      expect(json.warnings).toContain(t);
    }
    for (const n of c.never) expect(`${header},`).not.toContain(n);
  });

  it.each(CASES.map((c) => [c.caller, c] as const))('%s: the strict-mode 400', async (_name, c) => {
    const { res, json } = await send(c, 'x-interlingua-strict');
    expect(res.status).toBe(400);
    const text = JSON.stringify(json);
    expect(text).toMatch(/Strict mode/);
    for (const t of c.tokens) expect(text).toContain(t);
    for (const n of c.never) expect(text).not.toContain(n);
  });
});
