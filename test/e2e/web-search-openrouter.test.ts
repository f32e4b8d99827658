/**
 * OpenRouter as the upstream of a caller's hosted web search: any model searches (and reads pages)
 * there with OpenRouter's server tools, `openrouter:web_search` / `openrouter:web_fetch` in
 * `tools`; the pages come back as the message's `url_citation` annotations, which each caller gets
 * in its own shape (an Anthropic search with its results and cited text blocks, a Responses
 * `web_search_call` with annotations), JSON and streamed, with the official SDKs as callers.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MockReply } from '../support/mock-upstream.ts';
import { e2eConfig, INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';

const TEXT = 'Spain won Euro 2024 (uefa.com). Fans celebrated.';
const CITED = 'Spain won Euro 2024 (uefa.com).';
const annotation = { type: 'url_citation', url_citation: { url: 'https://uefa.com/euro', title: 'UEFA', content: 'Spain beat England.', start_index: 0, end_index: CITED.length } };
const completion: MockReply = {
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    id: 'gen-1',
    object: 'chat.completion',
    created: 1,
    model: 'anthropic/claude-sonnet-4.5',
    choices: [{ index: 0, message: { role: 'assistant', content: TEXT, annotations: [annotation] }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 12, total_tokens: 22 },
  }),
};
const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'anthropic/claude-sonnet-4.5', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const streamed: MockReply = {
  headers: { 'content-type': 'text/event-stream' },
  chunks: [chunk({ role: 'assistant', content: TEXT.slice(0, 10) }), chunk({ content: TEXT.slice(10) }), chunk({ annotations: [annotation] }), chunk({}, 'stop'), 'data: [DONE]\n\n'],
};

const config = (mockUrl: string) => {
  const base = e2eConfig(mockUrl);
  return {
    ...base,
    upstreams: { ...base.upstreams, openrouter: { dialect: 'openai', provider: 'openrouter', baseUrl: `${mockUrl}/api/v1`, apiKey: 'sk-or-test', retry: { attempts: 1 } } },
    models: { ...base.models, 'to-openrouter': { upstream: 'openrouter', model: 'anthropic/claude-sonnet-4.5' } },
  };
};

describe.each(TARGETS)('%s: web search through OpenRouter', (target) => {
  const h = useHarness(target, config);
  let anthropic: Anthropic;
  let openai: OpenAI;
  beforeAll(() => {
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });
  const ask = {
    model: 'to-openrouter',
    max_tokens: 256,
    messages: [{ role: 'user' as const, content: 'Who won Euro 2024?' }],
    tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const, allowed_domains: ['uefa.com'], user_location: { type: 'approximate' as const, country: 'ES' } }],
  };

  it('Anthropic caller: OpenRouter\'s web search server tool asked, its citations a search with results and a cited text block', async () => {
    h.mock.reply(completion);
    const res = await anthropic.messages.create(ask);
    expect(h.mock.requests[0]!.url).toBe('/api/v1/chat/completions');
    expect(h.mock.requests[0]!.json.tools).toEqual([{ type: 'openrouter:web_search', parameters: { allowed_domains: ['uefa.com'], user_location: { type: 'approximate', country: 'ES' } } }]);
    expect(h.mock.requests[0]!.json.web_search_options).toBeUndefined();
    expect(res.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text', 'text']);
    const results = (res.content[1] as Anthropic.WebSearchToolResultBlock).content as Anthropic.WebSearchResultBlock[];
    expect(results.map((r) => [r.url, r.title])).toEqual([['https://uefa.com/euro', 'UEFA']]);
    const [cited, rest] = res.content.slice(2) as Anthropic.TextBlock[];
    expect([cited!.text, rest!.text]).toEqual([CITED, TEXT.slice(CITED.length)]);
    expect(cited!.citations![0]).toMatchObject({ type: 'web_search_result_location', url: 'https://uefa.com/euro' });
    expect(res.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('Anthropic caller, streamed: delta.annotations become citations_delta on the cited stretch, then the search blocks', async () => {
    h.mock.reply(streamed);
    const message = await anthropic.messages.stream(ask).finalMessage();
    expect(h.mock.requests[0]!.json.stream).toBe(true);
    expect(message.content.map((b) => b.type)).toEqual(['text', 'text', 'server_tool_use', 'web_search_tool_result']);
    const cited = message.content[0] as Anthropic.TextBlock;
    expect(cited.text).toBe(CITED);
    expect(cited.citations?.map((c) => (c as Anthropic.CitationsWebSearchResultLocation).url)).toEqual(['https://uefa.com/euro']);
  });

  it('Responses caller: web_search as OpenRouter\'s server tool, the pages a web_search_call and url_citation annotations', async () => {
    h.mock.reply(completion);
    const res = await openai.responses.create({ model: 'to-openrouter', input: 'Who won Euro 2024?', tools: [{ type: 'web_search', search_context_size: 'low' }] });
    expect(h.mock.requests[0]!.json.tools).toEqual([{ type: 'openrouter:web_search', parameters: { search_context_size: 'low' } }]);
    const call = res.output.find((o) => o.type === 'web_search_call') as OpenAI.Responses.ResponseFunctionWebSearch;
    expect((call.action as { sources: Array<{ url: string }> }).sources.map((s) => s.url)).toEqual(['https://uefa.com/euro']);
    const message = res.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    expect((message.content[0] as OpenAI.Responses.ResponseOutputText).annotations).toEqual([{ type: 'url_citation', start_index: 0, end_index: CITED.length, url: 'https://uefa.com/euro', title: 'UEFA' }]);
  });

  it('a page read (Anthropic web_fetch) is OpenRouter\'s web fetch server tool', async () => {
    h.mock.reply(completion);
    await anthropic.messages.create({ ...ask, tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming);
    expect(h.mock.requests[0]!.json.tools).toEqual([{ type: 'openrouter:web_fetch' }]);
  });
});
