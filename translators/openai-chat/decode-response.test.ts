import { describe, expect, test } from 'vitest';
import { ProxyError, type ChatRequest, type NativeTool, type StreamEvent } from '../../src/canonical/index.ts';
import { fixtureJson, testContext, fixtureSse } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeResponse } from './encode-response.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';
import { OpenAIChatStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: false };

const decode = (body: unknown, r = req) => decodeResponse(body, r, testContext());

describe('decodeResponse: fixtures', () => {
  test('text-basic', () => {
    expect(decode(fixtureJson('openai-chat', 'text-basic.json'))).toEqual({
      id: 'chatcmpl-ABfvaueLEMLNYbT8YzpJxsmiQ6HSY',
      model: 'gpt-4o-2024-08-06',
      created: 1727346142,
      choices: [
        {
          index: 0,
          content: [
            {
              type: 'text',
              text: "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or app like the Weather Channel or a local news station.",
            },
          ],
          finishReason: { unified: 'stop', raw: 'stop' },
        },
      ],
      usage: { inputTokens: 14, outputTokens: 37, totalTokens: 51, reasoningTokens: 0 },
      extras: { dialect: 'openai-chat', fields: { system_fingerprint: 'fp_b40fb1c6fb' } },
    });
  });

  test('text-modern-usage: details, service_tier, empty annotations', () => {
    const res = decode(fixtureJson('openai-chat', 'text-modern-usage.json'));
    expect(res.usage).toEqual({ inputTokens: 16, outputTokens: 363, totalTokens: 379, cachedInputTokens: 0, reasoningTokens: 0 });
    expect(res.extras?.fields).toEqual({ system_fingerprint: 'fp_de604bd877', service_tier: 'default' });
    expect(res.choices[0]!.content[0]).not.toHaveProperty('citations');
  });

  test('usage-cached-and-reasoning-tokens', () => {
    const usage = fixtureJson('openai-chat', 'usage-cached-and-reasoning-tokens.json');
    const res = decode({ id: 'x', choices: [], usage });
    expect(res.usage).toEqual({ inputTokens: 6226, outputTokens: 1411, totalTokens: 7637, cachedInputTokens: 1152, reasoningTokens: 768 });
  });

  test('finish-length', () => {
    const res = decode(fixtureJson('openai-chat', 'finish-length.json'));
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'length', raw: 'length' });
    expect(res.choices[0]!.content).toEqual([{ type: 'text', text: '{"' }]);
  });

  test('structured-output-json-schema', () => {
    const res = decode(fixtureJson('openai-chat', 'structured-output-json-schema.json'));
    expect(JSON.parse((res.choices[0]!.content[0] as { text: string }).text)).toEqual({ city: 'San Francisco', temperature: 65, units: 'f' });
  });

  test('n3-multiple-choices', () => {
    const res = decode(fixtureJson('openai-chat', 'n3-multiple-choices.json'));
    expect(res.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(res.choices[2]!.content).toEqual([{ type: 'text', text: '{"city":"San Francisco","temperature":63.0,"units":"f"}' }]);
  });

  test('refusal → refusal part, unified refusal', () => {
    const res = decode(fixtureJson('openai-chat', 'refusal.json'));
    expect(res.choices[0]!.content).toEqual([{ type: 'refusal', text: "I'm very sorry, but I can't assist with that." }]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'refusal', raw: 'stop' });
  });

  test('tool-call-single and parallel-tool-calls', () => {
    const one = decode(fixtureJson('openai-chat', 'tool-call-single.json'));
    expect(one.choices[0]!.content).toEqual([
      { type: 'tool-call', id: 'call_Y6qJ7ofLgOrBnMD5WbVAeiRV', name: 'GetWeatherArgs', arguments: '{"city":"Edinburgh","country":"UK","units":"c"}' },
    ]);
    expect(one.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
    const two = decode(fixtureJson('openai-chat', 'parallel-tool-calls.json'));
    expect(two.choices[0]!.content.map((p) => (p as { id: string }).id)).toEqual(['call_fdNz3vOBKYgOIpMdWotB9MjY', 'call_h1DWI1POMJLb0KwIyQHWXD4p']);
  });

  test('azure-content-filter: null content, filter results kept', () => {
    const res = decode(fixtureJson('openai-chat', 'azure-content-filter.json'));
    expect(res.choices[0]!.content).toEqual([]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'content-filter', raw: 'content_filter' });
    expect(res.choices[0]!.extras?.fields['content_filter_results']).toMatchObject({ violence: { filtered: true, severity: 'medium' } });
    expect(res.extras?.fields['prompt_filter_results']).toHaveLength(1);
    expect(res.usage).toEqual({ inputTokens: 82, outputTokens: 34, totalTokens: 116 });
  });
});

