/**
 * The `openai` SDK's conversation shapes, as an Anthropic upstream must receive them: tool
 * results paired and first in one user turn, system/developer messages anywhere → `system`, no
 * empty text blocks, image URLs, reasoning budgets inside max_tokens, usage only when asked, and
 * signatures from another vendor never replayed to Anthropic.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';

describe.each(TARGETS)('%s: openai SDK conversations → Anthropic upstream', (target) => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  let client: OpenAI;

  beforeAll(async () => {
    mock = await startMockUpstream();
    proxy = await startProxy(e2eConfig(mock.url), {}, target);
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
  });

  it('parallel tool results: one user turn of tool_result blocks, paired by id, after the tool_use turn', async () => {
    const req = fixtureJson('openai-chat', 'multi-turn-tool-results.request.json');
    await client.chat.completions.create({ ...req, model: 'to-anthropic' });
    const msgs = mock.requests[0]!.json.messages;
    expect(msgs.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(msgs[0].content.map((b: any) => b.text)).toEqual([req.messages[0].content, req.messages[1].content]);
    const calls = req.messages[2].tool_calls;
    expect(msgs[1].content).toEqual(
      calls.map((c: any) => ({ type: 'tool_use', id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments) })),
    );
    expect(msgs[2].content).toEqual([
      { type: 'tool_result', tool_use_id: calls[0].id, content: req.messages[3].content },
      { type: 'tool_result', tool_use_id: calls[1].id, content: req.messages[4].content },
    ]);
    expect(mock.requests[0]!.json.tools.map((t: any) => t.name)).toEqual(['GetWeatherArgs', 'get_stock_price']);
  });

  it('system and developer messages anywhere → system; empty assistant text never becomes a block', async () => {
    await client.chat.completions.create({
      model: 'to-anthropic',
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Call the tool' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'done' },
        { role: 'developer', content: 'Now answer in French.' },
        { role: 'user', content: '   ' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
    });
    const j = mock.requests[0]!.json;
    const system = typeof j.system === 'string' ? j.system : j.system.map((b: any) => b.text).join('\n');
    expect(system).toContain('You are helpful.');
    expect(system).toContain('Now answer in French.');
    expect(j.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'f', input: {} }] });
    const last = j.messages.at(-1);
    expect(last.role).toBe('user');
    expect(last.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'call_1', content: 'done' });
    for (const m of j.messages) for (const b of m.content) if (b.type === 'text') expect(b.text.trim()).not.toBe('');
    expect(last.content.filter((b: any) => b.type === 'text').map((b: any) => b.text)).toEqual(['Thanks']);
  });

  it('image_url: http URL → URL source, data URL → base64 source', async () => {
    const img = fixtureJson('anthropic', 'image-input.request.json').messages[0].content.find((b: any) => b.type === 'image').source;
    await client.chat.completions.create({
      model: 'to-anthropic',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: `data:${img.media_type};base64,${img.data}` } },
          ],
        },
      ],
    });
    expect(mock.requests[0]!.json.messages[0].content).toEqual([
      { type: 'text', text: 'Compare' },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
      { type: 'image', source: { type: 'base64', media_type: img.media_type, data: img.data } },
    ]);
  });

  it('reasoning_effort with a small max_completion_tokens: the budget stays ≥ 1024 and below max_tokens', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Think' }], reasoning_effort: 'high', max_completion_tokens: 1000 })
      .withResponse();
    const j = mock.requests[0]!.json;
    expect(j.thinking.type).toBe('enabled');
    expect(j.thinking.budget_tokens).toBeGreaterThanOrEqual(1024);
    expect(j.max_tokens).toBeGreaterThan(j.thinking.budget_tokens);
    expect(response.headers.get('x-interlingua-warnings')).toContain('clamped:max_completion_tokens');
  });

  it('tool_choice required + parallel_tool_calls false → any with disable_parallel_tool_use', async () => {
    await client.chat.completions.create({
      model: 'to-anthropic',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(mock.requests[0]!.json.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('stream usage: the include_usage chunk only when asked', async () => {
    const collect = async (extra: Record<string, unknown>) => {
      mock.reply(fixtureReply('anthropic', 'stream-text-modern-usage.sse'));
      const stream = await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'x' }], stream: true, ...extra } as never);
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const c of stream as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>) chunks.push(c);
      return chunks;
    };
    const plain = await collect({});
    expect(plain.some((c) => c.usage)).toBe(false);
    expect(plain.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    const withUsage = await collect({ stream_options: { include_usage: true } });
    const last = withUsage.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
    expect(last.usage!.prompt_tokens).toBeGreaterThan(0);
  });

  it('a Gemini signature the OpenAI caller carries is dropped (with a warning) on its way to Anthropic', async () => {
    const raw = fixtureJson('gemini', 'gemini3-tool-call.json').candidates[0].content.parts[0];
    mock.reply(fixtureReply('gemini', 'gemini3-tool-call.json'));
    const tools = [{ type: 'function' as const, function: { name: raw.functionCall.name, parameters: { type: 'object', properties: {} } } }];
    const first = await client.chat.completions.create({ model: 'to-gemini', messages: [{ role: 'user', content: 'Weather?' }], tools });
    const msg = first.choices[0]!.message;
    const call = msg.tool_calls![0]!;

    mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const { response } = await client.chat.completions
      .create({
        model: 'to-anthropic',
        tools,
        messages: [{ role: 'user', content: 'Weather?' }, msg, { role: 'tool', tool_call_id: call.id, content: 'Sunny' }],
      })
      .withResponse();
    const sent = mock.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages');
    expect(sent.body).not.toContain(raw.thoughtSignature);
    const use = sent.json.messages[1].content.find((b: any) => b.type === 'tool_use');
    const result = sent.json.messages[2].content[0];
    expect(use.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(result.tool_use_id).toBe(use.id);
    expect(response.headers.get('x-interlingua-warnings')).toContain('signature-not-replayed');
  });
});
