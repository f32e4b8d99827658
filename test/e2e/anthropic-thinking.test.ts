/**
 * Thinking and images through Interlingua with `@anthropic-ai/sdk` (1.x and 0.x) as the caller:
 * reasoning settings in each upstream's dialect, signatures replayed only to their issuer, and
 * image blocks (base64 and URL; URLs fetched by the guarded fetcher for Gemini).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureJson, fixtureText } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream, type MockReply, type MockUpstream } from '../support/mock-upstream.ts';
import { TARGETS, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';
import { SDKS, fixtureAnswer, type AnthropicClient } from './helpers-anthropic.ts';

const PIXEL = fixtureJson('anthropic', 'image-input.request.json').messages[0].content.find((b: any) => b.type === 'image').source;
const IMAGE_BYTES = 'fake-png-bytes-for-the-guarded-fetcher';

describe.each(TARGETS)('%s: Anthropic SDK thinking and images → Interlingua', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  /** Serve the image from the mock itself (127.0.0.1 is in fetchAllowHosts), else `reply`. */
  const replyWithImage = (reply: MockReply) =>
    mock.reply((r) =>
      r.method === 'GET' && r.url === '/img/cat.png' ? { status: 200, headers: { 'content-type': 'image/png' }, body: IMAGE_BYTES } : reply,
    );

  beforeAll(async () => {
    mock = await startMockUpstream();
    proxy = await startProxy(e2eConfig(mock.url), {}, target);
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  describe.each(SDKS)('$name', (sdk) => {
    let client: AnthropicClient;
    beforeAll(() => {
      client = sdk.make(proxy.url);
    });
    const ask = (model: string, extra: Record<string, unknown> = {}) =>
      ({ model, max_tokens: 4096, messages: [{ role: 'user' as const, content: 'What is 925 / 5?' }], ...extra }) as never;

    it('thinking enabled → reasoning_effort (OpenAI), thinkingConfig (Gemini), untouched (Anthropic)', async () => {
      const thinking = { type: 'enabled', budget_tokens: 2048 };
      mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      await client.messages.create(ask('to-openai', { thinking }));
      expect(mock.requests[0]!.json.reasoning_effort).toBe('low');
      expect(mock.requests[0]!.json.thinking).toBeUndefined();

      mock.reply(fixtureReply('gemini', 'thinking-thought-part.json'));
      const g = await client.messages.create(ask('to-gemini', { thinking }));
      expect(mock.requests[1]!.json.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 2048, includeThoughts: true });
      // Gemini's thought summary comes back as a thinking block.
      const thought = fixtureJson('gemini', 'thinking-thought-part.json').candidates[0].content.parts[0].text;
      expect(g.content[0]).toMatchObject({ type: 'thinking', thinking: thought });
      expect(g.stop_reason).toBe('max_tokens');

      mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
      await client.messages.create(ask('to-anthropic', { thinking }));
      expect(mock.requests[2]!.json.thinking).toEqual(thinking);
    });

    it('Anthropic thinking blocks come back with their signature and are replayed byte for byte', async () => {
      const fixture = fixtureJson('anthropic', 'thinking-signature.json');
      mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
      const first = await client.messages.create(ask('to-anthropic', { thinking: { type: 'enabled', budget_tokens: 2048 } }));
      expect(first.content[0]).toEqual(fixture.content[0]);

      mock.reply(fixtureReply('anthropic', 'text-basic.json'));
      await client.messages.create(
        ask('to-anthropic', {
          thinking: { type: 'enabled', budget_tokens: 2048 },
          messages: [
            { role: 'user', content: 'What is 925 / 5?' },
            { role: 'assistant', content: first.content },
            { role: 'user', content: 'And divided by 5 again?' },
          ],
        }),
      );
      const replayed = mock.requests[1]!.json.messages[1].content[0];
      expect(replayed).toEqual({ type: 'thinking', thinking: fixture.content[0].thinking, signature: fixture.content[0].signature });
    });

    it('streamed Anthropic thinking: thinking and signature deltas assemble the block', async () => {
      mock.reply(fixtureReply('anthropic', 'stream-thinking-signature.sse'));
      const stream = client.messages.stream(ask('to-anthropic', { thinking: { type: 'enabled', budget_tokens: 2048 } }));
      const final = await stream.finalMessage();
      const block = final.content[0];
      if (block?.type !== 'thinking') throw new Error('no thinking block');
      expect(block.thinking).toContain('925 ÷ 5 = 185');
      expect(block.signature).toMatch(/^EvQBCkYICxgCKkAxhD4/);
    });

    it('a Gemini thought signature round-trips through the Anthropic caller back to Gemini unchanged', async () => {
      const raw = fixtureJson('gemini', 'gemini3-text-thought-signature.json').candidates[0].content.parts[0];
      mock.reply(fixtureReply('gemini', 'gemini3-text-thought-signature.json'));
      const first = await client.messages.create(ask('to-gemini'));
      const text = first.content.find((b) => b.type === 'text');
      expect(text).toMatchObject({ type: 'text', text: raw.text });
      const carrier = first.content.find((b) => b.type === 'thinking');
      expect(carrier?.type === 'thinking' && carrier.signature).toBeTruthy();
      expect(carrier?.type === 'thinking' && carrier.signature).not.toBe(raw.thoughtSignature);

      const history = {
        messages: [
          { role: 'user', content: 'How many r in strawberry?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: 'Are you sure?' },
        ],
      };
      mock.reply(fixtureReply('gemini', 'system-instruction.json'));
      await client.messages.create(ask('to-gemini', history));
      const model = mock.requests[1]!.json.contents[1];
      expect(model.role).toBe('model');
      expect(model.parts).toEqual([{ text: raw.text, thoughtSignature: raw.thoughtSignature }]);

      // The same conversation to OpenAI: the Gemini signature is not replayed there.
      mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      const { response } = await client.messages.create(ask('to-openai', history)).withResponse();
      expect(mock.requests[2]!.body).not.toContain(raw.thoughtSignature);
      expect(mock.requests[2]!.json.messages[1]).toMatchObject({ role: 'assistant', content: raw.text });
      expect(response.headers.get('x-interlingua-warnings')).toContain('signature-not-replayed');
    });

    it('streamed Gemini signatures (on text and on a function call) come back to Gemini unchanged', async () => {
      const sigOf = (file: string, key: 'text' | 'functionCall') => {
        const lines = fixtureText('gemini', file).split('\n').filter((l) => l.startsWith('data: '));
        for (const l of lines) for (const p of JSON.parse(l.slice(6)).candidates?.[0]?.content?.parts ?? []) if (p[key] !== undefined && p.thoughtSignature) return p.thoughtSignature as string;
        throw new Error(`no signature in ${file}`);
      };
      for (const [file, key] of [['stream-gemini3-text-thought-signature.sse', 'text'], ['stream-gemini3-tool-call.sse', 'functionCall']] as const) {
        mock.requests.length = 0;
        mock.reply(fixtureReply('gemini', file));
        const tools = [{ name: 'weather', input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } } }];
        const final = await client.messages.stream(ask('to-gemini', { tools })).finalMessage();
        const use = final.content.find((b) => b.type === 'tool_use');
        const next = use?.type === 'tool_use' ? [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny' }] : 'More?';
        mock.reply(fixtureReply('gemini', 'system-instruction.json'));
        await client.messages.create(
          ask('to-gemini', { tools, messages: [{ role: 'user', content: 'Go' }, { role: 'assistant', content: final.content }, { role: 'user', content: next }] }),
        );
        const model = mock.requests[1]!.json.contents[1];
        expect(model.role).toBe('model');
        const signed = model.parts.filter((p: any) => p.thoughtSignature);
        expect(signed).toHaveLength(1);
        expect(signed[0][key]).toBeDefined();
        expect(signed[0].thoughtSignature).toBe(sigOf(file, key));
      }
    });

    it('an Anthropic signature is never sent to Gemini', async () => {
      const fixture = fixtureJson('anthropic', 'thinking-signature.json');
      mock.reply(fixtureReply('gemini', 'system-instruction.json'));
      const { response } = await client.messages
        .create(
          ask('to-gemini', {
            messages: [
              { role: 'user', content: 'What is 925 / 5?' },
              { role: 'assistant', content: fixture.content },
              { role: 'user', content: 'Thanks' },
            ],
          }),
        )
        .withResponse();
      expect(mock.requests[0]!.body).not.toContain(fixture.content[0].signature);
      expect(JSON.stringify(mock.requests[0]!.json.contents[1])).toContain('925 ÷ 5 = 185');
      expect(response.headers.get('x-interlingua-warnings')).toContain('signature-not-replayed');
    });

    it('images: base64 to every upstream; URL as a URL to OpenAI, fetched and inlined for Gemini', async () => {
      const url = `${mock.url}/img/cat.png`;
      const content = [
        { type: 'text', text: 'Describe both.' },
        { type: 'image', source: PIXEL },
        { type: 'image', source: { type: 'url', url } },
      ];
      const req = ask('to-openai', { messages: [{ role: 'user', content }] });

      replyWithImage(fixtureReply('openai-chat', 'text-basic.json'));
      const o = await client.messages.create(req);
      expect(o.content[0]).toMatchObject({ type: 'text', text: fixtureAnswer('openai-chat', 'text-basic.json') });
      const parts = mock.requests[0]!.json.messages[0].content;
      expect(parts[1]).toEqual({ type: 'image_url', image_url: { url: `data:${PIXEL.media_type};base64,${PIXEL.data}` } });
      expect(parts[2]).toEqual({ type: 'image_url', image_url: { url } });
      expect(mock.requests).toHaveLength(1);

      mock.requests.length = 0;
      replyWithImage(fixtureReply('gemini', 'system-instruction.json'));
      await client.messages.create({ ...(req as object), model: 'to-gemini' } as never);
      const fetched = mock.requests.find((r) => r.method === 'GET');
      expect(fetched?.url).toBe('/img/cat.png');
      const gen = mock.requests.find((r) => r.method === 'POST')!;
      const gparts = gen.json.contents[0].parts;
      expect(gparts[1]).toEqual({ inlineData: { mimeType: PIXEL.media_type, data: PIXEL.data } });
      expect(gparts[2]).toEqual({ inlineData: { mimeType: 'image/png', data: Buffer.from(IMAGE_BYTES).toString('base64') } });

      mock.requests.length = 0;
      replyWithImage(fixtureReply('anthropic', 'text-basic.json'));
      await client.messages.create({ ...(req as object), model: 'to-anthropic' } as never);
      expect(mock.requests).toHaveLength(1);
      expect(mock.requests[0]!.json.messages[0].content).toEqual(content);
    });

    it('an image URL the guarded fetcher refuses is a 400 and nothing is generated', async () => {
      mock.reply(fixtureReply('gemini', 'system-instruction.json'));
      const err = await client.messages
        .create(
          ask('to-gemini', {
            messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'http://169.254.169.254/latest/meta-data' } }] }],
          }),
        )
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(sdk.errors.BadRequestError);
      expect(mock.requests).toHaveLength(0);
    });
  });
});
