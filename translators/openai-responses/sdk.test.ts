/**
 * The official OpenAI SDK as the caller: its Responses stream helper (which accumulates every
 * event into a Response and throws on an event for an item it was not told about) must read what
 * the proxy writes, as must its plain event iterator and its error classes.
 */
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { ProxyError, type ChatRequest, type ChatResponse, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { chatDialects } from '../index.ts';
import { openaiResponses } from './index.ts';

function sse(frames: StreamFrame[]): string {
  return frames.map((f) => `event: ${f.event}\ndata: ${f.data}\n\n`).join('');
}

function client(respond: () => Response) {
  return new OpenAI({ apiKey: 'sk-test', baseURL: 'http://proxy.test/v1', maxRetries: 0, fetch: async () => respond() });
}

const req: ChatRequest = {
  model: 'gpt-5.1-codex',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream: true,
  streamUsage: true,
  reasoning: { effort: 'medium', includeThoughts: true },
  extras: { dialect: 'openai-responses', fields: {}, encryptedReasoning: true } as never,
};

function body(events: StreamEvent[]): string {
  const enc = openaiResponses.createStreamEncoder(req, testContext());
  return sse([...events.flatMap((e) => enc.push(e)), ...enc.finish()]);
}

const streamResponse = (text: string) => () => new Response(text, { headers: { 'content-type': 'text/event-stream' } });

describe('the OpenAI SDK reads what the proxy writes', () => {
  /** A tool-call stream captured from each dialect. */
  const toolStream: Record<string, string> = {
    'openai-chat': 'stream-parallel-tool-calls.sse',
    anthropic: 'stream-thinking-signature.sse',
    gemini: 'stream-gemini3-tool-call.sse',
    'openai-responses': 'stream-codex-reasoning-summaries-apply-patch.sse',
    'gemini-interactions': 'stream-parallel-function-calls.sse',
  };
  test.each(chatDialects.map((d) => [d.id, d, toolStream[d.id] ?? `(no stream named for ${d.id})`] as const))('responses.stream() accumulates a re-encoded %s stream into the final Response', async (_id, d, file) => {
    const dec = d.createStreamDecoder(req, testContext());
    const events = [...fixtureSse(d.id, file).flatMap((e) => dec.push(e)), ...dec.finish()];
    const stream = client(streamResponse(body(events))).responses.stream({ model: 'gpt-5.1-codex', input: 'hi' });
    const seen: string[] = [];
    stream.on('event', (e) => seen.push(e.type));
    const final = await stream.finalResponse();
    expect(seen[0]).toBe('response.created');
    expect(['completed', 'incomplete']).toContain(final.status);
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(final.output_text).toBe(text);
    const calls = events.filter((e) => e.type === 'tool-call-start').length;
    expect(final.output.filter((i) => i.type === 'function_call' || i.type === 'custom_tool_call')).toHaveLength(calls);
  });

  test('the freeform patch arrives whole in the final Response, as Codex reads it', async () => {
    const dec = openaiResponses.createStreamDecoder(req, testContext());
    const events = [...fixtureSse('openai-responses', 'stream-codex-reasoning-summaries-apply-patch.sse').flatMap((e) => dec.push(e)), ...dec.finish()];
    const final = await client(streamResponse(body(events))).responses.stream({ model: 'gpt-5.1-codex', input: 'hi' }).finalResponse();
    const call = final.output.find((i) => i.type === 'custom_tool_call');
    expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'call_hand_patch', input: expect.stringContaining('+  return `Grüß dich, ${name} 👋`;') });
    const reasoning = final.output.find((i) => i.type === 'reasoning');
    // Summary parts travel as one reasoning block (joined by a blank line), so they come back as one.
    expect(reasoning).toMatchObject({ encrypted_content: expect.stringMatching(/^gAAAAA/), summary: [{ type: 'summary_text', text: expect.stringContaining('**Locating the greeting**\n\nThe function lives in src/greet.ts.\n\n**Editing it**') }] });
    expect(final.usage).toMatchObject({ input_tokens_details: { cached_tokens: 4864 }, output_tokens_details: { reasoning_tokens: 192 } });
  });

  test('an error mid-stream reaches the SDK as an APIError', async () => {
    const text = body([
      { type: 'message-start', id: 'x', model: 'm', created: 1 },
      { type: 'text-start' },
      { type: 'text-delta', text: 'par' },
      { type: 'error', error: new ProxyError('overloaded', 'Overloaded') },
    ]);
    const events = await client(streamResponse(text)).responses.create({ model: 'm', input: 'hi', stream: true });
    await expect(async () => {
      for await (const _ of events) void _;
    }).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  test('a JSON Response parses (output_text computed by the SDK), and errors become the SDK error classes', async () => {
    const res: ChatResponse = {
      id: 'r',
      model: 'm',
      created: 1,
      choices: [{ index: 0, content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there.' }], finishReason: { unified: 'stop' } }],
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    };
    const json = JSON.stringify(openaiResponses.encodeResponse(res, { ...req, stream: false }, testContext()));
    const response = await client(() => new Response(json, { headers: { 'content-type': 'application/json' } })).responses.create({ model: 'm', input: 'hi' });
    expect(response.output_text).toBe('Hello there.');

    const err = openaiResponses.encodeError(new ProxyError('rate-limit', 'Slow down.', { retryAfter: 3 }));
    const call = client(() => new Response(JSON.stringify(err.body), { status: err.status, headers: { 'content-type': 'application/json', ...err.headers } })).responses.create({ model: 'm', input: 'hi' });
    await expect(call).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const count = openaiResponses.encodeCountTokensResponse!(17);
    const counted = await client(() => new Response(JSON.stringify(count), { headers: { 'content-type': 'application/json' } })).responses.inputTokens.count({ model: 'm', input: 'hi' });
    expect(counted.input_tokens).toBe(17);
  });
});
