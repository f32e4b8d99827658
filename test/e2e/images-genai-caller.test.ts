/**
 * `@google/genai` asking for IMAGE output from a model routed to an OpenAI image model: the
 * generateContent call becomes an images call (generation, or edit with input images) and the
 * images come back as inlineData parts; streamed, one chunk per image.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../translators/openai-images/test-images.ts';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import { apiErrorOf, genai, rejection, type GoogleGenAI } from './helpers-gemini.ts';
import { asMockText, imagesConfig, receivedForm } from './images-support.ts';

const IMAGE = { responseModalities: ['TEXT', 'IMAGE'] };

describe.each(TARGETS)('%s: @google/genai IMAGE output → Interlingua → OpenAI images', (target) => {
  const h = useHarness(target, imagesConfig);
  let ai: GoogleGenAI;
  beforeAll(() => {
    ai = genai(h.proxy.url);
  });

  it('generation: an images call upstream; the image comes back as inlineData with usage', async () => {
    h.mock.reply(fixtureReply('openai-images', 'generations-gpt-image-1-usage-real.json'));
    const expected = fixtureJson('openai-images', 'generations-gpt-image-1-usage-real.json');
    const res = await ai.models.generateContent({ model: 'gpt-image-1', contents: 'A watercolour fox', config: IMAGE });
    expect(h.mock.requests).toHaveLength(1);
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1/images/generations');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
    expect(sent.json).toEqual({ model: 'gpt-image-1', prompt: 'A watercolour fox' });
    const parts = res.candidates![0]!.content!.parts!;
    expect(parts).toEqual([{ inlineData: { mimeType: 'image/png', data: expected.data[0].b64_json } }]);
    expect(res.candidates![0]!.finishReason).toBe('STOP');
    expect(res.usageMetadata).toMatchObject({ promptTokenCount: 36, candidatesTokenCount: 4160, totalTokenCount: 4196 });
  });

  it('aspect ratio → size, b64 asked of dall-e-3; the revised prompt comes back as text', async () => {
    h.mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const expected = fixtureJson('openai-images', 'generations-b64-revised-prompt.json');
    h.mock.reply({ body: JSON.stringify({ ...expected, data: [expected.data[0]] }) });
    const res = await ai.models.generateContent({
      model: 'gemini-draw-dalle',
      contents: 'A sea otter',
      config: { ...IMAGE, imageConfig: { aspectRatio: '16:9' } },
    });
    expect(h.mock.requests[0]!.json).toEqual({ model: 'dall-e-3', prompt: 'A sea otter', size: '1792x1024', response_format: 'b64_json' });
    expect(res.candidates![0]!.content!.parts).toEqual([
      { text: expected.data[0].revised_prompt },
      { inlineData: { mimeType: 'image/png', data: expected.data[0].b64_json } },
    ]);
  });

  it('input images make it an edit: multipart upstream with the image and the prompt', async () => {
    h.mock.reply(fixtureReply('openai-images', 'edits-gpt-image-output-metadata.json'));
    const expected = fixtureJson('openai-images', 'edits-gpt-image-output-metadata.json');
    const image = png(32, 32);
    const res = await ai.models.generateContent({
      model: 'gpt-image-1',
      contents: [{ role: 'user', parts: [{ text: 'Make it blue' }, { inlineData: { mimeType: 'image/png', data: Buffer.from(image).toString('base64') } }] }],
      config: IMAGE,
    });
    const sent = h.mock.requests[0]!;
    expect(sent.url).toBe('/v1/images/edits');
    const form = await receivedForm(sent);
    expect([form.get('model'), form.get('prompt')]).toEqual(['gpt-image-1', 'Make it blue']);
    expect(await (form.get('image') as File).text()).toBe(asMockText(image));
    expect(res.data).toBe(expected.data[0].b64_json);
  });

  it('stream with candidateCount 2: n=2 upstream, one chunk per image', async () => {
    h.mock.reply(fixtureReply('openai-images', 'generations-b64-revised-prompt.json'));
    const expected = fixtureJson('openai-images', 'generations-b64-revised-prompt.json');
    const stream = await ai.models.generateContentStream({ model: 'dall-e-2', contents: 'Two otters', config: { ...IMAGE, candidateCount: 2 } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(h.mock.requests[0]!.json).toEqual({ model: 'dall-e-2', prompt: 'Two otters', n: 2, response_format: 'b64_json' });
    expect(chunks).toHaveLength(2);
    expect(chunks.map((c) => c.candidates![0]!.index)).toEqual([0, 1]);
    expect(chunks.map((c) => c.candidates![0]!.content!.parts!.find((p) => p.inlineData)!.inlineData!.data)).toEqual(
      expected.data.map((d: { b64_json: string }) => d.b64_json),
    );
    expect(chunks[0]!.candidates![0]!.content!.parts![0]!.text).toBe(expected.data[0].revised_prompt);
  });

  it('an upstream images error reaches the caller in Gemini shape', async () => {
    h.mock.reply(fixtureReply('openai-images', 'error-400-moderation-blocked.json'));
    const err = apiErrorOf(await rejection(ai.models.generateContent({ model: 'gpt-image-1', contents: 'x', config: IMAGE })));
    expect(err.status).toBe(400);
    expect(err.body.error.status).toBe('INVALID_ARGUMENT');
    expect(err.body.error.message).toMatch(/safety system/);
  });

  it('IMAGE asked of an OpenAI chat model (not an image model) stays a chat call', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    await ai.models.generateContent({ model: 'gpt-4o-mini', contents: 'Hi', config: IMAGE }).catch(() => undefined);
    expect(h.mock.requests[0]!.url).toBe('/v1/chat/completions');
  });
});
