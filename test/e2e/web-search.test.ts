/**
 * Hosted web search across vendors, with the official SDKs as callers: a caller's search tool
 * reaches another vendor's upstream as that vendor's own, and the search the upstream ran comes
 * back in the caller's native shape — Anthropic `server_tool_use` + `web_search_tool_result`
 * blocks with cited text blocks and `usage.server_tool_use`, a Responses `web_search_call` item
 * with `url_citation` annotations, Chat `annotations`, Gemini `groundingMetadata` — JSON and
 * streamed, with offsets recomputed for the caller's text (Gemini counts UTF-8 bytes).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeSignature } from '../../src/canonical/index.ts';
import { fixtureReply, type MockReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';

const SENTENCE = 'Spain won Euro 2024, beating England 2–1.'; // the en dash is 3 UTF-8 bytes
const CAFE = ' Fans filled every café ☕ in Madrid.';
const bytes = (s: string) => new TextEncoder().encode(s).length;
const PAGES = [
  { web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/uefa', title: 'uefa.com' } },
  { web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/bbc', title: 'bbc.com' } },
];
const grounding = {
  webSearchQueries: ['who won euro 2024', 'euro 2024 final score'],
  searchEntryPoint: { renderedContent: '<div>Google Search</div>' },
  groundingChunks: PAGES,
  groundingSupports: [
    { segment: { startIndex: 0, endIndex: bytes(SENTENCE), text: SENTENCE }, groundingChunkIndices: [0, 1] },
    { segment: { startIndex: bytes(SENTENCE), endIndex: bytes(SENTENCE + CAFE), text: CAFE }, groundingChunkIndices: [1] },
  ],
};
const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 };
const geminiGrounded: MockReply = {
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [{ text: SENTENCE + CAFE }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }],
    usageMetadata,
    modelVersion: 'gemini-2.5-flash',
  }),
};
const sse = (chunks: unknown[]) => ({ headers: { 'content-type': 'text/event-stream' }, chunks: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`) });
const geminiGroundedStream: MockReply = sse([
  { candidates: [{ content: { role: 'model', parts: [{ text: SENTENCE }] }, index: 0 }], modelVersion: 'gemini-2.5-flash' },
  { candidates: [{ content: { role: 'model', parts: [{ text: CAFE }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }], usageMetadata, modelVersion: 'gemini-2.5-flash' },
]);

describe.each(TARGETS)('%s: web search across vendors', (target) => {
  const h = useHarness(target);
  let anthropic: Anthropic;
  let openai: OpenAI;
  let genai: GoogleGenAI;
  beforeAll(() => {
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: h.proxy.url } });
  });

  /** The proxy's log line of the next request of `route` (it is written once the answer is over). */
  async function nextLine(route: string, after: number): Promise<Record<string, unknown>> {
    for (let i = 0; i < 100; i++) {
      const line = h.proxy.logs.slice(after).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.route === route);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no log line for ${route}`);
  }

  const searchTool = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 5 };
  const ask = { model: 'to-gemini', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Who won Euro 2024?' }], tools: [searchTool] };

  function expectAnthropicSearch(content: Anthropic.ContentBlock[]) {
    const [use, result, ...texts] = content;
    expect(use).toMatchObject({ type: 'server_tool_use', name: 'web_search', input: { query: 'who won euro 2024 | euro 2024 final score' } });
    expect(result).toMatchObject({ type: 'web_search_tool_result', tool_use_id: (use as Anthropic.ServerToolUseBlock).id });
    const results = (result as Anthropic.WebSearchToolResultBlock).content as Anthropic.WebSearchResultBlock[];
    expect(results.map((r) => [r.url, r.title])).toEqual(PAGES.map((p) => [p.web.uri, p.web.title]));
    // Never an Anthropic encrypted_content: our origin-tagged carrier of the page.
    expect(decodeSignature(results[0]!.encrypted_content)).toEqual({ origin: 'gemini', value: PAGES[0]!.web.uri });
    // One text block per cited stretch, each citing the pages Gemini said it rests on.
    expect(texts.map((t) => (t as Anthropic.TextBlock).text)).toEqual([SENTENCE, CAFE]);
    const cites = texts.map((t) => ((t as Anthropic.TextBlock).citations ?? []).map((c) => (c as Anthropic.CitationsWebSearchResultLocation).url));
    expect(cites).toEqual([[PAGES[0]!.web.uri, PAGES[1]!.web.uri], [PAGES[1]!.web.uri]]);
    expect((texts[0] as Anthropic.TextBlock).citations![0]).toMatchObject({ type: 'web_search_result_location', cited_text: SENTENCE, title: 'uefa.com' });
  }

  it('Anthropic caller, Gemini upstream: Google Search asked; the search, its results and cited text in Anthropic blocks', async () => {
    h.mock.reply(geminiGrounded);
    const logged = h.proxy.logs.length;
    const res = await anthropic.messages.create(ask);
    expect(h.mock.requests[0]!.json.tools).toEqual([{ googleSearch: {} }]);
    expect(h.mock.requests[0]!.headers['x-interlingua-warnings'] ?? '').not.toContain('tools');
    expectAnthropicSearch(res.content);
    expect(res.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    expect(await nextLine('messages', logged)).toMatchObject({ upstream: 'gemini', webSearches: 1 });
  });

  it('Anthropic caller, Gemini upstream, streamed: the same blocks from the stream, the search counted in the usage', async () => {
    h.mock.reply(geminiGroundedStream);
    const logged = h.proxy.logs.length;
    const stream = anthropic.messages.stream(ask);
    const message = await stream.finalMessage();
    // Gemini says what it searched with its last chunk, after the text it streamed: the blocks follow
    // it, and the text (held for its citations) comes in cited stretches, as the JSON answer does.
    expect(message.content.map((b) => b.type)).toEqual(['text', 'text', 'server_tool_use', 'web_search_tool_result']);
    const [, , use, result] = message.content;
    expect(use).toMatchObject({ type: 'server_tool_use', name: 'web_search', input: { query: 'who won euro 2024 | euro 2024 final score' } });
    expect(((result as Anthropic.WebSearchToolResultBlock).content as Anthropic.WebSearchResultBlock[]).map((r) => r.url)).toEqual(PAGES.map((p) => p.web.uri));
    const texts = message.content.filter((b) => b.type === 'text') as Anthropic.TextBlock[];
    expect(texts.map((t) => t.text)).toEqual([SENTENCE, CAFE]);
    expect(texts.map((t) => (t.citations ?? []).map((c) => (c as Anthropic.CitationsWebSearchResultLocation).url))).toEqual([[PAGES[0]!.web.uri, PAGES[1]!.web.uri], [PAGES[1]!.web.uri]]);
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    expect(await nextLine('messages', logged)).toMatchObject({ webSearches: 1 });
  });

  it('Claude Code\'s WebSearch request (the server tool forced by tool_choice, streamed) toward Gemini: a search, counted', async () => {
    h.mock.reply(geminiGroundedStream);
    const message = await anthropic.messages.stream({ ...ask, tools: [{ ...searchTool, max_uses: 8 }], tool_choice: { type: 'tool', name: 'web_search' } }).finalMessage();
    const sent = h.mock.requests[0]!.json;
    expect(sent.toolConfig).toBeUndefined(); // Google Search cannot be forced; no function to force
    expect(sent.tools).toEqual([{ googleSearch: {} }]);
    expect(message.content.filter((b) => b.type === 'web_search_tool_result')).toHaveLength(1);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('the search comes back in the next turn: toward Gemini it is no lossy drop, and its text stays', async () => {
    h.mock.reply(geminiGrounded);
    const first = await anthropic.messages.create(ask);
    h.mock.reply(geminiGrounded);
    const next = await anthropic.messages.create({ ...ask, messages: [...ask.messages, { role: 'assistant', content: first.content }, { role: 'user', content: 'And the score?' }] });
    expect(next.content.length).toBeGreaterThan(0);
    const sent = h.mock.requests[1]!.json.contents;
    expect(sent[1].parts.map((p: { text: string }) => p.text).join('')).toBe(SENTENCE + CAFE);
    expect(JSON.stringify(sent)).not.toContain('encrypted');
  });

  it('Responses caller, Gemini upstream: a web_search_call item and url_citation annotations at UTF-16 offsets', async () => {
    h.mock.reply(geminiGrounded);
    const res = await openai.responses.create({ model: 'to-gemini', input: 'Who won Euro 2024?', tools: [{ type: 'web_search' }] });
    expect(h.mock.requests[0]!.json.tools).toEqual([{ googleSearch: {} }]);
    const call = res.output.find((o) => o.type === 'web_search_call') as OpenAI.Responses.ResponseFunctionWebSearch;
    expect(call).toMatchObject({ status: 'completed', action: { type: 'search', query: 'who won euro 2024 | euro 2024 final score' } });
    expect((call.action as { sources: Array<{ url: string }> }).sources.map((s) => s.url)).toEqual(PAGES.map((p) => p.web.uri));
    expect(res.output_text).toBe(SENTENCE + CAFE);
    const message = res.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    const text = message.content[0] as OpenAI.Responses.ResponseOutputText;
    const spans = text.annotations.map((a) => (a as OpenAI.Responses.ResponseOutputText.URLCitation)).map((a) => [res.output_text.slice(a.start_index, a.end_index), a.url]);
    expect(spans).toEqual([
      [SENTENCE, PAGES[0]!.web.uri],
      [SENTENCE, PAGES[1]!.web.uri],
      [CAFE, PAGES[1]!.web.uri],
    ]);
  });

  it('Responses caller, Gemini upstream, streamed: the web_search_call events and item, in order', async () => {
    h.mock.reply(geminiGroundedStream);
    const types: string[] = [];
    let done: OpenAI.Responses.Response | undefined;
    for await (const e of await openai.responses.create({ model: 'to-gemini', input: 'Who won Euro 2024?', tools: [{ type: 'web_search' }], stream: true })) {
      types.push(e.type);
      if (e.type === 'response.completed') done = e.response;
    }
    const search = types.filter((t) => t.startsWith('response.web_search_call.'));
    expect(search).toEqual(['response.web_search_call.in_progress', 'response.web_search_call.searching', 'response.web_search_call.completed']);
    expect(done!.output.map((o) => o.type)).toEqual(['message', 'web_search_call']);
  });

  it('Chat caller, Gemini upstream: url_citation annotations at the message text offsets', async () => {
    h.mock.reply(geminiGrounded);
    const res = await openai.chat.completions.create({ model: 'to-gemini', messages: [{ role: 'user', content: 'Who won Euro 2024?' }] });
    const m = res.choices[0]!.message;
    expect(m.content).toBe(SENTENCE + CAFE);
    expect(m.annotations!.map((a) => [m.content!.slice(a.url_citation.start_index, a.url_citation.end_index), a.url_citation.title])).toEqual([
      [SENTENCE, 'uefa.com'],
      [SENTENCE, 'bbc.com'],
      [CAFE, 'bbc.com'],
    ]);
  });

  it('Responses caller, Anthropic upstream: web_search asked as web_search_20250305; Claude\'s search a web_search_call, its citations annotations', async () => {
    h.mock.reply(fixtureReply('anthropic', 'server-tool-web-search-citations.json'));
    const res = await openai.responses.create({ model: 'to-anthropic', input: 'Weather in San Francisco?', tools: [{ type: 'web_search', filters: { allowed_domains: ['weather.gov'] } }] });
    expect(h.mock.requests[0]!.json.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['weather.gov'] }]);
    const call = res.output.find((o) => o.type === 'web_search_call') as OpenAI.Responses.ResponseFunctionWebSearch;
    expect(call.action).toMatchObject({ type: 'search', query: 'San Francisco weather today' });
    const message = res.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    const urls = message.content.flatMap((c) => (c.type === 'output_text' ? c.annotations.map((a) => (a as { url: string }).url) : []));
    expect(urls).toContain('https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629');
  });

  it('Gemini caller, Anthropic upstream: googleSearch asked as web_search; Claude\'s search as groundingMetadata with byte segments', async () => {
    h.mock.reply(fixtureReply('anthropic', 'server-tool-web-search-citations.json'));
    const res = await genai.models.generateContent({ model: 'to-anthropic', contents: 'Weather in San Francisco?', config: { tools: [{ googleSearch: {} }] } });
    expect(h.mock.requests[0]!.json.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
    const meta = res.candidates![0]!.groundingMetadata!;
    expect(meta.webSearchQueries).toEqual(['San Francisco weather today']);
    expect(meta.groundingChunks![0]!.web).toEqual({ uri: 'https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629', title: 'San Francisco, CA Weather Forecast | AccuWeather' });
    const text = res.text!;
    const whole = new TextEncoder().encode(text);
    for (const s of meta.groundingSupports!) {
      const seg = new TextDecoder().decode(whole.slice(s.segment!.startIndex ?? 0, s.segment!.endIndex));
      expect(seg).toBe(s.segment!.text);
    }
    expect(meta.groundingSupports!.length).toBeGreaterThan(0);
  });
});
