/**
 * Citations in streams, with the official SDKs as streaming callers: the stretches an upstream's
 * search grounded reach the caller's stream in its own form — Anthropic `citations_delta` (the
 * SDK's `citation` events and `finalMessage()` citations), Responses
 * `response.output_text.annotation.added` (and the annotations of the completed response), Gemini
 * `groundingSupports` on the last chunk (UTF-8 byte segments), Chat `delta.annotations` — from a
 * Gemini upstream (grounding on its last chunk), a Responses upstream (annotations as they come,
 * a captured stream) and an Anthropic upstream (`citations_delta`).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply, type MockReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, responsesE2eConfig, TARGETS, useHarness } from '../support/proxy.ts';

const SENTENCE = 'Spain won Euro 2024, beating England 2–1.'; // the en dash is 3 UTF-8 bytes
const CAFE = ' Fans filled every café ☕ in Madrid.';
const bytes = (s: string) => new TextEncoder().encode(s).length;
const UEFA = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/uefa';
const BBC = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/bbc';
const grounding = {
  webSearchQueries: ['who won euro 2024'],
  groundingChunks: [{ web: { uri: UEFA, title: 'uefa.com' } }, { web: { uri: BBC, title: 'bbc.com' } }],
  groundingSupports: [
    { segment: { startIndex: 0, endIndex: bytes(SENTENCE), text: SENTENCE }, groundingChunkIndices: [0] },
    { segment: { startIndex: bytes(SENTENCE), endIndex: bytes(SENTENCE + CAFE), text: CAFE }, groundingChunkIndices: [1] },
  ],
};
const sse = (chunks: unknown[]): MockReply => ({ headers: { 'content-type': 'text/event-stream' }, chunks: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`) });
const geminiStream = sse([
  { candidates: [{ content: { role: 'model', parts: [{ text: SENTENCE }] }, index: 0 }], modelVersion: 'gemini-2.5-flash' },
  { candidates: [{ content: { role: 'model', parts: [{ text: CAFE }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 9, totalTokenCount: 12 }, modelVersion: 'gemini-2.5-flash' },
]);

const location = { type: 'web_search_result_location', url: 'https://a.org/euro', title: 'A', cited_text: 'Spain beat England 2–1 in Berlin.', encrypted_index: 'EoAnthropicIndex' };
const claudeEvents: Array<[string, unknown]> = [
  ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 0 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Here is what I found. ' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: [] } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: location } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: SENTENCE } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }],
  ['message_stop', { type: 'message_stop' }],
];
const claudeStream: MockReply = { headers: { 'content-type': 'text/event-stream' }, chunks: claudeEvents.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) };

describe.each(TARGETS)('%s: citations in streams across vendors', (target) => {
  const h = useHarness(target, responsesE2eConfig);
  let anthropic: Anthropic;
  let openai: OpenAI;
  let genai: GoogleGenAI;
  beforeAll(() => {
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: h.proxy.url } });
  });
  const search = { type: 'web_search_20250305' as const, name: 'web_search' as const };
  const ask = (model: string) => ({ model, max_tokens: 512, messages: [{ role: 'user' as const, content: 'Who won Euro 2024?' }], tools: [search] });

  it('Anthropic SDK stream, Gemini upstream: citation events, and finalMessage() has the cited stretches with their pages', async () => {
    h.mock.reply(geminiStream);
    const stream = anthropic.messages.stream(ask('to-gemini'));
    const seen: string[] = [];
    stream.on('citation', (c) => seen.push((c as Anthropic.CitationsWebSearchResultLocation).url));
    const message = await stream.finalMessage();
    const texts = message.content.filter((b) => b.type === 'text') as Anthropic.TextBlock[];
    expect(texts.map((t) => t.text)).toEqual([SENTENCE, CAFE]);
    expect(texts.map((t) => t.citations?.map((c) => (c as Anthropic.CitationsWebSearchResultLocation).cited_text))).toEqual([[SENTENCE], [CAFE]]);
    expect(seen).toEqual([UEFA, BBC]);
  });

  it('Anthropic SDK stream, Responses upstream (a captured search stream): every annotated stretch cited, the text whole', async () => {
    h.mock.reply(fixtureReply('openai-responses', 'stream-web-search-hosted-tool-annotations.sse'));
    const message = await anthropic.messages.stream(ask('to-responses')).finalMessage();
    expect(h.mock.requests[0]!.json.tools).toEqual([{ type: 'web_search' }]);
    const texts = message.content.filter((b) => b.type === 'text') as Anthropic.TextBlock[];
    const cited = texts.filter((t) => t.citations?.length);
    expect(cited.length).toBeGreaterThan(3);
    for (const t of cited) for (const c of t.citations!) expect(c).toMatchObject({ type: 'web_search_result_location', cited_text: t.text });
    expect(texts.map((t) => t.text).join('')).toContain('I checked today’s tech headlines');
    expect(message.content.filter((b) => b.type === 'web_search_tool_result').length).toBeGreaterThan(0);
  });

  it('Responses SDK stream, Gemini upstream: annotation.added events at UTF-16 offsets, the same annotations in the completed response', async () => {
    h.mock.reply(geminiStream);
    const added: OpenAI.Responses.ResponseOutputTextAnnotationAddedEvent[] = [];
    let done: OpenAI.Responses.Response | undefined;
    for await (const e of await openai.responses.create({ model: 'to-gemini', input: 'Who won Euro 2024?', tools: [{ type: 'web_search' }], stream: true })) {
      if (e.type === 'response.output_text.annotation.added') added.push(e);
      if (e.type === 'response.completed') done = e.response;
    }
    const text = SENTENCE + CAFE;
    const spans = added.map((e) => e.annotation as OpenAI.Responses.ResponseOutputText.URLCitation).map((a) => [text.slice(a.start_index, a.end_index), a.url]);
    expect(spans).toEqual([[SENTENCE, UEFA], [CAFE, BBC]]);
    expect(added.map((e) => e.annotation_index)).toEqual([0, 1]);
    const message = done!.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    expect((message.content[0] as OpenAI.Responses.ResponseOutputText).annotations).toEqual(added.map((e) => e.annotation));
  });

  it('Responses SDK stream, Anthropic upstream (citations_delta): the cited block\'s part annotated whole, no Anthropic index in it', async () => {
    h.mock.reply(claudeStream);
    const stream = openai.responses.stream({ model: 'to-anthropic', input: 'Who won Euro 2024?', tools: [{ type: 'web_search' }] });
    const added: unknown[] = [];
    stream.on('response.output_text.annotation.added', (e) => added.push(e.annotation));
    const res = await stream.finalResponse();
    expect(added).toEqual([{ type: 'url_citation', start_index: 0, end_index: SENTENCE.length, url: 'https://a.org/euro', title: 'A' }]);
    const message = res.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    expect(message.content.map((c) => (c as OpenAI.Responses.ResponseOutputText).annotations.length)).toEqual([0, 1]);
    expect(JSON.stringify(res)).not.toContain('EoAnthropicIndex');
  });

  it('Gemini SDK stream, Anthropic upstream: groundingSupports on the last chunk, byte segments of the whole text', async () => {
    h.mock.reply(claudeStream);
    let text = '';
    let meta: import('@google/genai').GroundingMetadata | undefined;
    for await (const chunk of await genai.models.generateContentStream({ model: 'to-anthropic', contents: 'Who won Euro 2024?', config: { tools: [{ googleSearch: {} }] } })) {
      text += chunk.text ?? '';
      meta = chunk.candidates?.[0]?.groundingMetadata ?? meta;
    }
    const [support] = meta!.groundingSupports!;
    const whole = new TextEncoder().encode(text);
    expect(new TextDecoder().decode(whole.slice(support!.segment!.startIndex, support!.segment!.endIndex))).toBe(SENTENCE);
    expect(support!.segment).toMatchObject({ startIndex: bytes('Here is what I found. '), text: SENTENCE });
    expect(meta!.groundingChunks![support!.groundingChunkIndices![0]!]!.web!.uri).toBe('https://a.org/euro');
  });

  it('Chat SDK stream, Gemini upstream: delta.annotations at the message text offsets', async () => {
    h.mock.reply(geminiStream);
    let content = '';
    const annotations: Array<{ url_citation: { start_index: number; end_index: number; url: string } }> = [];
    for await (const chunk of await openai.chat.completions.create({ model: 'to-gemini', messages: [{ role: 'user', content: 'Who won Euro 2024?' }], stream: true })) {
      const delta = chunk.choices[0]?.delta as { content?: string; annotations?: typeof annotations } | undefined;
      content += delta?.content ?? '';
      annotations.push(...(delta?.annotations ?? []));
    }
    expect(annotations.map((a) => [content.slice(a.url_citation.start_index, a.url_citation.end_index), a.url_citation.url])).toEqual([[SENTENCE, UEFA], [CAFE, BBC]]);
  });
});
