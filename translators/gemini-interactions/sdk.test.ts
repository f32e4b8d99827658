/**
 * The official `@google/genai` SDK as the caller: `interactions.create` must read what this
 * dialect writes — the JSON Interaction (its steps, the `output_text` the SDK computes, usage), the
 * SSE stream (every event, up to `[DONE]`), an `error` event mid-stream (which the SDK yields
 * rather than throws), and the error envelope (its error classes, its retry on 429).
 */
import { GoogleGenAI } from '@google/genai';
import { describe, expect, test } from 'vitest';
import { ProxyError, type ChatRequest, type ChatResponse, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { encodeResponse } from './encode-response.ts';
import { encodeError } from './errors.ts';
import { InteractionsStreamDecoder } from './stream-decoder.ts';
import { InteractionsStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'gemini-3-flash-preview', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, reasoning: { includeThoughts: true } };

const sse = (frames: StreamFrame[]) => frames.map((f) => `event: ${f.event}\ndata: ${f.data}\n\n`).join('');

function client(respond: (url: string) => Response) {
  const seen: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    seen.push(url);
    return respond(url);
  };
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: 'http://proxy.test', fetch: fetch as typeof globalThis.fetch } });
  return { ai, seen };
}

function streamOf(events: StreamEvent[]): string {
  const enc = new InteractionsStreamEncoder(req, testContext());
  return sse([...events.flatMap((e) => enc.push(e)), ...enc.finish()]);
}

const eventStream = (text: string) => () => new Response(text, { headers: { 'content-type': 'text/event-stream' } });

