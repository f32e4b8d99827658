/** The official OpenAI SDK as the caller: our bodies, chunks and errors must parse as the real ones. */
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { ProxyError, type ChatRequest, type ChatResponse, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { openaiChat } from './index.ts';

function sse(frames: StreamFrame[]): string {
  return frames.map((f) => `${f.event ? `event: ${f.event}\n` : ''}data: ${f.data}\n\n`).join('');
}

function client(respond: () => Response) {
  return new OpenAI({ apiKey: 'sk-test', baseURL: 'http://proxy.test/v1', maxRetries: 0, fetch: async () => respond() });
}

const req: ChatRequest = { model: 'gpt-4o', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, streamUsage: true };

function framesOf(events: StreamEvent[], r = req): StreamFrame[] {
  const enc = openaiChat.createStreamEncoder(r, testContext());
  return [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
}

describe('OpenAI SDK reads what the proxy writes', () => {
  test('stream helper accumulates tool calls, text and usage from a cross-vendor event stream', async () => {
    const events: StreamEvent[] = [
      { type: 'message-start', id: 'msg_01', model: 'claude-x', created: 5 },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'thinking' },
      { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'sig' } },
      { type: 'text-start' },
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'check.' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_use' } },
    ];
    const body = sse(framesOf(events));
    const stream = client(() => new Response(body, { headers: { 'content-type': 'text/event-stream' } })).chat.completions.stream({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.id).toBe('chatcmpl-msg_01');
    expect(final.choices[0]!.message.content).toBe('Let me check.');
    expect(final.choices[0]!.message.tool_calls).toEqual([
      { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(final.usage?.total_tokens).toBe(15);
  });

  test('raw chunk iteration of a re-encoded n=3 fixture', async () => {
    const dec = openaiChat.createStreamDecoder(req, testContext());
    const events = [...fixtureSse('openai-chat', 'stream-n3-multiple-choices.sse').flatMap((e) => dec.push(e)), ...dec.finish()];
    const body = sse(framesOf(events));
    const chunks = await client(() => new Response(body, { headers: { 'content-type': 'text/event-stream' } })).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      n: 3,
      stream: true,
    });
    const texts = ['', '', ''];
    let finishes = 0;
    for await (const chunk of chunks) {
      for (const c of chunk.choices) {
        texts[c.index] += c.delta.content ?? '';
        if (c.finish_reason) finishes++;
      }
    }
    expect(finishes).toBe(3);
    expect(texts.map((t) => JSON.parse(t).city)).toEqual(['San Francisco', 'San Francisco', 'San Francisco']);
  });

  test('an in-stream error reaches the SDK as an APIError', async () => {
    const body = sse(
      framesOf([
        { type: 'message-start', id: 'x', model: 'm', created: 1 },
        { type: 'text-start' },
        { type: 'text-delta', text: 'par' },
        { type: 'error', error: new ProxyError('overloaded', 'Overloaded') },
      ]),
    );
    const chunks = await client(() => new Response(body, { headers: { 'content-type': 'text/event-stream' } })).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    await expect(async () => {
      for await (const _ of chunks) void _;
    }).rejects.toThrow(/Overloaded/);
  });

  test('non-stream body parses, and errors become the SDK error classes with status/code', async () => {
    const res: ChatResponse = {
      id: 'r',
      model: 'm',
      created: 1,
      choices: [{ index: 0, content: [{ type: 'refusal', text: 'No.' }], finishReason: { unified: 'refusal' } }],
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
    const body = JSON.stringify(openaiChat.encodeResponse(res, { ...req, stream: false }, testContext()));
    const completion = await client(() => new Response(body, { headers: { 'content-type': 'application/json' } })).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.refusal).toBe('No.');

    const err = openaiChat.encodeError(new ProxyError('rate-limit', 'Slow down.', { retryAfter: 3 }));
    const call = client(() => new Response(JSON.stringify(err.body), { status: err.status, headers: { 'content-type': 'application/json', ...err.headers } })).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(call).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await call.catch((e: InstanceType<typeof OpenAI.APIError>) => {
      expect(e.status).toBe(429);
      expect(e.code).toBe('rate_limit_exceeded');
      expect(e.message).toContain('Slow down.');
    });
  });
});