describe('decodeResponse: other shapes', () => {
  test('reasoning_content (DeepSeek), annotations, logprobs, audio, legacy function_call, Gemini signature', () => {
    const res = decode(
      {
        id: 'r1',
        created: 5,
        model: 'deepseek-reasoner',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              reasoning_content: 'thinking',
              content: 'See docs.',
              annotations: [{ type: 'url_citation', url_citation: { start_index: 0, end_index: 3, url: 'https://d', title: 'D' } }],
              audio: { id: 'audio_1', data: 'UklG', transcript: 'See docs.', expires_at: 9 },
              tool_calls: [
                { id: 'call_g', type: 'function', function: { name: 'f', arguments: '{}' }, extra_content: { google: { thought_signature: 'sig' } } },
              ],
            },
            logprobs: { content: [{ token: 'See', logprob: -0.1, bytes: [83], top_logprobs: [] }], refusal: null },
            finish_reason: 'tool_calls',
          },
          { index: 1, message: { role: 'assistant', content: null, function_call: { name: 'old', arguments: '{}' } }, finish_reason: 'function_call' },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_cache_hit_tokens: 4 },
      },
      { ...req, extras: { dialect: 'openai-chat', fields: { audio: { format: 'wav', voice: 'alloy' } } } },
    );
    expect(res.choices[0]!.content).toEqual([
      { type: 'reasoning', text: 'thinking' },
      {
        type: 'text',
        text: 'See docs.',
        citations: [
          {
            url: 'https://d',
            title: 'D',
            span: { start: 0, end: 3 },
            raw: { dialect: 'openai-chat', value: { type: 'url_citation', url_citation: { start_index: 0, end_index: 3, url: 'https://d', title: 'D' } } },
          },
        ],
      },
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' },
      { type: 'tool-call', id: 'call_g', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'sig' } },
    ]);
    expect(res.choices[0]!.logprobs).toMatchObject({ content: [{ token: 'See' }] });
    expect(res.choices[0]!.extras?.fields['audio']).toMatchObject({ id: 'audio_1', transcript: 'See docs.' });
    expect(res.choices[1]!.content).toEqual([{ type: 'tool-call', id: 'call_test0001', name: 'old', arguments: '{}' }]);
    expect(res.choices[1]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'function_call' });
    expect(res.usage?.cachedInputTokens).toBe(4);
  });

  test('audio output: its format is the one the caller asked for, wav when it named none', () => {
    const audioReply = { id: 'r', created: 1, model: 'gpt-4o-audio-preview', choices: [{ index: 0, message: { role: 'assistant', content: null, audio: { id: 'audio_1', data: 'SUQz', transcript: 'hi', expires_at: 9 } }, finish_reason: 'stop' }] };
    const asking = (audio: unknown): ChatRequest => ({ ...req, extras: { dialect: 'openai-chat', fields: { audio } } });
    const audioPart = (r: ChatRequest) => decode(audioReply, r).choices[0]!.content.find((p) => p.type === 'audio');
    expect(audioPart(asking({ format: 'mp3', voice: 'alloy' }))).toEqual({ type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'SUQz' }, format: 'mp3' });
    // A format without a known media type keeps its name in the media type.
    expect(audioPart(asking({ format: 'pcm16', voice: 'alloy' }))).toEqual({ type: 'audio', source: { type: 'base64', mediaType: 'audio/pcm16', data: 'SUQz' }, format: 'pcm16' });
    for (const r of [req, asking(null), asking('mp3'), asking({ voice: 'alloy' }), asking({ format: 3 }), { ...req, extras: { dialect: 'anthropic', fields: { audio: { format: 'mp3' } } } } as ChatRequest]) {
      expect(audioPart(r)).toMatchObject({ source: { mediaType: 'audio/wav' }, format: 'wav' });
    }
  });

  test('a body that is not a chat completion keeps its bytes on the error', () => {
    try {
      decode({ choices: 'no' });
      expect.unreachable();
    } catch (e) {
      expect((e as ProxyError).message).toBe('The upstream returned a body that is not a chat completion.');
      expect((e as ProxyError).raw).toBe('{"choices":"no"}');
    }
  });

  test('content as an array of parts (Mistral thinking)', () => {
    const res = decode({
      id: 'm1',
      choices: [
        {
          message: { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: 'Yes.' }] },
          finish_reason: 'stop',
        },
      ],
    });
    expect(res.choices[0]!.content).toEqual([
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: 'Yes.' },
    ]);
  });

  test('missing id/model/created are synthesized', () => {
    const res = decode({ choices: [{ message: { content: 'x' }, finish_reason: 'stop' }] });
    expect(res).toMatchObject({ id: 'chatcmpl-test0001', model: 'asked', created: 1_700_000_000 });
    expect(res.usage).toBeUndefined();
  });

  test.each([null, 'x', 1, [], {}, { choices: 'no' }, { choices: [{ message: 5 }] }])('garbage %j → upstream ProxyError', (body) => {
    expect(() => decode(body)).toThrow(ProxyError);
    try {
      decode(body);
    } catch (e) {
      expect((e as ProxyError).kind).toBe('upstream');
    }
  });
});

