/**
 * Same-dialect requests forwarded without parsing (src/flows/forward/): the upstream gets the
 * caller's bytes exactly, but for the top-level `model` when the route renames it; a `model` key
 * inside the conversation or inside a string is not the routed one; malformed JSON is still a 400
 * in the caller's dialect with nothing sent upstream; a repeated `model` routes as JSON.parse reads
 * it (the last one). Raw bodies (odd spacing, escapes, non-ASCII) sent with fetch.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, responsesE2eConfig, useHarness } from '../support/proxy.ts';
import { FORWARD_MIN_BYTES } from '../../src/flows/forward/index.ts';
import { SDKS, anthropicHeaders, fixtureAnswer } from './helpers-anthropic.ts';

/**
 * A conversation whose text holds a `"model"` key, escapes and non-ASCII, then a nested `model`;
 * long enough to be forwarded (bodies under FORWARD_MIN_BYTES are decoded as before).
 */
const TRICKY_TEXT = `{\\"model\\":\\"gpt-4o\\",\\"stream\\":true} é ☃ 😀 \\\\ \\"q\\" \\u00e9\\n${'lorem ipsum '.repeat(FORWARD_MIN_BYTES / 12)}`;

interface Case {
  name: string;
  path: (model: string) => string;
  headers: Record<string, string>;
  /** The raw body naming `model` (Gemini: the model is in the path, the body never changes). */
  body: (model: string) => string;
  reply: Parameters<typeof fixtureReply>;
  /** A route that keeps the model's name, when there is one. */
  plain?: string;
  renamed: { alias: string; model: string };
  upstreamPath: string;
  errorShape: (body: Record<string, unknown>) => void;
}

/** Text that takes a body past FORWARD_MIN_BYTES. */
const LONG = 'x'.repeat(FORWARD_MIN_BYTES);

const bearer = { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' };
const CASES: Case[] = [
  {
    name: 'anthropic',
    path: () => '/v1/messages',
    headers: anthropicHeaders(),
    body: (m) => `{ "max_tokens" : 10,\n "messages":[{"role":"user","content":[{"type":"text","text":"${TRICKY_TEXT}"}]}],"metadata":{"user_id":"u-1"},  "model" :"${m}" , "temperature":0.5}`,
    reply: ['anthropic', 'text-basic.json'],
    plain: 'claude-sonnet-4-5',
    renamed: { alias: 'to-anthropic', model: 'claude-sonnet-4-5' },
    upstreamPath: '/v1/messages',
    errorShape: (b) => expect(b).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } }),
  },
  {
    name: 'openai-chat',
    path: () => '/v1/chat/completions',
    headers: bearer,
    body: (m) => `{"model":"${m}","messages":[{"role":"system","content":"${TRICKY_TEXT}"},{"role":"user","content":[{"type":"text","text":"hi"}]}],\n"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"object","properties":{"model":{"type":"string"}}}}}}`,
    reply: ['openai-chat', 'text-basic.json'],
    plain: 'gpt-4o',
    renamed: { alias: 'to-openai', model: 'gpt-4o-mini' },
    upstreamPath: '/v1/chat/completions',
    errorShape: (b) => expect(b).toMatchObject({ error: { type: 'invalid_request_error' } }),
  },
  {
    name: 'openai-responses',
    path: () => '/v1/responses',
    headers: bearer,
    body: (m) => `{"input":[{"role":"user","content":[{"type":"input_text","text":"${TRICKY_TEXT}"}]}],"model":"${m}","store":false}`,
    reply: ['openai-responses', 'refusal.json'],
    renamed: { alias: 'to-responses', model: 'gpt-5-mini' },
    upstreamPath: '/v1/responses',
    errorShape: (b) => expect(b).toMatchObject({ error: { type: 'invalid_request_error' } }),
  },
  {
    name: 'gemini',
    path: (m) => `/v1beta/models/${m}:generateContent`,
    headers: { 'x-goog-api-key': INBOUND_KEY, 'content-type': 'application/json' },
    body: () => `{"contents":[{"role":"user","parts":[{"text":"${TRICKY_TEXT}"}]}], "generationConfig":{"temperature":0.5},"model":"not-this-one"}`,
    reply: ['gemini', 'system-instruction.json'],
    plain: 'gemini-2.5-flash',
    renamed: { alias: 'to-gemini', model: 'gemini-2.5-flash' },
    upstreamPath: '/v1beta/models/gemini-2.5-flash:generateContent',
    errorShape: (b) => expect(b).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } }),
  },
];