describe('@google/genai reads what the Interactions dialect writes', () => {
  test('a JSON Interaction: steps, output_text, usage, status', async () => {
    const res: ChatResponse = {
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      created: 1,
      choices: [{ index: 0, content: [
        { type: 'reasoning', text: 'Checking.', signature: { origin: 'anthropic', value: 'ErUBsig' } },
        { type: 'text', text: 'It is ' },
        { type: 'text', text: 'sunny.' },
        { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ], finishReason: { unified: 'tool-calls' } }],
      usage: { inputTokens: 20, outputTokens: 15, totalTokens: 35, reasoningTokens: 5, cachedInputTokens: 8 },
    };
    const body = JSON.stringify(encodeResponse(res, { ...req, stream: false }, testContext()));
    const { ai, seen } = client(() => new Response(body, { headers: { 'content-type': 'application/json' } }));
    const interaction = await ai.interactions.create({ model: 'gemini-3-flash-preview', input: 'hi' });
    expect(seen[0]).toBe('http://proxy.test/v1beta/interactions');
    expect(interaction.status).toBe('requires_action');
    expect(interaction.steps?.map((s) => s.type)).toEqual(['thought', 'model_output', 'function_call']);
    expect(interaction.output_text).toBe('It is sunny.');
    expect(interaction.steps?.[2]).toEqual({ type: 'function_call', id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } });
    expect(interaction.usage).toMatchObject({ total_input_tokens: 20, total_output_tokens: 10, total_thought_tokens: 5, total_cached_tokens: 8, total_tokens: 35 });
    expect(interaction.created).toBe('2023-11-14T22:13:20Z');
  });

  test('a stream: every event read up to [DONE], text and thoughts rebuilt from the deltas', async () => {
    const dec = new InteractionsStreamDecoder(req, testContext());
    const events = [...fixtureSse('gemini-interactions', 'stream-thinking.sse').flatMap((e) => dec.push(e)), ...dec.finish()];
    const { ai } = client(eventStream(streamOf(events)));
    const stream = await ai.interactions.create({ model: 'gemini-3-flash-preview', input: 'hi', stream: true });
    const seen: string[] = [];
    let text = '';
    let summary = '';
    let signature = '';
    let completed: Record<string, any> | undefined;
    for await (const e of stream) {
      seen.push(e.event_type);
      if (e.event_type === 'step.delta' && e.delta.type === 'text') text += e.delta.text;
      if (e.event_type === 'step.delta' && e.delta.type === 'thought_summary') summary += (e.delta.content as { text?: string } | undefined)?.text ?? '';
      if (e.event_type === 'step.delta' && e.delta.type === 'thought_signature') signature = e.delta.signature ?? '';
      if (e.event_type === 'interaction.completed') completed = e.interaction;
    }
    expect(seen[0]).toBe('interaction.created');
    expect(seen.at(-1)).toBe('interaction.completed');
    expect(text).toBe(events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join(''));
    expect(summary).toContain('**Deciding on the answer**');
    expect(signature).toMatch(/^EqYD/);
    expect(completed).toMatchObject({ status: 'completed', usage: { total_output_tokens: 90, total_thought_tokens: 245, total_tokens: 346 } });
  });

  test('a function call streamed: the call step and its argument fragments', async () => {
    const dec = new InteractionsStreamDecoder(req, testContext());
    const events = [...fixtureSse('gemini-interactions', 'stream-function-call.sse').flatMap((e) => dec.push(e)), ...dec.finish()];
    const { ai } = client(eventStream(streamOf(events)));
    let args = '';
    let call: unknown;
    let status: string | undefined;
    for await (const e of await ai.interactions.create({ model: 'm', input: 'hi', stream: true })) {
      if (e.event_type === 'step.start' && e.step.type === 'function_call') call = e.step;
      if (e.event_type === 'step.delta' && e.delta.type === 'arguments_delta') args += e.delta.arguments ?? '';
      if (e.event_type === 'interaction.completed') status = e.interaction.status;
    }
    expect(call).toEqual({ type: 'function_call', id: 'fc_9d2c41e7', name: 'get_weather', arguments: {} });
    expect(JSON.parse(args)).toEqual({ location: 'Paris, France', unit: 'celsius' });
    expect(status).toBe('requires_action');
  });

  test('an error mid-stream reaches the SDK as its error event, and the stream ends', async () => {
    const text = streamOf([
      { type: 'message-start', id: 'x', model: 'm', created: 1 },
      { type: 'text-delta', text: 'par' },
      { type: 'error', error: new ProxyError('overloaded', 'Overloaded.') },
    ]);
    const { ai } = client(eventStream(text));
    const got: Array<Record<string, any>> = [];
    for await (const e of await ai.interactions.create({ model: 'm', input: 'hi', stream: true })) got.push(e);
    expect(got.at(-1)).toMatchObject({ event_type: 'error', error: { code: 'unavailable', message: 'Overloaded.' } });
  });

  test('errors: the SDK raises its class with the status, and retries a 429 after retry-after', async () => {
    const err = encodeError(new ProxyError('invalid-request', 'Bad thinking_level.'));
    const { ai } = client(() => new Response(JSON.stringify(err.body), { status: err.status, headers: { 'content-type': 'application/json' } }));
    await expect(ai.interactions.create({ model: 'm', input: 'hi' }, { maxRetries: 0 })).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Bad thinking_level.') });

    const limited = encodeError(new ProxyError('rate-limit', 'Slow down.', { retryAfter: 0.5 }));
    const ok = JSON.stringify(encodeResponse({ id: 'v1_ok', model: 'm', created: 1, choices: [{ index: 0, content: [{ type: 'text', text: 'Done.' }], finishReason: { unified: 'stop' } }] }, req, testContext()));
    let calls = 0;
    const retrying = client(() =>
      ++calls === 1
        ? new Response(JSON.stringify(limited.body), { status: 429, headers: { 'content-type': 'application/json', ...limited.headers } })
        : new Response(ok, { headers: { 'content-type': 'application/json' } }),
    );
    const after = await retrying.ai.interactions.create({ model: 'm', input: 'hi' }, { maxRetries: 1 });
    expect(calls).toBe(2);
    expect(after.output_text).toBe('Done.');
  });
});
