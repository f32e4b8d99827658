/**
 * Web search run by Interlingua (docs/hosted-tools.md "Search run by Interlingua"), with the
 * official SDKs as callers: an Anthropic `web_search_20250305` or a Responses `web_search` sent to
 * an OpenAI Chat model that has no hosted search becomes a `web_search` function; the proxy runs
 * the model's call on the configured backend (a mock Brave or Tavily on the same mock server),
 * feeds the results back, and answers in the caller's own blocks, JSON and streamed. Page reads
 * go through the guarded fetcher: loopback and metadata addresses are refused; the backend's key
 * is never in an answer or a log line.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts';
import type { MockReply, ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, useHarness } from '../support/proxy.ts';

const BRAVE_KEY = 'brave-SECRET-search-key-5555';
const TAVILY_KEY = 'tvly-SECRET-search-key-6666';
const PAGE = 'https://www.uefa.com/euro2024/news/final';
const ANSWER = `Spain won Euro 2024, beating England 2–1 (${PAGE}).`;

const braveBody = {
  type: 'search',
  web: {
    results: [
      { title: 'Spain win EURO 2024', url: PAGE, description: 'Spain beat England 2-1 in Berlin.', age: 'July 14, 2024' },
      { title: 'Euro 2024 final report', url: 'https://www.bbc.com/sport/football/euro-2024-final', description: 'Oyarzabal scores late winner.' },
    ],
  },
};
const tavilyBody = { query: 'who won euro 2024', results: [{ title: 'Spain win EURO 2024', url: PAGE, content: 'Spain beat England 2-1.', score: 0.9 }] };

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const chatJson = (message: Record<string, unknown>, finish: string): MockReply => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage }),
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] });
const chatSse = (events: unknown[]): MockReply => ({
  headers: { 'content-type': 'text/event-stream' },
  chunks: [...events, { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage }].map((e) => `data: ${JSON.stringify(e)}\n\n`).concat('data: [DONE]\n\n'),
});
const toolCall = (name: string, args: Record<string, unknown>, id = 'call_1') => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

/** The model: a web call first (`calls`), the answer once the results came back. */
function chatModel(calls: Array<ReturnType<typeof toolCall>>, answer = ANSWER) {
  return (req: ReceivedRequest): MockReply => {
    const answered = (req.json.messages as Array<{ role: string }>).some((m) => m.role === 'tool');
    if (req.json.stream) {
      return answered
        ? chatSse([chunk({ role: 'assistant', content: '' }), chunk({ content: answer.slice(0, 10) }), chunk({ content: answer.slice(10) }), chunk({}, 'stop')])
        : chatSse([chunk({ role: 'assistant', content: 'Let me search.' }), chunk({ tool_calls: calls.map((c, index) => ({ index, ...c })) }), chunk({}, 'tool_calls')]);
    }
    return answered ? chatJson({ content: answer }, 'stop') : chatJson({ content: null, tool_calls: calls }, 'tool_calls');
  };
}

