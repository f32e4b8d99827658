/**
 * The OpenAI-compatible hosts through the official SDKs (openai, @anthropic-ai/sdk, @google/genai),
 * against mocks that enforce each host's wire as the real one does — so each quirk's handling is
 * what makes the call succeed, and the same call through a plain upstream (no provider) fails:
 *
 * - Mistral: 422 in its pydantic shape on `max_completion_tokens` / `stream_options`
 *   (github.com/cline/cline/issues/582, github.com/editor-code-assistant/eca/issues/231); tool-call
 *   ids must be `[a-zA-Z0-9]{9}` and each result must answer a call
 *   (github.com/langchain-ai/langchain/pull/24668).
 * - DeepSeek thinking mode: an assistant tool-call turn without `reasoning_content` is a 400
 *   (api-docs.deepseek.com/guides/thinking_mode, "Tool Calls").
 * - Groq: usage only in `x_groq.usage` (github.com/vercel/ai/issues/1651); a system message's
 *   content must be a string (github.com/OpenHands/OpenHands/issues/4643).
 * - OpenRouter: `usage.cost` and cache counters (openrouter.ai/docs/use-cases/usage-accounting).
 *
 * On Node and in workerd; JSON and streams.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream, type MockReply, type MockUpstream, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, startProxy, type RunningProxy } from '../support/proxy.ts';
import { genai } from './helpers-gemini.ts';

const KEY = 'sk-compat-upstream-SECRET-5555';
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

const json = (status: number, body: unknown): MockReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sse = (chunks: unknown[]): MockReply => ({
  headers: { 'content-type': 'text/event-stream' },
  chunks: [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'],
});
const completion = (message: Record<string, unknown>, finish: string, usage: Record<string, unknown> = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }) => ({
  id: 'cmpl-1',
  object: 'chat.completion',
  created: 1762317021,
  model: 'upstream-model',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage,
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: 'cmpl-1',
  object: 'chat.completion.chunk',
  created: 1762317021,
  model: 'upstream-model',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

type Msg = Record<string, any>;
const lastRole = (req: ReceivedRequest) => (req.json.messages as Msg[]).at(-1)!.role as string;

/** Mistral: pydantic's 422 on fields it does not know, its tool-call id rule, then an answer. */
function mistral(req: ReceivedRequest): MockReply {
  const b = req.json as Msg;
  const extra = ['max_completion_tokens', 'stream_options'].filter((k) => k in b);
  if (extra.length > 0) {
    return json(422, {
      object: 'error',
      message: { detail: extra.map((k) => ({ type: 'extra_forbidden', loc: ['body', k], msg: 'Extra inputs are not permitted', input: b[k] })) },
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
  }
  const calls = new Set<string>();
  for (const m of b.messages as Msg[]) {
    for (const id of [...(m.tool_calls ?? []).map((c: Msg) => c.id), ...(m.role === 'tool' ? [m.tool_call_id] : [])]) {
      if (!MISTRAL_ID.test(id)) {
        return json(400, { object: 'error', message: `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`, type: 'invalid_request_error', param: null, code: null });
      }
    }
    for (const c of m.tool_calls ?? []) calls.add(c.id);
    if (m.role === 'tool' && !calls.has(m.tool_call_id)) return json(400, { object: 'error', message: `Unexpected tool call id ${m.tool_call_id} in tool results`, type: 'invalid_request_error', param: null, code: null });
  }
  const usage = { prompt_tokens: 31, completion_tokens: 9, total_tokens: 40 };
  if (lastRole(req) === 'tool') {
    return b.stream
      ? sse([chunk({ role: 'assistant', content: 'It is 18C ' }), chunk({ content: 'in Paris.' }), chunk({ content: '' }, 'stop', { usage })])
      : json(200, completion({ content: 'It is 18C in Paris.' }, 'stop', usage));
  }
  const call = { id: 'Xy12Ab34C', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
  return b.stream
    ? sse([chunk({ role: 'assistant', content: '' }), chunk({ tool_calls: [{ index: 0, ...call }] }), chunk({ content: '' }, 'tool_calls', { usage })])
    : json(200, completion({ content: '', tool_calls: [call] }, 'tool_calls', usage));
}

const DS_THOUGHT = 'The user wants the weather in Paris. I should call get_weather.';
const DS_CALL = { id: 'call_00_Kq3vX1aZpN2rT8yW', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };

/** DeepSeek thinking mode: a tool-call turn that comes back without its reasoning_content is a 400. */
function deepseek(req: ReceivedRequest): MockReply {
  const b = req.json as Msg;
  for (const m of b.messages as Msg[]) {
    if (m.role === 'assistant' && m.tool_calls?.length && !(typeof m.reasoning_content === 'string' && m.reasoning_content)) {
      return { status: 400, headers: { 'content-type': 'application/json' }, body: fixtureText('openai-chat', 'hosts/deepseek-error-400-reasoning-content.json') };
    }
  }
  if (lastRole(req) === 'tool') {
    return b.stream
      ? sse([chunk({ role: 'assistant', content: null, reasoning_content: 'The tool said 18C.' }), chunk({ content: 'It is 18C in Paris.' }), chunk({}, 'stop', { usage: { prompt_tokens: 60, completion_tokens: 20, total_tokens: 80 } })])
      : json(200, completion({ content: 'It is 18C in Paris.', reasoning_content: 'The tool said 18C.' }, 'stop'));
  }
  return b.stream
    ? sse([
        chunk({ role: 'assistant', content: null, reasoning_content: DS_THOUGHT.slice(0, 20) }),
        chunk({ reasoning_content: DS_THOUGHT.slice(20) }),
        chunk({ tool_calls: [{ index: 0, ...DS_CALL }] }),
        chunk({}, 'tool_calls', { usage: { prompt_tokens: 50, completion_tokens: 30, total_tokens: 80 } }),
      ])
    : json(200, completion({ content: '', reasoning_content: DS_THOUGHT, tool_calls: [DS_CALL] }, 'tool_calls'));
}

/** Groq: a system message's content must be a string; a stream's usage comes in x_groq.usage. */
function groq(req: ReceivedRequest): MockReply {
  const b = req.json as Msg;
  const i = (b.messages as Msg[]).findIndex((m) => m.role === 'system' && typeof m.content !== 'string');
  if (i >= 0) return json(400, { error: { message: `'messages.${i}' : for 'role:system' the following must be satisfied[('messages.${i}.content' : value must be a string)]`, type: 'invalid_request_error' } });
  if (b.stream_options !== undefined && b.stream_options.include_usage !== true) return json(400, { error: { message: 'bad stream_options', type: 'invalid_request_error' } });
  return b.stream ? fixtureReply('openai-chat', 'hosts/groq-stream-x-groq-usage.sse') : json(200, completion({ content: 'Hello there!' }, 'stop', { prompt_tokens: 23, completion_tokens: 19, total_tokens: 42 }));
}

/** OpenRouter: usage with cost and cache counters, in the JSON body or the last stream chunk. */
function openrouter(req: ReceivedRequest): MockReply {
  return req.json.stream ? fixtureReply('openai-chat', 'hosts/openrouter-stream-usage-cost.sse') : fixtureReply('openai-chat', 'hosts/openrouter-usage-cost.json');
}

const HOSTS: Array<[string, (r: ReceivedRequest) => MockReply]> = [
  ['/mistral/v1/chat/completions', mistral],
  ['/deepseek/chat/completions', deepseek],
  ['/groq/openai/v1/chat/completions', groq],
  ['/openrouter/api/v1/chat/completions', openrouter],
];

function hosts(req: ReceivedRequest): MockReply {
  if (req.headers['authorization'] !== `Bearer ${KEY}`) return json(401, { error: { message: 'Invalid API key', type: 'invalid_request_error' } });
  const host = HOSTS.find(([path]) => req.url === path);
  return host ? host[1](req) : json(404, { error: { message: `no route ${req.url}` } });
}

const weather = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };
const weatherFn = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe.each(TARGETS)('%s: OpenAI-compatible providers', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    mock = await startMockUpstream();
    mock.reply(hosts);
    const up = (provider: string | undefined, path: string) => ({ dialect: 'openai', ...(provider ? { provider } : {}), baseUrl: `${mock.url}${path}`, apiKey: 'env:COMPAT_KEY', retry: { attempts: 1 } });
    const config = {
      keys: [INBOUND_KEY],
      upstreams: {
        mistral: up('mistral', '/mistral/v1'),
        'mistral-plain': up(undefined, '/mistral/v1'),
        deepseek: up('deepseek', '/deepseek'),
        'deepseek-plain': up(undefined, '/deepseek'),
        groq: up('groq', '/groq/openai/v1'),
        openrouter: up('openrouter', '/openrouter/api/v1'),
      },
      models: {
        'mistral-large-latest': { upstream: 'mistral' },
        'plain-mistral': { upstream: 'mistral-plain', model: 'mistral-large-latest' },
        'deepseek-reasoner': { upstream: 'deepseek' },
        'plain-deepseek': { upstream: 'deepseek-plain', model: 'deepseek-reasoner' },
        'llama-3.3-70b-versatile': { upstream: 'groq' },
        'or-claude': { upstream: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
      },
    };
    proxy = await startProxy(config, { COMPAT_KEY: KEY }, target);
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  const sentTo = (path: string) => mock.requests.filter((r) => r.url === path).map((r) => r.json as Msg);

  /** The log line of the latest request to this upstream (a stream's is written when it ends). */
  async function logOf(upstream: string): Promise<Record<string, any>> {
    for (let i = 0; i < 100; i++) {
      const line = proxy.logs
        .map((l) => {
          try {
            return JSON.parse(l) as Record<string, any>;
          } catch {
            return undefined;
          }
        })
        .filter((l) => l?.upstream === upstream)
        .at(-1);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no log line for ${upstream}`);
  }

  describe('Mistral', () => {
    const history = [
      { role: 'user' as const, content: 'Weather in Paris?' },
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '18C' }] },
    ];

    it('anthropic, streamed: Claude tool ids mapped (call and result alike), max_tokens, no stream_options', async () => {
      const msg = await anthropic.messages.stream({ model: 'mistral-large-latest', max_tokens: 300, tools: [weather], messages: history }).finalMessage();
      expect(msg.content).toEqual([expect.objectContaining({ type: 'text', text: 'It is 18C in Paris.' })]);
      expect(msg.usage.output_tokens).toBe(9);
      const [sent] = sentTo('/mistral/v1/chat/completions');
      const id = sent!.messages[1].tool_calls[0].id;
      expect(id).toMatch(MISTRAL_ID);
      expect(sent!.messages[2].tool_call_id).toBe(id);
      expect(sent!.max_tokens).toBe(300);
    });

    it('openai, passthrough: the caller’s call_ ids, max_completion_tokens and stream_options fitted to Mistral', async () => {
      const stream = await openai.chat.completions.create({
        model: 'mistral-large-latest',
        stream: true,
        stream_options: { include_usage: true },
        max_completion_tokens: 128,
        tools: [weatherFn],
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', content: '18C' },
        ],
      });
      let text = '';
      let usage: unknown;
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        usage = c.usage ?? usage;
      }
      expect(text).toBe('It is 18C in Paris.');
      expect(usage).toMatchObject({ completion_tokens: 9 });
      const [sent] = sentTo('/mistral/v1/chat/completions');
      expect(sent!.max_tokens).toBe(128);
      expect(sent!.messages[2].tool_call_id).toBe(sent!.messages[1].tool_calls[0].id);
    });

    it('openai: Mistral’s own ids go to the caller and come back unchanged', async () => {
      const ask = { role: 'user' as const, content: 'Weather in Paris?' };
      const first = await openai.chat.completions.create({ model: 'mistral-large-latest', tools: [weatherFn], messages: [ask] });
      const call = first.choices[0]!.message.tool_calls![0]!;
      expect(call.id).toBe('Xy12Ab34C');
      const second = await openai.chat.completions.create({
        model: 'mistral-large-latest',
        tools: [weatherFn],
        messages: [ask, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '18C' }],
      });
      expect(second.choices[0]!.message.content).toBe('It is 18C in Paris.');
      expect(sentTo('/mistral/v1/chat/completions')[1]!.messages[1].tool_calls[0].id).toBe('Xy12Ab34C');

    });

    it('@google/genai: a history from Gemini (calls without ids) reaches Mistral with valid, paired ids', async () => {
      const ai = genai(proxy.url);
      const tools = [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }];
      const q = { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] };
      const g1 = await ai.models.generateContent({ model: 'mistral-large-latest', contents: [q], config: { tools } });
      expect(g1.functionCalls?.[0]).toMatchObject({ id: 'Xy12Ab34C', name: 'get_weather' });
      // Gemini itself sends no ids: the proxy makes them per turn and position, then Mistral's rule applies.
      const g2 = await ai.models.generateContent({
        model: 'mistral-large-latest',
        contents: [
          q,
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 18 } } }, { functionResponse: { name: 'get_weather', response: { temperature: 24 } } }] },
        ],
        config: { tools },
      });
      const sent = sentTo('/mistral/v1/chat/completions')[1]!;
      const ids = sent.messages[1].tool_calls.map((c: Msg) => c.id);
      expect(ids.every((id: string) => MISTRAL_ID.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(2);
      expect([sent.messages[2].tool_call_id, sent.messages[3].tool_call_id]).toEqual(ids);
      expect(g2.text).toBe('It is 18C in Paris.');
    });

    it('a plain upstream on Mistral gets its 422, and the detail reaches the caller', async () => {
      const err = await openai.chat.completions.create({ model: 'plain-mistral', max_completion_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as Error).message).toContain('max_completion_tokens: Extra inputs are not permitted');
      const aerr = await anthropic.messages.create({ model: 'plain-mistral', max_tokens: 10, messages: history }).catch((e: unknown) => e);
      expect(aerr).toBeInstanceOf(Anthropic.BadRequestError);
      expect((aerr as Error).message).toMatch(/max_completion_tokens: Extra inputs are not permitted|Tool call id was/);
    });
  });

  describe('DeepSeek thinking mode', () => {
    it('anthropic with thinking: turn 1 streamed, turn 2 carries reasoning_content back', async () => {
      const question = { role: 'user' as const, content: 'Weather in Paris?' };
      const thinking = { type: 'enabled' as const, budget_tokens: 2048 };
      const first = await anthropic.messages.stream({ model: 'deepseek-reasoner', max_tokens: 4096, thinking, tools: [weather], messages: [question] }).finalMessage();
      expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: DS_THOUGHT });
      const use = first.content.find((b) => b.type === 'tool_use')!;
      const second = await anthropic.messages.create({
        model: 'deepseek-reasoner',
        max_tokens: 4096,
        thinking,
        tools: [weather],
        messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18C' }] }],
      });
      expect(second.content.find((b) => b.type === 'text')).toMatchObject({ text: 'It is 18C in Paris.' });
      const turn2 = sentTo('/deepseek/chat/completions')[1]!;
      expect(turn2.messages[1]).toMatchObject({ role: 'assistant', reasoning_content: DS_THOUGHT, tool_calls: [expect.objectContaining({ id: DS_CALL.id })] });
      expect(turn2.max_tokens).toBe(4096);
    });

    it('@google/genai with thoughts: the thought part goes back as reasoning_content', async () => {
      const ai = genai(proxy.url);
      const tools = [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }];
      const config = { tools, thinkingConfig: { includeThoughts: true } };
      const q = { role: 'user', parts: [{ text: 'Weather in Paris?' }] };
      const first = await ai.models.generateContent({ model: 'deepseek-reasoner', contents: [q], config });
      expect(first.candidates![0]!.content!.parts![0]).toMatchObject({ thought: true, text: DS_THOUGHT });
      const second = await ai.models.generateContentStream({
        model: 'deepseek-reasoner',
        contents: [q, first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 18 } } }] }],
        config,
      });
      let text = '';
      for await (const c of second) text += c.text ?? '';
      expect(text).toBe('It is 18C in Paris.');
      expect(sentTo('/deepseek/chat/completions')[1]!.messages[1].reasoning_content).toBe(DS_THOUGHT);
    });

    it('openai, passthrough: the message as DeepSeek returned it goes back as is', async () => {
      const q = { role: 'user' as const, content: 'Weather in Paris?' };
      const first = await openai.chat.completions.create({ model: 'deepseek-reasoner', tools: [weatherFn], messages: [q] });
      const msg = first.choices[0]!.message;
      const second = await openai.chat.completions.create({ model: 'deepseek-reasoner', tools: [weatherFn], messages: [q, msg, { role: 'tool', tool_call_id: msg.tool_calls![0]!.id, content: '18C' }] });
      expect(second.choices[0]!.message.content).toBe('It is 18C in Paris.');
    });

    it('without the provider, turn 2 is DeepSeek’s 400 (the mock enforces the rule)', async () => {
      const question = { role: 'user' as const, content: 'Weather in Paris?' };
      const first = await anthropic.messages.create({ model: 'plain-deepseek', max_tokens: 512, tools: [weather], messages: [question] });
      const use = first.content.find((b) => b.type === 'tool_use')!;
      const err = await anthropic.messages
        .create({ model: 'plain-deepseek', max_tokens: 512, tools: [weather], messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18C' }] }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect((err as Error).message).toContain('reasoning_content');
    });
  });

  describe('Groq', () => {
    it('anthropic, streamed: usage from x_groq.usage; two system blocks as one string, kept apart', async () => {
      const msg = await anthropic.messages
        .stream({ model: 'llama-3.3-70b-versatile', max_tokens: 100, system: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Answer in French.' }], messages: [{ role: 'user', content: 'Hi' }] })
        .finalMessage();
      expect(msg.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello there!' })]);
      expect(msg.usage).toMatchObject({ input_tokens: 23, output_tokens: 19 });
      expect(sentTo('/groq/openai/v1/chat/completions')[0]!.messages[0]).toEqual({ role: 'system', content: 'You are terse.\n\nAnswer in French.' });
    });

    it('@google/genai, streamed: usageMetadata from x_groq.usage', async () => {
      const stream = await genai(proxy.url).models.generateContentStream({ model: 'llama-3.3-70b-versatile', contents: 'Hi', config: { systemInstruction: { parts: [{ text: 'A' }, { text: 'B' }] } } });
      let usage: any;
      let text = '';
      for await (const c of stream) {
        text += c.text ?? '';
        usage = c.usageMetadata ?? usage;
      }
      expect(text).toBe('Hello there!');
      expect(usage).toMatchObject({ promptTokenCount: 23, candidatesTokenCount: 19 });
    });

    it('openai, passthrough stream: the log line has the tokens from x_groq.usage', async () => {
      const stream = await openai.chat.completions.create({ model: 'llama-3.3-70b-versatile', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
      for await (const _ of stream);
      expect(await logOf('groq')).toMatchObject({ status: 200, tokensIn: 23, tokensOut: 19 });
    });
  });

  describe('OpenRouter', () => {
    it('openai: usage.cost where OpenRouter puts it; cost in the log line', async () => {
      const res = await openai.chat.completions.create({ model: 'or-claude', messages: [{ role: 'user', content: 'Capital of France?' }] });
      expect((res.usage as unknown as { cost: number }).cost).toBe(0.95);
      expect(await logOf('openrouter')).toMatchObject({ cost: 0.95, tokensIn: 194, tokensOut: 2 });
    });

    it('anthropic: cached and cache-write tokens carried; cost reported as dropped, kept in the log', async () => {
      const { data, response } = await anthropic.messages.create({ model: 'or-claude', max_tokens: 50, messages: [{ role: 'user', content: 'Capital of France?' }] }).withResponse();
      expect(data.usage).toMatchObject({ cache_read_input_tokens: 64, cache_creation_input_tokens: 100, output_tokens: 2 });
      expect(response.headers.get('x-interlingua-warnings')).toContain('dropped:usage.cost');
      expect(await logOf('openrouter')).toMatchObject({ cost: 0.95, warnings: expect.arrayContaining(['dropped:usage.cost']) });
    });

    it('@google/genai, streamed: cost in the log line, reported as dropped there', async () => {
      const stream = await genai(proxy.url).models.generateContentStream({ model: 'or-claude', contents: 'Capital of France?' });
      let text = '';
      for await (const c of stream) text += c.text ?? '';
      expect(text).toBe('Paris.');
      expect(await logOf('openrouter')).toMatchObject({ cost: 0.95, tokensIn: 194, warnings: expect.arrayContaining(['dropped:usage.cost']) });
    });

    it('openai, streamed passthrough: the cost chunk reaches the caller', async () => {
      const stream = await openai.chat.completions.create({ model: 'or-claude', stream: true, messages: [{ role: 'user', content: 'Capital of France?' }] });
      let cost: number | undefined;
      for await (const c of stream) cost = (c.usage as unknown as { cost?: number } | undefined)?.cost ?? cost;
      expect(cost).toBe(0.95);
      expect(await logOf('openrouter')).toMatchObject({ cost: 0.95 });
    });
  });

  it('no upstream key in any log line', () => {
    for (const l of proxy.logs) expect(l).not.toContain(KEY);
  });
});