describe('decodeResponse: the exact shapes', () => {
  const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: false };

  const decode = (body: unknown) => decodeResponse(body, req, testContext());

  const body = (choices: unknown[], extra: object = {}) => ({ id: 'r', object: 'chat.completion', created: 7, model: 'm', choices, ...extra });

  test('a bare answer decodes to exactly its id, model, created and choice', () => {
    expect(decode(body([{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }]))).toStrictEqual({
      id: 'r',
      model: 'm',
      created: 7,
      choices: [{ index: 0, content: [{ type: 'text', text: 'hi' }], finishReason: { unified: 'stop', raw: 'stop' } }],
    });
  });

  test('null fingerprint and service tier are left out; each one given is kept', () => {
    const choice = { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' };
    expect(decode(body([choice], { system_fingerprint: null, service_tier: null })).extras).toBeUndefined();
    expect(decode(body([choice], { service_tier: 'default' })).extras).toStrictEqual({ dialect: 'openai-chat', fields: { service_tier: 'default' } });
    expect(decode(body([choice], { prompt_filter_results: [] })).extras).toStrictEqual({ dialect: 'openai-chat', fields: { prompt_filter_results: [] } });
  });

  test('a choice without a message has no content; its filter results are kept', () => {
    const filters = { hate: { filtered: true, severity: 'high' } };
    expect(decode(body([{ index: 0, finish_reason: 'content_filter', content_filter_results: filters }])).choices).toStrictEqual([
      { index: 0, content: [], finishReason: { unified: 'content-filter', raw: 'content_filter' }, extras: { dialect: 'openai-chat', fields: { content_filter_results: filters } } },
    ]);
  });

  test("the wire's choice index is kept, else the position", () => {
    const msg = { role: 'assistant', content: 'x' };
    expect(decode(body([{ index: 2, message: msg, finish_reason: 'stop' }, { message: msg, finish_reason: 'stop' }])).choices.map((c) => c.index)).toEqual([2, 1]);
  });

  test('tool calls and a legacy function call with missing parts decode with empty strings', () => {
    const content = decode(
      body([
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function' }], function_call: {} },
          finish_reason: 'tool_calls',
        },
      ]),
    ).choices[0]!.content;
    expect(content).toStrictEqual([
      { type: 'tool-call', id: 'call_a', name: '', arguments: '' },
      { type: 'tool-call', id: 'call_test0001', name: '', arguments: '' },
    ]);
  });

  test('a refusal beside an answer is an answer; a refusal alone is a refusal', () => {
    const reason = (message: object) => decode(body([{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }])).choices[0]!.finishReason;
    expect(reason({ content: 'partly', refusal: 'not that' })).toEqual({ unified: 'stop', raw: 'stop' });
    expect(reason({ content: null, refusal: 'No.' })).toEqual({ unified: 'refusal', raw: 'stop' });
    expect(reason({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] })).toEqual({ unified: 'stop', raw: 'stop' });
    expect(reason({ content: null, refusal: 'No.', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] })).toEqual({ unified: 'refusal', raw: 'stop' });
  });
});

