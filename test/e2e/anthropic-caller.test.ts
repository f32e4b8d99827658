/**
 * `@anthropic-ai/sdk` (1.x and 0.x) as the caller, through a real Interlingua server, against
 * mock upstreams of all three chat dialects and the Anthropic passthrough: text, system prompts,
 * sampling settings, streaming, token counting and the model list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import {
  SDKS,
  UPSTREAMS,
  anthropicHeaders,
  fixtureAnswer,
  fixtureStreamAnswer,
  fixtureStreamUsage,
  receivedSystem,
  receivedUserTexts,
  type AnthropicClient,
} from './helpers-anthropic.ts';

const user = (text: string) => ({ role: 'user' as const, content: text });

describe.each(TARGETS)('%s: Anthropic SDK → Interlingua', (target) => {
  const h = useHarness(target);

  describe.each(SDKS)('$name', (sdk) => {
    let client: AnthropicClient;
    beforeAll(() => {
      client = sdk.make(h.proxy.url);
    });

    describe.each(UPSTREAMS)('→ $model ($dialect)', (up) => {
      it('messages.create: text answer, the upstream gets the prompt in its dialect with its own key', async () => {
        h.mock.reply(fixtureReply(up.dialect, up.text));
        const msg = await client.messages.create({ model: up.model, max_tokens: 256, messages: [user('Say hello')] });
        expect(msg.type).toBe('message');
        expect(msg.role).toBe('assistant');
        expect(msg.id).toMatch(/^msg_/);
        const text = msg.content.filter((b) => b.type === 'text').map((b) => (b.type === 'text' ? b.text : '')).join('');
        expect(text).toBe(fixtureAnswer(up.dialect, up.text));
        expect(msg.stop_reason).toBe('end_turn');
        expect(msg.usage.input_tokens).toBeGreaterThan(0);
        expect(msg.usage.cache_read_input_tokens ?? 0).toBeGreaterThanOrEqual(0);

        expect(h.mock.requests).toHaveLength(1);
        const got = h.mock.requests[0]!;
        expect(got.url).toBe(up.path);
        expect(receivedUserTexts(up.dialect, got)).toEqual(['Say hello']);
        if (up.dialect === 'openai-chat') {
          expect(got.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
          expect(got.json.model).toBe('gpt-4o-mini');
          expect(got.json.max_completion_tokens ?? got.json.max_tokens).toBe(256);
        } else if (up.dialect === 'gemini') {
          expect(got.headers['x-goog-api-key']).toBe(UPSTREAM_KEYS.gemini);
          expect(got.json.generationConfig.maxOutputTokens).toBe(256);
        } else {
          expect(got.headers['x-api-key']).toBe(UPSTREAM_KEYS.anthropic);
          expect(got.headers.authorization).toBeUndefined();
          expect(got.json.model).toBe('claude-sonnet-4-5');
          expect(got.json.max_tokens).toBe(256);
          // Passthrough forwards the caller's own API version.
          expect(got.headers['anthropic-version']).toBe(sdk.version);
        }
      });

      it('system prompt (string), stop_sequences and temperature reach the upstream', async () => {
        h.mock.reply(fixtureReply(up.dialect, up.text));
        await client.messages.create({
          model: up.model,
          max_tokens: 100,
          system: 'You are terse.',
          stop_sequences: ['END', '###'],
          // Deprecated in 0.x and gone from the 1.x types, still accepted on the wire.
          temperature: 0.3,
          messages: [user('Hi')],
        } as never);
        const got = h.mock.requests[0]!;
        expect(receivedSystem(up.dialect, got)).toBe('You are terse.');
        const j = got.json;
        if (up.dialect === 'openai-chat') {
          expect(j.stop).toEqual(['END', '###']);
          expect(j.temperature).toBe(0.3);
        } else if (up.dialect === 'gemini') {
          expect(j.generationConfig.stopSequences).toEqual(['END', '###']);
          expect(j.generationConfig.temperature).toBe(0.3);
        } else {
          expect(j.stop_sequences).toEqual(['END', '###']);
          expect(j.temperature).toBe(0.3);
        }
      });

      it('system as text blocks, consecutive user turns merged', async () => {
        h.mock.reply(fixtureReply(up.dialect, up.text));
        await client.messages.create({
          model: up.model,
          max_tokens: 100,
          system: [{ type: 'text', text: 'Rule one.' }, { type: 'text', text: 'Rule two.' }],
          messages: [user('First'), user('Second')],
        });
        const got = h.mock.requests[0]!;
        expect(receivedSystem(up.dialect, got)?.replace(/\s+/g, ' ')).toMatch(/Rule one\.\s?Rule two\./);
        const texts = receivedUserTexts(up.dialect, got).join('|');
        expect(texts).toContain('First');
        expect(texts).toContain('Second');
        if (!up.passthrough) expect(receivedUserTexts(up.dialect, got)).toHaveLength(1);
      });

      it('messages.stream().finalMessage(): text reassembled, stream closed properly', async () => {
        h.mock.reply(fixtureReply(up.dialect, up.streamText));
        const stream = client.messages.stream({ model: up.model, max_tokens: 256, messages: [user('Count to three')] });
        const events: string[] = [];
        stream.on('streamEvent', (e) => events.push(e.type));
        const final = await stream.finalMessage();
        const text = final.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        expect(text).toBe(fixtureStreamAnswer(up.dialect, up.streamText));
        expect(final.stop_reason).toBe('end_turn');
        const usage = fixtureStreamUsage(up.dialect, up.streamText);
        expect(final.usage).toMatchObject({ input_tokens: usage.input, output_tokens: usage.output });
        expect(events[0]).toBe('message_start');
        expect(events.at(-1)).toBe('message_stop');
        expect(events).toContain('message_delta');
        expect(h.mock.requests[0]!.url).toBe(up.streamPath);
        if (up.dialect !== 'gemini') expect(h.mock.requests[0]!.json.stream).toBe(true);
      });
    });

    it('role:"system" inside messages (API 2026-10-21 form) becomes the system prompt upstream', async () => {
      if (sdk.version !== '2026-10-21') return;
      for (const up of UPSTREAMS.filter((u) => !u.passthrough)) {
        h.mock.requests.length = 0;
        h.mock.reply(fixtureReply(up.dialect, up.text));
        await client.messages.create({
          model: up.model,
          max_tokens: 100,
          messages: [{ role: 'system', content: 'Answer in French.' } as never, user('Hello')],
        });
        expect(receivedSystem(up.dialect, h.mock.requests[0]!)).toBe('Answer in French.');
        expect(receivedUserTexts(up.dialect, h.mock.requests[0]!)).toEqual(['Hello']);
      }
    });

    it('count_tokens: forwarded to Anthropic, :countTokens for Gemini, estimated for OpenAI', async () => {
      const params = { messages: [user('How many tokens is this?')], system: 'Be brief.' };
      h.mock.reply({ status: 200, body: JSON.stringify({ input_tokens: 42 }) });
      const a = await client.messages.countTokens({ model: 'to-anthropic', ...params }).withResponse();
      expect(a.data.input_tokens).toBe(42);
      expect(h.mock.requests[0]!.url).toBe('/v1/messages/count_tokens');
      expect(h.mock.requests[0]!.json.max_tokens).toBeUndefined();
      expect(h.mock.requests[0]!.json.system).toBe('Be brief.');
      expect(a.response.headers.get('x-interlingua-token-count')).toBeNull();

      h.mock.reply({ status: 200, body: JSON.stringify({ totalTokens: 17 }) });
      const g = await client.messages.countTokens({ model: 'to-gemini', ...params });
      expect(g.input_tokens).toBe(17);
      expect(h.mock.requests[1]!.url).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
      expect(JSON.stringify(h.mock.requests[1]!.json)).toContain('How many tokens is this?');

      const o = await client.messages.countTokens({ model: 'to-openai', ...params }).withResponse();
      expect(o.data.input_tokens).toBeGreaterThan(0);
      expect(o.response.headers.get('x-interlingua-token-count')).toBe('estimated');
      expect(h.mock.requests).toHaveLength(2);
    });

    it('models.list returns Anthropic-shaped model entries', async () => {
      const page = await client.models.list();
      const ids = page.data.map((m) => m.id);
      expect(ids).toEqual(expect.arrayContaining(['to-openai', 'to-anthropic', 'to-gemini']));
      for (const m of page.data) {
        expect(m.type).toBe('model');
        expect(typeof m.display_name).toBe('string');
        expect(Number.isNaN(Date.parse(m.created_at))).toBe(false);
      }
      // Only the upstreams' own model lists were asked (merged behind a cache), nothing else.
    expect(h.mock.requests.every((r) => r.method === 'GET' && /\/models/.test(r.url))).toBe(true);
    });
  });

  it('passthrough keeps the body byte for byte and the caller version; no anthropic-version is a 400', async () => {
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const raw = '{"model":"claude-sonnet-4-5",  "max_tokens":10,"messages":[{"role":"user","content":"hi"}]}';
    const res = await fetch(`${h.proxy.url}/v1/messages`, { method: 'POST', headers: anthropicHeaders(), body: raw });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(fixtureJson('anthropic', 'text-basic.json').id);
    expect(h.mock.requests[0]!.body).toBe(raw);

    const { 'anthropic-version': _v, ...noVersion } = anthropicHeaders();
    const bad = await fetch(`${h.proxy.url}/v1/messages`, { method: 'POST', headers: noVersion, body: raw });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain('anthropic-version');
    expect(h.mock.requests).toHaveLength(1);
  });
});
