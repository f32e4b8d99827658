/**
 * The turn memo changes no byte: for every caller dialect (OpenAI Chat, Anthropic, Responses,
 * Gemini) to every upstream dialect (the same four), an agent's growing conversation sent turn
 * after turn — each turn the last one and a tool call with its result, now and then an edit in the
 * middle of the history, another system prompt, other tools, another caller's conversation
 * interleaved, streams on and off — reaches the upstream as the same bytes with the memo on as
 * with it off (a full translation every time).
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { conversation, jsonAnswer, render, streamAnswer, type Conversation, type Dialect } from '../../bench/agent-bodies.ts';
import { responsesE2eConfig } from '../support/proxy.ts';

const KEY_A = 'il-key-A-0123456789abcdef';
const KEY_B = 'il-key-B-fedcba9876543210';
const DIALECTS: Dialect[] = ['openai', 'anthropic', 'responses', 'gemini'];
const ROUTE: Record<Dialect, string> = { openai: 'to-openai', anthropic: 'to-anthropic', gemini: 'to-gemini', responses: 'to-responses' };

/** The upstream's dialect, from the path it was called at. */
const dialectAt = (url: string): Dialect => (url.includes('/chat/completions') ? 'openai' : url.includes('/messages') ? 'anthropic' : url.includes('/responses') ? 'responses' : 'gemini');

/** A proxy whose upstream answers every dialect, recording each body it was sent. */
function proxy(limits: Record<string, number>) {
  const sent: Uint8Array[] = [];
  const base = responsesE2eConfig('http://upstream.test', { keys: [KEY_A, KEY_B], limits });
  // OpenAI Chat hosts with knobs that change how a message encodes (text joined, reasoning replayed, ids mapped).
  const hosts = Object.fromEntries(['deepseek', 'mistral'].map((provider) => [provider, { dialect: 'openai', provider, baseUrl: 'http://upstream.test/v1', apiKey: `sk-${provider}`, retry: { attempts: 1 } }]));
  const app = createApp({
    config: parseConfig({ ...base, upstreams: { ...base.upstreams, ...hosts }, models: { ...base.models, 'to-deepseek': { upstream: 'deepseek', model: 'deepseek-chat' }, 'to-mistral': { upstream: 'mistral', model: 'mistral-large' } } }),
    fetch: async (url: string, init: RequestInit) => {
      const body = init.body as Uint8Array | string;
      sent.push(typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body));
      const d = dialectAt(String(url));
      const stream = /:streamGenerateContent/.test(String(url)) || /"stream":true/.test(new TextDecoder().decode(sent.at(-1)!));
      return stream ? new Response(streamAnswer(d, 12).join(''), { headers: { 'content-type': 'text/event-stream' } }) : new Response(jsonAnswer(d), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { app, sent };
}

function request(caller: Dialect, upstream: Dialect, c: Conversation, stream: boolean, key: string, model = ROUTE[upstream], edit = (b: Record<string, unknown>) => b) {
  const body = JSON.stringify(edit(render(caller, c, model, stream) as Record<string, unknown>));
  const auth: Record<string, string> = caller === 'anthropic' ? { 'x-api-key': key, 'anthropic-version': '2023-06-01' } : caller === 'gemini' ? { 'x-goog-api-key': key } : { authorization: `Bearer ${key}` };
  const path = caller === 'openai' ? '/v1/chat/completions' : caller === 'anthropic' ? '/v1/messages' : caller === 'responses' ? '/v1/responses' : `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
  return { path, init: { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body } };
}

/** The turns an agent sends: growing, with edits, another system prompt and other tools along the way. */
function turns(seed: number): Conversation[] {
  const full = conversation(150_000, seed);
  const out: Conversation[] = [];
  let c: Conversation = { ...full, turns: full.turns.slice(0, 8) };
  for (let i = 0; i < 9; i++) {
    c = { ...c, turns: full.turns.slice(0, 8 + i).map((t, j) => c.turns[j] ?? t) };
    if (i === 3) c = { ...c, turns: c.turns.map((t, j) => (j === 4 ? { ...t, result: `${t.result} (edited)` } : t)) };
    if (i === 5) c = { ...c, system: `${c.system} And be brief.` };
    if (i === 7) c = { ...c, tools: c.tools.slice(1) };
    out.push(c);
  }
  return out;
}

describe('the turn memo: the same upstream bytes as a full translation', () => {
  const on = proxy({ turnMemoBytes: 32 * 1024 * 1024, turnMemoFromBytes: 0 });
  const off = proxy({ turnMemoBytes: 0 });
  const a = turns(21);
  const b = turns(22);
  for (const caller of DIALECTS) {
    for (const upstream of DIALECTS) {
      it(`${caller} → ${upstream}`, async () => {
        for (let i = 0; i < a.length; i++) {
          // Caller B's conversation between caller A's turns; streams every other turn.
          for (const [c, key] of [[a[i]!, KEY_A], [b[i]!, KEY_B]] as const) {
            const r = request(caller, upstream, c, i % 2 === 1, key);
            for (const p of [on, off]) {
              const res = await p.app.request(r.path, r.init);
              expect(res.status, await res.clone().text()).toBe(200);
              await res.arrayBuffer();
            }
            const [x, y] = [on.sent.at(-1)!, off.sent.at(-1)!];
            expect(on.sent.length).toBe(off.sent.length);
            expect(Buffer.from(x).equals(Buffer.from(y)), `turn ${i}`).toBe(true);
          }
        }
      });
    }
  }
});

describe('the turn memo: the same upstream bytes to OpenAI Chat hosts that encode a message otherwise', () => {
  const on = proxy({ turnMemoBytes: 32 * 1024 * 1024, turnMemoFromBytes: 0 });
  const off = proxy({ turnMemoBytes: 0 });
  // Two text parts in every assistant turn: DeepSeek takes them as one string, the others as parts.
  const twoTexts = (b: Record<string, unknown>) => ({
    ...b,
    messages: (b['messages'] as { role: string; content: unknown[] }[]).map((m) => (m.role === 'assistant' ? { ...m, content: [m.content[0], { type: 'text', text: 'then:' }, ...m.content.slice(1)] } : m)),
  });
  it('anthropic → openai, deepseek and mistral in turn, one caller, the same kept messages', async () => {
    const a = turns(23);
    const seen = new Map<string, unknown>();
    for (let i = 0; i < a.length; i++) {
      for (const model of ['to-openai', 'to-deepseek', 'to-mistral']) {
        const r = request('anthropic', 'openai', a[i]!, i % 2 === 1, KEY_A, model, twoTexts);
        for (const p of [on, off]) {
          const res = await p.app.request(r.path, r.init);
          expect(res.status, await res.clone().text()).toBe(200);
          await res.arrayBuffer();
        }
        const [x, y] = [on.sent.at(-1)!, off.sent.at(-1)!];
        expect(Buffer.from(x).equals(Buffer.from(y)), `turn ${i} ${model}`).toBe(true);
        seen.set(model, (JSON.parse(Buffer.from(x).toString()) as { messages: unknown[] }).messages[2]);
      }
    }
    // The hosts' knobs were in play: the same message went out three ways.
    expect(seen.get('to-openai')).toMatchObject({ content: [{ text: expect.any(String) }, { text: 'then:' }], tool_calls: [{ id: expect.stringMatching(/_/) }] });
    expect(seen.get('to-deepseek')).toMatchObject({ content: expect.stringMatching(/\n\nthen:$/) });
    expect(seen.get('to-mistral')).toMatchObject({ tool_calls: [{ id: expect.stringMatching(/^[a-zA-Z0-9]{9}$/) }] });
  });
});