describe.each(TARGETS)('%s: web search run by Interlingua toward an OpenAI Chat upstream', (target) => {
  const h = useHarness(target, (url) => e2eConfig(url, { search: { provider: 'brave', apiKey: BRAVE_KEY, baseUrl: url, maxResults: 5 } }));
  const tav = useHarness(target, (url) => e2eConfig(url, { search: { provider: 'tavily', apiKey: TAVILY_KEY, baseUrl: url } }));
  const bare = useHarness(target, (url) => e2eConfig(url, { models: { ...e2eConfig(url).models, strict: { upstream: 'openai', model: 'gpt-4o-mini', strict: true } } }));
  let anthropic: Anthropic;
  let openai: OpenAI;
  beforeAll(() => {
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  /** The mock: Brave's search at its path, the Chat model at its own. */
  function serve(model: (req: ReceivedRequest) => MockReply, search: unknown = braveBody) {
    h.mock.reply((req) => (req.url.startsWith('/v1/chat/completions') ? model(req) : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(search) }));
  }
  const chatCalls = (m = h.mock) => m.requests.filter((r) => r.url.startsWith('/v1/chat/completions'));
  const searches = (m = h.mock) => m.requests.filter((r) => !r.url.startsWith('/v1/chat/completions'));

  async function nextLine(logs: string[], route: string, after: number): Promise<Record<string, unknown>> {
    for (let i = 0; i < 100; i++) {
      const line = logs.slice(after).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.route === route);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no log line for ${route}`);
  }

  const searchTool = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 3 };
  const ask = { model: 'to-openai', max_tokens: 512, messages: [{ role: 'user' as const, content: 'Who won Euro 2024?' }], tools: [searchTool] };

  it('Anthropic caller: the search on Brave, its results in web_search_tool_result, the text citing the page, usage summed', async () => {
    serve(chatModel([toolCall('web_search', { query: 'who won euro 2024' })]));
    const logged = h.proxy.logs.length;
    const res = await anthropic.messages.create(ask);
    const [first, second] = chatCalls();
    expect(first!.json.tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'web_search' }) }]);
    expect(first!.json.web_search_options).toBeUndefined();
    const brave = searches()[0]!;
    expect(brave.url).toMatch(/^\/res\/v1\/web\/search\?q=who\+won\+euro\+2024&count=5/);
    expect(brave.headers['x-subscription-token']).toBe(BRAVE_KEY);
    // The results went back to the model as the tool's answer.
    const tool = (second!.json.messages as Array<{ role: string; content: string; tool_call_id?: string }>).find((m) => m.role === 'tool')!;
    expect(tool.tool_call_id).toBe('call_1');
    expect(tool.content).toContain(PAGE);
    expect(res.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(res.content[0]).toMatchObject({ name: 'web_search', input: { query: 'who won euro 2024' } });
    const results = (res.content[1] as Anthropic.WebSearchToolResultBlock).content as Anthropic.WebSearchResultBlock[];
    expect(results.map((r) => [r.url, r.title])).toEqual(braveBody.web.results.map((r) => [r.url, r.title]));
    const text = res.content[2] as Anthropic.TextBlock;
    expect(text.text).toBe(ANSWER);
    expect((text.citations ?? []).map((c) => (c as Anthropic.CitationsWebSearchResultLocation).url)).toEqual([PAGE]);
    expect(res.usage).toMatchObject({ input_tokens: 20, output_tokens: 10, server_tool_use: { web_search_requests: 1 } });
    const line = await nextLine(h.proxy.logs, 'messages', logged);
    expect(line).toMatchObject({ upstream: 'openai', webSearches: 1, webRuns: [{ kind: 'search', backend: 'brave', results: 2 }] });
    expect(JSON.stringify(line)).not.toContain('who won euro 2024'); // the query is the caller's content
    expect(JSON.stringify(res)).not.toContain(BRAVE_KEY);
    expect(h.proxy.logs.join('\n')).not.toContain(BRAVE_KEY);
  });

  it('the next turn: the earlier search (sent back as its blocks) reaches the model as its call and result, not dropped', async () => {
    serve(chatModel([toolCall('web_search', { query: 'who won euro 2024' })]));
    const first = await anthropic.messages.create(ask);
    serve(() => chatJson({ content: 'In Berlin.' }, 'stop'));
    const res = await anthropic.messages.create({ ...ask, messages: [...ask.messages, { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: 'Where was the final?' }] });
    expect(res.content.at(-1)).toMatchObject({ type: 'text', text: 'In Berlin.' });
    const sent = chatCalls().at(-1)!.json.messages as Array<{ role: string; content: unknown; tool_calls?: Array<{ function: { name: string; arguments: string } }> }>;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[1]!.tool_calls![0]!.function).toEqual({ name: 'web_search', arguments: JSON.stringify({ query: 'who won euro 2024' }) });
    expect(sent[2]!.content).toContain(PAGE);
    expect(sent[3]!.content).toBe(ANSWER);
  });

  it('Anthropic caller, streamed (Claude Code forces the search): text, then the search blocks, then the answer as it comes', async () => {
    serve(chatModel([toolCall('web_search', { query: 'euro 2024 winner' })]));
    const stream = anthropic.messages.stream({ ...ask, tool_choice: { type: 'tool', name: 'web_search' } });
    const message = await stream.finalMessage();
    const [first, second] = chatCalls();
    expect(first!.json.tool_choice).toEqual({ type: 'function', function: { name: 'web_search' } });
    expect(second!.json.tool_choice).toBe('auto'); // forced once
    expect(message.content.map((b) => b.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'text']);
    expect((message.content[0] as Anthropic.TextBlock).text).toBe('Let me search.');
    expect(message.content[1]).toMatchObject({ name: 'web_search', input: { query: 'euro 2024 winner' } });
    expect((message.content[3] as Anthropic.TextBlock).text).toBe(ANSWER);
    // Streamed as the JSON answer is: the text naming the page cites it (citations_delta).
    expect(((message.content[3] as Anthropic.TextBlock).citations ?? []).map((c) => (c as Anthropic.CitationsWebSearchResultLocation).url)).toEqual([PAGE]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ output_tokens: 10, server_tool_use: { web_search_requests: 1 } });
  });

  it('Responses caller: a web_search_call with the query and sources, url_citation on the text; streamed too', async () => {
    serve(chatModel([toolCall('web_search', { query: 'who won euro 2024' })]));
    const res = await openai.responses.create({ model: 'to-openai', input: 'Who won Euro 2024?', tools: [{ type: 'web_search' }] });
    const call = res.output.find((o) => o.type === 'web_search_call') as OpenAI.Responses.ResponseFunctionWebSearch;
    expect(call).toMatchObject({ status: 'completed', action: { type: 'search', query: 'who won euro 2024' } });
    expect(res.output_text).toBe(ANSWER);
    const msg = res.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    const annotations = (msg.content[0] as OpenAI.Responses.ResponseOutputText).annotations;
    expect(annotations).toEqual([expect.objectContaining({ type: 'url_citation', url: PAGE })]);

    serve(chatModel([toolCall('web_search', { query: 'who won euro 2024' })]));
    const types: string[] = [];
    const cited: string[] = [];
    let text = '';
    for await (const e of await openai.responses.create({ model: 'to-openai', input: 'Who won Euro 2024?', tools: [{ type: 'web_search' }], stream: true })) {
      types.push(e.type);
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'response.output_text.annotation.added') cited.push((e.annotation as { url: string }).url);
    }
    expect(cited).toEqual([PAGE]);
    expect(types).toContain('response.web_search_call.completed');
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe('Let me search.' + ANSWER);
  });

  it('Gemini caller (googleSearch): the search as groundingMetadata, the text grounded on the page it names', async () => {
    serve(chatModel([toolCall('web_search', { query: 'who won euro 2024' })]));
    const genai = new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: h.proxy.url } });
    const res = await genai.models.generateContent({ model: 'to-openai', contents: 'Who won Euro 2024?', config: { tools: [{ googleSearch: {} }] } });
    expect(res.text).toBe(ANSWER);
    const g = res.candidates![0]!.groundingMetadata!;
    expect(g.webSearchQueries).toEqual(['who won euro 2024']);
    expect(g.groundingChunks!.map((c) => c.web?.uri)).toEqual(braveBody.web.results.map((r) => r.url));
    expect(g.groundingSupports?.[0]?.groundingChunkIndices).toEqual([0]);
  });

  it('a later round that fails: the stream ends with the dialect\'s error event; not streamed, the error status', async () => {
    h.mock.reply((req) => {
      if (!req.url.startsWith('/v1/chat/completions')) return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(braveBody) };
      const answered = (req.json.messages as Array<{ role: string }>).some((m) => m.role === 'tool');
      return answered ? { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'context too long', type: 'invalid_request_error' } }) } : chatModel([toolCall('web_search', { query: 'q' })])(req);
    });
    const stream = anthropic.messages.stream(ask);
    const failed = await stream.finalMessage().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(String((failed as Error).message)).toMatch(/context too long/);
    const err = await anthropic.messages.create(ask).catch((e: unknown) => e);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
  });

  it('a caller\'s own tool called: the loop stops and the call goes to the caller', async () => {
    serve(() => chatJson({ content: null, tool_calls: [toolCall('get_time', {}, 'call_9')] }, 'tool_calls'));
    const res = await anthropic.messages.create({ ...ask, tools: [searchTool, { name: 'get_time', input_schema: { type: 'object' } }] });
    expect(chatCalls()).toHaveLength(1);
    expect((chatCalls()[0]!.json.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(['get_time', 'web_search']);
    expect(res.stop_reason).toBe('tool_use');
    expect(res.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'get_time' })]);
  });

  it('a model that never stops searching: at most 8 upstream calls, the last asked to answer without tools; its web call then not run', async () => {
    serve((req) => (req.json.stream ? chatModel([])(req) : chatJson({ content: null, tool_calls: [toolCall('web_search', { query: 'again' }, `call_${Math.random()}`.slice(0, 12))] }, 'tool_calls')));
    const res = await anthropic.messages.create(ask);
    const calls = chatCalls();
    expect(calls).toHaveLength(8);
    expect(calls.at(-1)!.json.tool_choice).toBe('none');
    expect(searches()).toHaveLength(3); // max_uses 3: the others answered max_uses_exceeded
    expect(res.stop_reason).toBe('end_turn');
    expect(res.content.filter((b) => b.type === 'server_tool_use')).toHaveLength(7);
  });

  it('max_uses: a search past it is answered max_uses_exceeded, not run', async () => {
    serve(chatModel([toolCall('web_search', { query: 'a' }, 'call_1'), toolCall('web_search', { query: 'b' }, 'call_2')]));
    const res = await anthropic.messages.create({ ...ask, tools: [{ ...searchTool, max_uses: 1 }] });
    expect(searches()).toHaveLength(1);
    const results = res.content.filter((b) => b.type === 'web_search_tool_result') as Anthropic.WebSearchToolResultBlock[];
    expect(results[1]!.content).toMatchObject({ type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' });
  });

  it('security: a page read of a loopback or metadata address is refused, never fetched; the model is told', async () => {
    serve(chatModel([toolCall('web_fetch', { url: 'http://169.254.169.254/latest/meta-data/' }, 'call_1'), toolCall('web_fetch', { url: 'http://localhost:9/secret' }, 'call_2')]));
    const fetchTool = { type: 'web_fetch_20250910', name: 'web_fetch' } as unknown as Anthropic.ToolUnion;
    const res = await anthropic.messages.create({ ...ask, tools: [fetchTool] });
    expect(searches()).toHaveLength(0);
    const tools = (chatCalls()[1]!.json.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool');
    expect(tools.map((t) => t.content)).toEqual([expect.stringMatching(/^Error \(url_not_accessible\)/), expect.stringMatching(/^Error \(url_not_accessible\)/)]);
    expect(res.content.at(-1)).toMatchObject({ type: 'text', text: ANSWER });
  });

  it('a page read on an allowed host: its readable text given to the model', async () => {
    h.mock.reply((req) => {
      if (req.url.startsWith('/v1/chat/completions')) return chatModel([toolCall('web_fetch', { url: `${h.mock.url}/page` })])(req);
      return { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html><head><title>Final &amp; report</title><script>var x=1</script></head><body><h1>Spain</h1><p>Won <b>2&ndash;1</b>.</p></body></html>' };
    });
    const fetchTool = { type: 'web_fetch_20250910', name: 'web_fetch' } as unknown as Anthropic.ToolUnion;
    await anthropic.messages.create({ ...ask, tools: [fetchTool] });
    const tool = (chatCalls()[1]!.json.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')!;
    expect(tool.content).toBe(`Title: Final & report\nURL: ${h.mock.url}/page\n\nSpain\n\nWon 2–1.`);
  });

  it('Tavily backend: POST /search with the key as a bearer token', async () => {
    tav.mock.reply((req) => (req.url.startsWith('/v1/chat/completions') ? chatModel([toolCall('web_search', { query: 'who won euro 2024' })])(req) : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(tavilyBody) }));
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: tav.proxy.url, maxRetries: 0 });
    const res = await client.messages.create(ask);
    const search = searches(tav.mock)[0]!;
    expect(search.method).toBe('POST');
    expect(search.url).toBe('/search');
    expect(search.headers.authorization).toBe(`Bearer ${TAVILY_KEY}`);
    expect(search.json).toMatchObject({ query: 'who won euro 2024', max_results: 5 });
    expect(res.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(JSON.stringify(res)).not.toContain(TAVILY_KEY);
  });

  it('dry run: the first round as planned, the function in place of the hosted tool; no search, no upstream call', async () => {
    const dry = await fetch(`${h.proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'x-interlingua-dry-run': 'true' },
      body: JSON.stringify(ask),
    });
    expect(dry.status).toBe(200);
    const shown = (await dry.json()) as { request: { body: { tools: unknown[] } } };
    expect(shown.request.body.tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'web_search' }) }]);
    expect(h.mock.requests).toHaveLength(0);
  });

  it('Codex standalone search (POST /v1/alpha/search): search_query on the backend, open through the guarded fetcher, the rest said skipped', async () => {
    h.mock.reply((req) =>
      req.url.startsWith('/res/') ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(braveBody) } : { headers: { 'content-type': 'text/html' }, body: '<p>Spain 2&ndash;1 England</p><p>Berlin</p>' },
    );
    const logged = h.proxy.logs.length;
    const post = (body: unknown, proxy = h.proxy) =>
      fetch(`${proxy.url}/v1/alpha/search`, { method: 'POST', headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const res = await post({
      id: 'thread-1',
      model: 'gpt-5-codex',
      commands: { search_query: [{ q: 'euro 2024 final' }], open: [{ ref_id: `${h.mock.url}/final` }], find: [{ ref_id: `${h.mock.url}/final`, pattern: 'berlin' }], click: [{ ref_id: 'x', id: 1 }] },
      settings: { external_web_access: true },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { encrypted_output: unknown; output: string };
    expect(body.encrypted_output).toBeNull();
    expect(body.output).toContain(`URL: ${PAGE}`);
    expect(body.output).toContain('Spain 2–1 England');
    expect(body.output).toContain('Matches of "berlin"');
    expect(body.output).toContain('Not supported by this search backend: click.');
    expect(searches().map((r) => r.url.split('?')[0])).toEqual(['/res/v1/web/search', '/final', '/final']);
    expect(await nextLine(h.proxy.logs, 'alpha.search', logged)).toMatchObject({ status: 200, webSearches: 3 });
    expect(JSON.stringify(body)).not.toContain(BRAVE_KEY);

    expect((await post({ model: 'm' })).status).toBe(400);
    const none = await post({ model: 'm', commands: { search_query: [{ q: 'x' }] } }, bare.proxy);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('standalone_search_disabled');
  });

  it('no backend: the tool dropped with the loss report; strict mode refuses with a 400 saying why', async () => {
    bare.mock.reply(chatJson({ content: 'I cannot search.' }, 'stop'));
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: bare.proxy.url, maxRetries: 0 });
    const res = await client.messages.create(ask);
    expect(res.content).toEqual([expect.objectContaining({ type: 'text', text: 'I cannot search.' })]);
    expect(bare.mock.requests[0]!.json.tools).toBeUndefined();
    const err = await client.messages.create({ ...ask, model: 'strict' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    expect((err as Error).message).toMatch(/no search backend is configured/);
    expect(bare.mock.requests).toHaveLength(1);
  });
});

describe.each(TARGETS)('%s: a search the proxy ran, as a span', (target) => {
  let otlp: OtlpReceiver;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
  });
  afterAll(() => otlp?.close());
  const h = useHarness(target, (url) => e2eConfig(url, { search: { provider: 'brave', apiKey: BRAVE_KEY, baseUrl: url }, telemetry: { otlp: { endpoint: otlp.url, intervalMs: 20 } } }));

  it('an execute_tool span per search under the server span, its backend and result count, no query without captureContent', async () => {
    h.mock.reply((req) => (req.url.startsWith('/v1/chat/completions') ? chatModel([toolCall('web_search', { query: 'who won euro 2024' })])(req) : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(braveBody) }));
    const traceId = 'a'.repeat(31) + '1';
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    await client.messages.create({ model: 'to-openai', max_tokens: 64, messages: [{ role: 'user', content: 'Who won Euro 2024?' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, { headers: { traceparent: `00-${traceId}-${'b'.repeat(16)}-01` } });
    const spans = await otlp.waitFor((s) => s.traceId === traceId, 4);
    const server = spans.find((s) => s.kind === 2)!;
    const tool = spans.filter((s) => s.name === 'execute_tool web_search');
    expect(tool).toHaveLength(1);
    expect(tool[0]!.parentSpanId).toBe(server.spanId);
    expect(tool[0]!.attrs).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'web_search', 'interlingua.search.backend': 'brave', 'interlingua.search.results': 2 });
    expect(JSON.stringify(spans)).not.toContain('who won euro 2024');
    expect(server.attrs['interlingua.web_searches']).toBe(1);
  });
});
