import { describe, expect, it } from 'vitest';
import { ProxyError, type Citation, type WebSearchPart, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeResponse } from './encode-response.ts';

const REQ = { model: 'claude-x', system: [], messages: [], stream: false };

const decode = (name: string) => decodeResponse(fixtureJson('anthropic', name), REQ, testContext());

const req: ChatRequest = { model: 'asked-model', system: [], messages: [], stream: false };

const message = (over: Record<string, unknown>) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 4 },
  ...over,
});

describe('anthropic decodeResponse: fixtures', () => {
  it('text-basic', () => {
    expect(decode('text-basic.json')).toEqual({
      id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      model: 'claude-sonnet-4-5-20250929',
      created: 1_700_000_000,
      choices: [
        {
          index: 0,
          content: [{ type: 'text', text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?" }],
          finishReason: { unified: 'stop', raw: 'end_turn' },
        },
      ],
      usage: { inputTokens: 12, outputTokens: 29, totalTokens: 41, cachedInputTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 },
    });
  });

  it('tool-use-single and text-then-tool-use', () => {
    const a = decode('tool-use-single.json');
    expect(a.choices[0]!.content).toEqual([
      { type: 'tool-call', id: 'toolu_013DU6hV4C1M8dJ32ybQFAFi', name: 'get_weather', arguments: '{"location":"SF","units":"c"}' },
    ]);
    expect(a.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    const b = decode('text-then-tool-use.json');
    expect(b.choices[0]!.content.map((p) => p.type)).toEqual(['text', 'tool-call']);
  });

  it('tool-result-followup', () => {
    expect(decode('tool-result-followup.json').choices[0]!.content).toEqual([
      { type: 'text', text: 'The weather in SF is currently **20°C** (68°F) and **Sunny**!' },
    ]);
  });

  it('thinking-signature and thinking-adaptive-thinking-tokens', () => {
    const a = decode('thinking-signature.json');
    expect(a.choices[0]!.content[0]).toEqual({
      type: 'reasoning',
      text: '925 divided by 5 = 185',
      signature: { origin: 'anthropic', value: fixtureJson('anthropic', 'thinking-signature.json').content[0].signature },
    });
    const b = decode('thinking-adaptive-thinking-tokens.json');
    expect(b.usage).toEqual({ inputTokens: 51, outputTokens: 1699, totalTokens: 1750, cachedInputTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, reasoningTokens: 139 });
  });

  it('structured-output-json-schema: JSON arrives as text', () => {
    const r = decode('structured-output-json-schema.json');
    expect(JSON.parse((r.choices[0]!.content[0] as { text: string }).text)).toEqual({ product_name: 'Green Tea', price: 5.5, quantity: 2 });
  });

  it('refusal-stop-details: empty content, refusal, stop_details kept', () => {
    const r = decode('refusal-stop-details.json');
    expect(r.choices[0]!.content).toEqual([]);
    expect(r.choices[0]!.finishReason).toEqual({ unified: 'refusal', raw: 'refusal' });
    expect(r.choices[0]!.extras?.fields.stop_details).toMatchObject({ category: 'cyber' });
  });

  it('server-tool-web-search-citations: the search and its results one part, citations on text', () => {
    const r = decode('server-tool-web-search-citations.json');
    const c = r.choices[0]!;
    expect(c.content.map((p) => p.type)).toEqual(['web-search', 'text', 'text', 'text']);
    const search = c.content[0] as WebSearchPart;
    expect(search).toMatchObject({ id: 'srvtoolu_01JCzA8PXrZDNPK9pSt8KCE9', kind: 'search', queries: ['San Francisco weather today'] });
    expect(search.results[0]).toEqual({ url: 'https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629', title: 'San Francisco, CA Weather Forecast | AccuWeather', pageAge: '6 hours ago' });
    expect(search.results.every((x) => x.url.startsWith('https://'))).toBe(true);
    expect((c.content[1] as { citations?: Citation[] }).citations![0]).toMatchObject({ url: search.results[0]!.url, quote: expect.stringContaining('San Francisco') });
    expect(c.extras?.fields.serverBlocks).toBeUndefined();
    // Back to an Anthropic caller: the same blocks in the same order.
    const again = encodeResponse(r, REQ, testContext());
    // (a text block without citations gets the `citations: null` the OpenAPI document requires)
    const wire = fixtureJson('anthropic', 'server-tool-web-search-citations.json').content as Array<Record<string, unknown>>;
    expect(again.content).toEqual(wire.map((blk) => (blk.type === 'text' ? { citations: null, ...blk } : blk)));
  });

  it('redacted thinking; unreadable bodies are upstream errors', () => {
    const r = decodeResponse(
      { id: 'msg_1', type: 'message', model: 'm', content: [{ type: 'redacted_thinking', data: 'xyz' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } },
      REQ,
      testContext(),
    );
    expect(r.choices[0]!.content).toEqual([{ type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'xyz' } }]);
    expect(() => decodeResponse('nope', REQ, testContext())).toThrow(ProxyError);
    expect(() => decodeResponse({ content: 'x' }, REQ, testContext())).toThrow(ProxyError);
  });

  it.each([
    ['an unrelated object', { hello: 'world' }],
    ['an array', []],
    ['content of the wrong type', { type: 'message', content: 5 }],
    ['a message without content', { type: 'message', id: 'msg_1', stop_reason: 'end_turn' }],
    ['content without type: message', { content: [{ type: 'text', text: 'hi' }] }],
    ['an error envelope', { type: 'error', error: { type: 'api_error', message: 'boom' } }],
  ])('%s is a 502, never an empty answer', (_name, body) => {
    let err: unknown;
    try {
      decodeResponse(body, REQ, testContext());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProxyError);
    expect(err).toMatchObject({ kind: 'upstream', status: 502 });
  });
});

describe('anthropic upstream answer → canonical', () => {
  it('blocks in order; a server block is kept aside at its index, not a part', () => {
    const server = { type: 'web_search_tool_result', tool_use_id: 's', content: [] };
    const r = decodeResponse(
      message({ content: [{ type: 'text', text: 'a' }, server, { type: 'tool_use', id: 'toolu_1', name: 'f', input: { x: 1 } }], stop_reason: 'tool_use' }),
      req,
      testContext(),
    );
    expect(r.choices[0]).toEqual({
      index: 0,
      content: [{ type: 'text', text: 'a' }, { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"x":1}' }],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      extras: { dialect: 'anthropic', fields: { serverBlocks: [{ index: 1, block: server }] } },
    });
    expect(r).toMatchObject({ id: 'msg_1', model: 'claude-x', created: 1_700_000_000, usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } });
  });

  it('a plain answer has no extras and no made-up usage', () => {
    const r = decodeResponse(message({ content: [{ type: 'text', text: 'a' }], usage: undefined }), req, testContext());
    expect(r.choices[0]!.extras).toBeUndefined();
    expect(r).not.toHaveProperty('usage');
  });

  it('structured output through json_response: the answer is the text and the stop is plain; beside a real tool call it stays tool-calls', () => {
    const sreq: ChatRequest = { ...req, responseFormat: { type: 'json-schema', name: 'x', schema: { type: 'object' } } };
    const only = decodeResponse(message({ content: [{ type: 'tool_use', id: 't', name: 'json_response', input: { a: 1 } }], stop_reason: 'tool_use' }), sreq, testContext());
    expect(only.choices[0]).toMatchObject({ content: [{ type: 'text', text: '{"a":1}' }], finishReason: { unified: 'stop', raw: 'tool_use' } });
    const both = decodeResponse(
      message({ content: [{ type: 'tool_use', id: 't', name: 'json_response', input: {} }, { type: 'tool_use', id: 'u', name: 'f', input: {} }], stop_reason: 'tool_use' }),
      sreq,
      testContext(),
    );
    expect(both.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    const plain = decodeResponse(message({ content: [{ type: 'tool_use', id: 't', name: 'json_response', input: {} }], stop_reason: 'tool_use' }), req, testContext());
    expect(plain.choices[0]!.content).toEqual([{ type: 'tool-call', id: 't', name: 'json_response', arguments: '{}' }]);
  });

  it('a body that is not a message is an upstream error with the body as raw', () => {
    expect(() => decodeResponse({ type: 'nope' }, req, testContext())).toThrow(
      expect.objectContaining({ kind: 'upstream', message: 'Anthropic upstream returned a body that is not a message.', raw: '{"type":"nope"}' }),
    );
  });
});

describe('anthropic decodeResponse: web searches and cited text', () => {
  it('a search and its result are one part, the result not repeated; a search with no result yet is one too; no citations, none', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } };
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://a', title: 'A', encrypted_content: 'E' }] };
    const lone = { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_search', input: { query: 'r' } };
    const res = decodeResponse(message({ content: [use, { type: 'text', text: 'a', citations: [] }, result, lone] }), req, testContext());
    expect(res.choices[0]!.content).toStrictEqual([
      { type: 'web-search', id: 'srvtoolu_1', kind: 'search', queries: ['q'], results: [{ url: 'https://a', title: 'A' }], raw: { dialect: 'anthropic', value: [use, result] } },
      { type: 'text', text: 'a' },
      { type: 'web-search', id: 'srvtoolu_2', kind: 'search', queries: ['r'], results: [], raw: { dialect: 'anthropic', value: [lone] } },
    ]);
  });
});
