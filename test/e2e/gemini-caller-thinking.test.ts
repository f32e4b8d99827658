/**
 * `@google/genai` as the caller: thinking (thought parts from an Anthropic upstream) and
 * signatures — replayed exact to their issuer, never to another vendor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeSignature, mayCarrySignatures } from '../../src/canonical/index.ts';
import { fixtureJson, fixtureSse } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { TARGETS, useHarness } from '../support/proxy.ts';
import { genai, type GoogleGenAI } from './helpers-gemini.ts';

/** The Anthropic stream fixture's thinking text and signature, as the upstream issued them. */
function anthropicStreamThinking(): { text: string; signature: string } {
  let text = '';
  let signature = '';
  for (const e of fixtureSse('anthropic', 'stream-thinking-signature.sse')) {
    const d = JSON.parse(e.data);
    if (d.delta?.type === 'thinking_delta') text += d.delta.thinking;
    if (d.delta?.type === 'signature_delta') signature += d.delta.signature;
  }
  return { text, signature };
}

describe.each(TARGETS)('%s: @google/genai thinking and signatures', (target) => {
  const h = useHarness(target);
  let ai: GoogleGenAI;
  beforeAll(() => {
    ai = genai(h.proxy.url);
  });

  it('a Gemini thought signature in the history is not sent to OpenAI or Anthropic', async () => {
    const fixture = fixtureJson('gemini', 'gemini3-tool-call.json');
    const signature = fixture.candidates[0].content.parts[0].thoughtSignature as string;
    const contents = [
      { role: 'user', parts: [{ text: 'Weather in San Francisco?' }] },
      fixture.candidates[0].content,
      { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { output: 'Sunny' } } }] },
    ];
    for (const [model, dialect] of [
      ['to-openai', 'openai-chat'],
      ['to-anthropic', 'anthropic'],
    ] as const) {
      h.mock.reply(fixtureReply(dialect, 'text-basic.json'));
      const res = await ai.models.generateContent({ model, contents });
      const sent = h.mock.requests.at(-1)!.body;
      expect(sent).not.toContain(signature.slice(0, 24));
      expect(mayCarrySignatures(sent)).toBe(false);
      expect(res.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toContain('signature-not-replayed');
    }
  });

  it('thinking: includeThoughts returns thought parts from Anthropic; the signature goes back exact', async () => {
    h.mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
    const fixture = fixtureJson('anthropic', 'thinking-signature.json');
    const question = { role: 'user', parts: [{ text: 'What is 925 / 5?' }] };
    const res = await ai.models.generateContent({
      model: 'to-anthropic',
      contents: [question],
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
    });
    expect(h.mock.requests[0]!.json.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const parts = res.candidates![0]!.content!.parts!;
    expect(parts[0]).toMatchObject({ thought: true, text: fixture.content[0].thinking });
    expect(parts[0]!.thoughtSignature).toEqual(expect.any(String));
    expect(res.text).toBe('925 ÷ 5 = 185');

    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await ai.models.generateContent({
      model: 'to-anthropic',
      contents: [question, res.candidates![0]!.content!, { role: 'user', parts: [{ text: 'And times 2?' }] }],
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
    });
    const assistant = h.mock.requests[1]!.json.messages[1];
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: fixture.content[0].thinking, signature: fixture.content[0].signature });
    expect(assistant.content[1]).toMatchObject({ type: 'text', text: '925 ÷ 5 = 185' });
  });

  it('thinking in a streamed chat: the chat history carries the Anthropic signature back exact', async () => {
    const expected = anthropicStreamThinking();
    h.mock.reply(fixtureReply('anthropic', 'stream-thinking-signature.sse'));
    const chat = ai.chats.create({ model: 'to-anthropic', config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } } });
    let thoughts = '';
    for await (const chunk of await chat.sendMessageStream({ message: 'Divide the previous result by 5.' })) {
      for (const p of chunk.candidates?.[0]?.content?.parts ?? []) if (p.thought) thoughts += p.text ?? '';
    }
    expect(thoughts).toBe(expected.text);

    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await chat.sendMessage({ message: 'Thanks. And again?' });
    const assistant = h.mock.requests[1]!.json.messages[1];
    expect(assistant.role).toBe('assistant');
    const thinking = assistant.content.filter((b: any) => b.type === 'thinking');
    expect(thinking).toEqual([{ type: 'thinking', thinking: expected.text, signature: expected.signature }]);
  });

  it('thinking signatures from Anthropic are not replayed to another vendor', async () => {
    h.mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
    const question = { role: 'user', parts: [{ text: 'What is 925 / 5?' }] };
    const res = await ai.models.generateContent({ model: 'to-anthropic', contents: [question], config: { thinkingConfig: { includeThoughts: true } } });
    const signature = fixtureJson('anthropic', 'thinking-signature.json').content[0].signature as string;
    h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const next = await ai.models.generateContent({
      model: 'to-openai',
      contents: [question, res.candidates![0]!.content!, { role: 'user', parts: [{ text: 'And times 2?' }] }],
    });
    expect(next.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toContain('signature-not-replayed');
    expect(h.mock.requests[1]!.body).not.toContain(signature.slice(0, 24));
    expect(mayCarrySignatures(h.mock.requests[1]!.body)).toBe(false);
  });

  it('an Anthropic signature in a Gemini history is not passed through to a Gemini upstream', async () => {
    h.mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
    const question = { role: 'user', parts: [{ text: 'What is 925 / 5?' }] };
    const res = await ai.models.generateContent({ model: 'to-anthropic', contents: [question], config: { thinkingConfig: { includeThoughts: true } } });
    const carried = res.candidates![0]!.content!.parts![0]!.thoughtSignature!;
    // format: byte: standard base64, the origin tag inside the bytes (src/canonical/carrier.ts).
    expect(carried).toMatch(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
    expect(decodeSignature(carried)?.origin).toBe('anthropic');

    h.mock.reply({ body: JSON.stringify(fixtureJson('gemini', 'system-instruction.json')) });
    const next = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [question, res.candidates![0]!.content!, { role: 'user', parts: [{ text: 'And times 2?' }] }],
    });
    expect(next.text).toBe('low');
    const sent = h.mock.requests[1]!;
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(mayCarrySignatures(sent.body)).toBe(false);
    expect(sent.body).not.toContain(fixtureJson('anthropic', 'thinking-signature.json').content[0].signature.slice(0, 24));
    // The answer text is still there; the foreign thought is not.
    expect(sent.json.contents[1]).toEqual({ role: 'model', parts: [{ text: '925 ÷ 5 = 185' }] });
    expect(next.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toContain('signature-not-replayed');
  });
});
