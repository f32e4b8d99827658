/**
 * What the decoders read of the OpenAI-compatible hosts' wire: Groq's usage, OpenRouter's cost and
 * cache counters, a streamed tool call whose name comes late. Fixtures: __fixtures__/hosts/.
 */
import { describe, expect, test } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../src/canonical/index.ts';
import { fixtureJson, fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeResponse } from './encode-response.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';
import { OpenAIChatStreamEncoder } from './stream-encoder.ts';

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