describe.each(TARGETS)('%s: same-dialect requests forwarded without parsing', (target) => {
  const h = useHarness(target, responsesE2eConfig);

  describe.each(CASES)('$name', (c) => {
    const send = (model: string, body: string) => fetch(`${h.proxy.url}${c.path(model)}`, { method: 'POST', headers: c.headers, body });

    // (Responses: every route to the Responses upstream renames, so that case is the next one.)
    it.skipIf(!c.plain)('the body reaches the upstream byte for byte when the model is not renamed', async () => {
      h.mock.reply(fixtureReply(...c.reply));
      const raw = c.body(c.plain!);
      const res = await send(c.plain!, raw);
      expect(res.status).toBe(200);
      expect(h.mock.requests).toHaveLength(1);
      expect(h.mock.requests[0]!.url).toBe(c.upstreamPath);
      expect(h.mock.requests[0]!.body).toBe(raw);
    });

    it('a renamed model changes the top-level model token and nothing else', async () => {
      h.mock.reply(fixtureReply(...c.reply));
      const raw = c.body(c.renamed.alias);
      const res = await send(c.renamed.alias, raw);
      expect(res.status).toBe(200);
      const got = h.mock.requests[0]!;
      expect(got.url).toBe(c.upstreamPath);
      // Gemini's model is in the path: its body never changes.
      expect(got.body).toBe(c.name === 'gemini' ? raw : raw.replace(`"${c.renamed.alias}"`, `"${c.renamed.model}"`));
      expect(got.body).toContain('\\"model\\":\\"gpt-4o\\"'); // the model key inside the text, untouched
    });

    it('malformed JSON is a 400 in the caller dialect, nothing sent upstream', async () => {
      const raw = c.body(c.renamed.alias);
      for (const bad of [raw.slice(0, -1), raw.replace(/}$/, ',}'), raw.replace('"messages"', '"messages" 1').replace('"contents"', '"contents" 1').replace('"input"', '"input" 1'), `${raw} x`]) {
        const res = await send(c.renamed.alias, bad);
        expect(res.status, bad).toBe(400);
        c.errorShape((await res.json()) as Record<string, unknown>);
      }
      expect(h.mock.requests).toHaveLength(0);
    });
  });

  it('a small body is decoded as before: a rename re-serialises it, to the same JSON', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const raw = '{ "model" : "to-anthropic", "max_tokens":10, "messages":[{"role":"user","content":"hi \\u00e9"}]}';
    const res = await fetch(`${h.proxy.url}/v1/messages`, { method: 'POST', headers: anthropicHeaders(), body: raw });
    expect(res.status).toBe(200);
    expect(h.mock.requests[0]!.json).toEqual({ ...JSON.parse(raw), model: 'claude-sonnet-4-5' });
  });

  it('a repeated top-level model routes as JSON.parse reads it: the last one', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const raw = `{"model":"gpt-4o","messages":[{"role":"user","content":"${LONG}"}],"model":"to-anthropic"}`;
    const res = await fetch(`${h.proxy.url}/v1/chat/completions`, { method: 'POST', headers: bearer, body: raw });
    expect(res.status).toBe(200);
    expect(h.mock.requests[0]!.url).toBe('/v1/messages');
    expect(h.mock.requests[0]!.json.model).toBe('claude-sonnet-4-5');
  });

  it('a model key spelled with escapes is still the top-level model', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const raw = `{"mod\\u0065l":"to-anthropic","max_tokens":10,"messages":[{"role":"user","content":"${LONG}"}]}`;
    const res = await fetch(`${h.proxy.url}/v1/messages`, { method: 'POST', headers: anthropicHeaders(), body: raw });
    expect(res.status).toBe(200);
    expect(h.mock.requests[0]!.json.model).toBe('claude-sonnet-4-5');
  });

  it('a body that arrives in many pieces (400 KB, characters cut across them) is forwarded byte for byte, renamed, and decoded whole for another dialect', async () => {
    const text = 'é☃😀 \\"q\\" '.repeat(26_000);
    const raw = `{"model":"to-anthropic","max_tokens":10,"messages":[{"role":"user","content":"${text}"},{"role":"assistant","content":"ok"},{"role":"user","content":"go"}]}`;
    expect(Buffer.byteLength(raw)).toBeGreaterThan(400_000);
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const res = await fetch(`${h.proxy.url}/v1/messages`, { method: 'POST', headers: anthropicHeaders(), body: raw });
    expect(res.status).toBe(200);
    expect(h.mock.requests[0]!.body).toBe(raw.replace('"to-anthropic"', '"claude-sonnet-4-5"'));
    // The same conversation through Chat Completions to Anthropic: decoded from the pieces.
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const chat = await fetch(`${h.proxy.url}/v1/chat/completions`, { method: 'POST', headers: bearer, body: raw.replace('"max_tokens":10,', '') });
    expect(chat.status).toBe(200);
    expect(h.mock.requests[1]!.json.messages[0].content).toEqual(expect.arrayContaining([expect.objectContaining({ text: JSON.parse(`"${text}"`) })]));
  });

  it('the Anthropic SDK: two agent turns of 400 KB (the second checked from memory) reach the upstream intact, renamed, and the answers parse', async () => {
    const client = SDKS[0]!.make(h.proxy.url);
    const long = `é☃😀 "q" \\ ${'lorem ipsum '.repeat(35_000)}`;
    const turns: Array<{ role: 'user' | 'assistant'; content: string }> = [{ role: 'user', content: long }];
    for (const next of ['first', 'second']) {
      h.mock.requests.length = 0;
      h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
      const msg = await client.messages.create({ model: 'to-anthropic', max_tokens: 64, system: 'Be brief.', messages: [...turns, { role: 'user', content: next }] });
      expect(msg.content[0]).toMatchObject({ type: 'text', text: fixtureAnswer('anthropic', 'text-basic.json') });
      expect(h.mock.requests[0]!.json).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 64, system: 'Be brief.', messages: [...turns, { role: 'user', content: next }] });
      turns.push({ role: 'user', content: next }, { role: 'assistant', content: 'ok' });
    }
  });

  it('the OpenAI SDK: an agent growing its conversation (each turn scanned from where the last left off) is forwarded byte for byte, and a carried signature in a new turn still sends it the decoded way', async () => {
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'Be brief.' }];
    for (let i = 0; i < 60; i++) history.push({ role: 'user', content: `turn ${i}: é ☃ ${'lorem ipsum '.repeat(200)}` }, { role: 'assistant', content: `ok ${i}` });
    const sent = async (messages: OpenAI.ChatCompletionMessageParam[]) => {
      h.mock.requests.length = 0;
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      const done = await client.chat.completions.create({ model: 'to-openai', messages });
      expect(done.choices[0]!.message.content).toBeTruthy();
      return h.mock.requests[0]!;
    };
    // Three turns, each the last one's bytes and a few more: forwarded as they are, renamed.
    for (let t = 0; t < 3; t++) {
      history.push({ role: 'user', content: `next ${t}` });
      const got = await sent(history);
      expect(got.body).toBe(JSON.stringify({ model: 'gpt-4o-mini', messages: history }));
      history.push({ role: 'assistant', content: `done ${t}` });
    }
    // A new turn carries a tool-call id with a Gemini signature in it (src/canonical/carrier.ts):
    // OpenAI did not issue it, so the request is decoded and the id goes as the caller first had it.
    const carried = 'call_1__il1gAAAA';
    const got = await sent([
      ...history,
      { role: 'assistant', content: null, tool_calls: [{ id: carried, type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: carried, content: 'file' },
      { role: 'user', content: 'go on' },
    ]);
    expect(got.body).not.toContain('__il1');
    expect(got.json.messages.at(-2)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  });

  it('a check passed once (the memo of src/flows/forward/check.ts) still answers for the headers it read: the same body without anthropic-version is a 400', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const raw = `{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":"${LONG}"}]}`;
    const first = await fetch(`${h.proxy.url}/v1/messages`, { method: 'POST', headers: anthropicHeaders(), body: raw });
    expect(first.status).toBe(200);
    const { 'anthropic-version': _v, ...noVersion } = anthropicHeaders();
    const res = await fetch(`${h.proxy.url}/v1/messages`, { method: 'POST', headers: noVersion, body: raw.replace('"content":"', '"content":"next turn ') });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('anthropic-version');
    expect(h.mock.requests).toHaveLength(1);
  });

  it('parameters are still checked before anything is sent (temperature out of range, a long conversation)', async () => {
    const turns = Array.from({ length: 200 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} ${'x'.repeat(500)}` }));
    const res = await fetch(`${h.proxy.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders(),
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, temperature: 7, messages: [...turns, { role: 'user', content: 'go' }] }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('temperature');
    expect(h.mock.requests).toHaveLength(0);
  });
});