describe('decoding compatible hosts', () => {
  const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: true };
  const decodeStream = (name: string): StreamEvent[] => {
    const d = new OpenAIChatStreamDecoder(req, testContext());
    return [...fixtureSse('openai-chat', name).flatMap((e) => d.push(e)), ...d.finish()];
  };

  test('Groq: a stream’s usage in x_groq.usage (github.com/vercel/ai/issues/1651)', () => {
    const usage = decodeStream('hosts/groq-stream-x-groq-usage.sse').filter((e) => e.type === 'usage');
    expect(usage).toEqual([{ type: 'usage', usage: { inputTokens: 23, outputTokens: 19, totalTokens: 42 } }]);
  });

  test('OpenRouter: cost and cached / cache-write tokens (openrouter.ai/docs/use-cases/usage-accounting)', () => {
    const res = decodeResponse(fixtureJson('openai-chat', 'hosts/openrouter-usage-cost.json'), req, testContext());
    expect(res.usage).toEqual({ inputTokens: 194, outputTokens: 2, totalTokens: 196, cachedInputTokens: 64, cacheWriteTokens: 100, reasoningTokens: 0, cost: 0.95 });
    const streamed = decodeStream('hosts/openrouter-stream-usage-cost.sse').filter((e) => e.type === 'usage');
    expect(streamed).toEqual([{ type: 'usage', usage: res.usage }]);
    // An OpenAI caller gets it where OpenRouter puts it.
    expect((encodeResponse(res, req, testContext()) as any).usage.cost).toBe(0.95);
    const enc = new OpenAIChatStreamEncoder({ ...req, streamUsage: true }, testContext());
    const frames = [...enc.push({ type: 'message-start', id: 'x', model: 'm', created: 1 }), ...enc.push({ type: 'usage', usage: res.usage! }), ...enc.finish()];
    expect(frames.some((f) => f.data.includes('"cost":0.95'))).toBe(true);
  });

  test('a streamed tool call whose name comes after its first arguments keeps its name', () => {
    const events = decodeStream('hosts/stream-tool-call-late-name.sse');
    const start = events.find((e) => e.type === 'tool-call-start');
    expect(start).toEqual({ type: 'tool-call-start', choice: 0, index: 0, id: 'call_late_1', name: 'get_weather' });
    const args = events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.argumentsDelta] : [])).join('');
    expect(args).toBe('{"city":"Paris"}');
    // The fragments that waited for the name go out with it, as one delta.
    expect(events.map((e) => e.type)).toEqual(['message-start', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish']);
  });

  test('a call that never gets a name still arrives, nameless, with its arguments', () => {
    const d = new OpenAIChatStreamDecoder(req, testContext());
    const chunk = (delta: unknown, finish: string | null = null) => ({ data: JSON.stringify({ id: 'c', choices: [{ index: 0, delta, finish_reason: finish }] }) });
    const events = [...d.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] })), ...d.push(chunk({}, 'tool_calls')), ...d.finish()];
    expect(events.filter((e) => e.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', choice: 0, index: 0, id: 'call_test0001', name: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
    ]);
  });
});

describe('decodeResponse: the search behind an answer\'s citations', () => {
  const web: NativeTool = { dialect: 'anthropic', definition: { type: 'web_search_20250305' }, path: 'tools[1]', web: { kind: 'search' } };
  const code: NativeTool = { dialect: 'anthropic', definition: { type: 'code_execution_20250825' }, path: 'tools[0]' };
  const ann = { type: 'url_citation', url_citation: { url: 'https://a', title: 'A', start_index: 0, end_index: 2 } };
  const answer = (message: object) => ({ id: 'r', object: 'chat.completion', created: 7, model: 'm', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }] });

  test('a request with a hosted web tool among others: the cited pages are a search before the text', () => {
    const content = decode(answer({ content: 'Hi', annotations: [ann] }), { ...req, nativeTools: [code, web] }).choices[0]!.content;
    expect(content).toStrictEqual([
      { type: 'web-search', id: 'ws_test0001', kind: 'search', results: [{ url: 'https://a', title: 'A' }] },
      { type: 'text', text: 'Hi', citations: [{ url: 'https://a', title: 'A', span: { start: 0, end: 2 }, raw: { dialect: 'openai-chat', value: ann } }] },
    ]);
  });

  test('no search without a hosted web tool, nor without citations; an empty annotation list is no citations', () => {
    expect(decode(answer({ content: 'Hi', annotations: [ann] }), { ...req, nativeTools: [code] }).choices[0]!.content.map((p) => p.type)).toEqual(['text']);
    expect(decode(answer({ content: 'Hi', annotations: [] }), { ...req, nativeTools: [web] }).choices[0]!.content).toStrictEqual([{ type: 'text', text: 'Hi' }]);
    expect(decode(answer({ content: 'Hi' }), { ...req, nativeTools: [web] }).choices[0]!.content).toStrictEqual([{ type: 'text', text: 'Hi' }]);
    expect(decode(answer({ content: 'Hi', annotations: null }), { ...req, nativeTools: [web] }).choices[0]!.content).toStrictEqual([{ type: 'text', text: 'Hi' }]);
  });
});
