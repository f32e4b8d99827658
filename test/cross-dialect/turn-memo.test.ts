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
  const app = createApp({
    config: parseConfig(responsesE2eConfig('http://upstream.test', { keys: [KEY_A, KEY_B], limits })),
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

function request(caller: Dialect, upstream: Dialect, c: Conversation, stream: boolean, key: string) {
  const model = ROUTE[upstream];
  const body = JSON.stringify(render(caller, c, model, stream));
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
