import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { describe, expect, test } from 'vitest';
import { encodeSignature, type ChatRequest, type SseEvent, type StreamEvent } from '../../src/canonical/index.ts';
import { fixtureSse, fixtureText, testContext } from '../../test/support/fixtures.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';

const sseFixtures = readdirSync(fileURLToPath(new URL('./__fixtures__/', import.meta.url))).filter((f) => f.endsWith('.sse'));
const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: true };

export function decodeEvents(events: SseEvent[]): StreamEvent[] {
  const d = new OpenAIChatStreamDecoder(req, testContext());
  return [...events.flatMap((e) => d.push(e)), ...d.finish()];
}

/** Throws when the events break the canonical framing rules. */
export function assertWellFramed(events: StreamEvent[]): void {
  const open = new Map<number, string | undefined>();
  const tools = new Map<string, 'open' | 'ended'>();
  const finished = new Set<number>();
  let started = false;
  let errored = false;
  events.forEach((e, i) => {
    const where = `event ${i} ${JSON.stringify(e)}`;
    if (errored) throw new Error(`event after error: ${where}`);
    if (e.type === 'error') {
      errored = true;
      return;
    }
    if (e.type === 'message-start') {
      if (started) throw new Error(`second message-start: ${where}`);
      started = true;
      return;
    }
    if (!started) throw new Error(`before message-start: ${where}`);
    const c = 'choice' in e ? (e.choice ?? 0) : 0;
    const kind = e.type.split('-')[0]!;
    if (e.type.endsWith('-start') && e.type !== 'tool-call-start') {
      if (open.get(c)) throw new Error(`block already open: ${where}`);
      if ([...tools].some(([k, s]) => k.startsWith(`${c}:`) && s === 'open')) throw new Error(`tool call open: ${where}`);
      open.set(c, kind);
    } else if (e.type.endsWith('-delta') && e.type !== 'tool-call-delta') {
      if (open.get(c) !== kind) throw new Error(`delta outside its block: ${where}`);
    } else if (e.type.endsWith('-end') && e.type !== 'tool-call-end') {
      if (open.get(c) !== kind) throw new Error(`end without start: ${where}`);
      open.set(c, undefined);
    } else if (e.type === 'tool-call-start') {
      if (open.get(c)) throw new Error(`block open at tool call: ${where}`);
      if (tools.has(`${c}:${e.index}`)) throw new Error(`tool call restarted: ${where}`);
      tools.set(`${c}:${e.index}`, 'open');
    } else if (e.type === 'tool-call-delta') {
      if (tools.get(`${c}:${e.index}`) !== 'open') throw new Error(`tool delta outside call: ${where}`);
    } else if (e.type === 'tool-call-end') {
      if (tools.get(`${c}:${e.index}`) !== 'open') throw new Error(`tool end without start: ${where}`);
      tools.set(`${c}:${e.index}`, 'ended');
    } else if (e.type === 'finish') {
      if (open.get(c) || [...tools].some(([k, s]) => k.startsWith(`${c}:`) && s === 'open')) throw new Error(`finish with open block: ${where}`);
      if (finished.has(c)) throw new Error(`second finish: ${where}`);
      finished.add(c);
    }
  });
  for (const [c, kind] of open) if (kind) throw new Error(`choice ${c} left ${kind} open`);
  for (const [k, s] of tools) if (s === 'open') throw new Error(`tool call ${k} left open`);
}

/** Per choice: the text, refusal, reasoning and tool calls the events add up to. */
export function assemble(events: StreamEvent[]) {
  const out: Record<number, { text: string; refusal: string; reasoning: string; calls: { id: string; name: string; args: string }[]; finish?: string }> = {};
  const get = (c = 0) => (out[c] ??= { text: '', refusal: '', reasoning: '', calls: [] });
  for (const e of events) {
    if (e.type === 'text-delta') get(e.choice).text += e.text;
    if (e.type === 'refusal-delta') get(e.choice).refusal += e.text;
    if (e.type === 'reasoning-delta') get(e.choice).reasoning += e.text;
    if (e.type === 'tool-call-start') get(e.choice).calls[e.index] = { id: e.id, name: e.name, args: '' };
    if (e.type === 'tool-call-delta') get(e.choice).calls[e.index]!.args += e.argumentsDelta;
    if (e.type === 'finish') get(e.choice).finish = e.reason.raw ?? e.reason.unified;
  }
  return out;
}

function feedSplit(text: string, cuts: number[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: e.data }) });
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    parser.feed(text.slice(at, cut));
    at = cut;
  }
  return events;
}

describe('every .sse fixture', () => {
  test.each(sseFixtures)('%s decodes well-framed, independent of byte splits', (name) => {
    const events = decodeEvents(fixtureSse('openai-chat', name));
    assertWellFramed(events);
    expect(events.length).toBeGreaterThan(0);
    const text = fixtureText('openai-chat', name);
    for (const step of [1, 7, 64, 333]) {
      const cuts: number[] = [];
      for (let i = step; i < text.length; i += step) cuts.push(i);
      expect(decodeEvents(feedSplit(text, cuts))).toEqual(events);
    }
  });
});

describe('stream decoding, fixture by fixture', () => {
  test('stream-text-basic', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-text-basic.sse'));
    expect(events[0]).toEqual({ type: 'message-start', id: 'chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL', model: 'gpt-4o-2024-08-06', created: 1727346168 });
    expect(events[1]).toEqual({ type: 'text-start', choice: 0 });
    expect(assemble(events)[0]!.text).toMatch(/^I'm unable to provide real-time weather updates\./);
    expect(events.slice(-3)).toEqual([
      { type: 'text-end', choice: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'stop', raw: 'stop' } },
      { type: 'usage', usage: { inputTokens: 14, outputTokens: 30, totalTokens: 44, reasoningTokens: 0 } },
    ]);
  });

  test('stream-text-no-usage: no usage event', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-text-no-usage.sse'));
    expect(events.some((e) => e.type === 'usage')).toBe(false);
    expect(assemble(events)[0]).toMatchObject({ text: '1, 2, 3.', finish: 'stop' });
  });

  test('stream-include-usage-obfuscation', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-include-usage-obfuscation.sse'));
    expect(events.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', usage: { inputTokens: 16, outputTokens: 300, totalTokens: 316, cachedInputTokens: 0, reasoningTokens: 0 } },
    ]);
    expect(assemble(events)[0]!.text.startsWith('**Holiday Name:** Harmony Day')).toBe(true);
  });

  test('stream-tool-call-single: tool call in the role chunk', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-tool-call-single.sse'));
    expect(events[1]).toEqual({ type: 'tool-call-start', choice: 0, index: 0, id: 'call_c91SqDXlYFuETYv8mUHzz6pp', name: 'GetWeatherArgs' });
    expect(assemble(events)[0]).toEqual({
      text: '',
      refusal: '',
      reasoning: '',
      calls: [{ id: 'call_c91SqDXlYFuETYv8mUHzz6pp', name: 'GetWeatherArgs', args: '{"city":"Edinburgh","country":"UK","units":"c"}' }],
      finish: 'tool_calls',
    });
  });

  test('stream-parallel-tool-calls', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-parallel-tool-calls.sse'));
    const calls = assemble(events)[0]!.calls;
    expect(calls.map((c) => c.name)).toEqual(['GetWeatherArgs', 'get_stock_price']);
    expect(JSON.parse(calls[0]!.args)).toEqual({ city: 'Edinburgh', country: 'GB', units: 'c' });
    expect(JSON.parse(calls[1]!.args)).toEqual({ ticker: 'AAPL', exchange: 'NASDAQ' });
    const firstEnd = events.findIndex((e) => e.type === 'tool-call-end');
    const secondStart = events.findIndex((e) => e.type === 'tool-call-start' && e.index === 1);
    expect(firstEnd).toBeLessThan(secondStart);
  });

  test('stream-n3-multiple-choices: interleaved choices', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-n3-multiple-choices.sse'));
    const all = assemble(events);
    expect(Object.keys(all)).toEqual(['0', '1', '2']);
    for (const c of [0, 1, 2]) {
      expect(JSON.parse(all[c]!.text)).toMatchObject({ city: 'San Francisco', units: 'f' });
      expect(all[c]!.finish).toBe('stop');
    }
  });

  test('stream-refusal and stream-refusal-logprobs', () => {
    const plain = decodeEvents(fixtureSse('openai-chat', 'stream-refusal.sse'));
    expect(assemble(plain)[0]!.refusal).toBe("I'm sorry, I can't assist with that request.");
    expect(plain.find((e) => e.type === 'finish')).toEqual({ type: 'finish', choice: 0, reason: { unified: 'refusal', raw: 'stop' } });
    const withLogprobs = decodeEvents(fixtureSse('openai-chat', 'stream-refusal-logprobs.sse'));
    const lp = withLogprobs.filter((e) => e.type === 'logprobs');
    expect(lp.length).toBeGreaterThan(0);
    expect(lp[0]).toMatchObject({ choice: 0, logprobs: { content: [], refusal: [{ token: "I'm" }] } });
    // logprobs follow the delta they describe
    const i = withLogprobs.indexOf(lp[0]!);
    expect(withLogprobs[i - 1]).toEqual({ type: 'refusal-delta', choice: 0, text: "I'm" });
  });

  test('stream-logprobs', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-logprobs.sse'));
    expect(events.filter((e) => e.type === 'logprobs').map((e) => (e as any).logprobs.content[0].token)).toEqual(['Foo', '!']);
  });

  test('stream-finish-length and structured output', () => {
    expect(assemble(decodeEvents(fixtureSse('openai-chat', 'stream-finish-length.sse')))[0]).toMatchObject({ text: '{"', finish: 'length' });
    const s = assemble(decodeEvents(fixtureSse('openai-chat', 'stream-structured-output-json-schema.sse')))[0]!;
    expect(JSON.parse(s.text)).toMatchObject({ city: 'San Francisco' });
  });

  test('azure: empty first chunk skipped, message-start from the first real chunk', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'azure-stream-prompt-filter-results-reasoning.sse'));
    expect(events[0]).toEqual({ type: 'message-start', id: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt', model: 'gpt-5-nano-2025-08-07', created: 1762317021 });
    expect(assemble(events)[0]).toMatchObject({ text: 'Capital of Denmark.', finish: 'stop' });
    expect(events.at(-1)).toEqual({
      type: 'usage',
      usage: { inputTokens: 15, outputTokens: 78, totalTokens: 93, cachedInputTokens: 0, reasoningTokens: 64 },
    });
  });

  test('in-stream error → error event, nothing after', () => {
    const events = decodeEvents(fixtureSse('openai-chat', 'stream-error-first-chunk-server-error.sse'));
    expect(events).toHaveLength(1);
    const e = events[0]!;
    expect(e.type).toBe('error');
    if (e.type !== 'error') return;
    expect(e.error.kind).toBe('upstream');
    expect(e.error.upstreamType).toBe('server_error');
    expect(e.error.message).toMatch(/^The server had an error processing your request/);
  });
});

describe('stream decoding, synthetic shapes', () => {
  const chunk = (delta: object, extra: object = {}) => ({
    data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null, ...extra }] }),
  });

  test('reasoning_content then content; signed reasoning_details end marker; redacted block', () => {
    const events = decodeEvents([
      chunk({ role: 'assistant', content: null, reasoning_content: '' }),
      chunk({ reasoning_content: 'Let me ' }),
      chunk({ reasoning_content: 'think.' }),
      chunk({ reasoning_details: [{ type: 'reasoning.text', text: 'Let me think.', signature: 'il1a.c2ln' }] }),
      chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'il1a.cmVk' }] }),
      chunk({ content: 'Hi' }),
      chunk({}, { finish_reason: 'stop' }),
      { data: '[DONE]' },
    ]);
    assertWellFramed(events);
    expect(events.slice(1)).toEqual([
      { type: 'reasoning-start', choice: 0 },
      { type: 'reasoning-delta', choice: 0, text: 'Let me ' },
      { type: 'reasoning-delta', choice: 0, text: 'think.' },
      { type: 'reasoning-end', choice: 0, signature: { origin: 'anthropic', value: 'sig' } },
      { type: 'reasoning-start', choice: 0, redacted: { origin: 'anthropic', value: 'red' } },
      { type: 'reasoning-end', choice: 0 },
      { type: 'text-start', choice: 0 },
      { type: 'text-delta', choice: 0, text: 'Hi' },
      { type: 'text-end', choice: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'stop', raw: 'stop' } },
    ]);
  });

  test('legacy function_call deltas; missing tool id synthesized; Gemini signature', () => {
    const events = decodeEvents([
      chunk({ role: 'assistant', function_call: { name: 'f', arguments: '' } }),
      chunk({ function_call: { arguments: '{"a":1}' } }),
      chunk({}, { finish_reason: 'function_call' }),
    ]);
    assertWellFramed(events);
    expect(assemble(events)[0]!.calls).toEqual([{ id: 'call_test0001', name: 'f', args: '{"a":1}' }]);
    const g = decodeEvents([
      chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, extra_content: { google: { thought_signature: 'ts' } } }] }),
    ]);
    expect(g[1]).toEqual({ type: 'tool-call-start', choice: 0, index: 0, id: 'c', name: 'f', signature: { origin: 'gemini', value: 'ts' } });
    expect(g.at(-2)).toEqual({ type: 'tool-call-end', choice: 0, index: 0 });
    expect(g.at(-1)).toMatchObject({ type: 'error' });
  });

  test('garbage frames → one upstream error event, then silence', () => {
    for (const bad of ['{not json', '[1,2]', '{"choices":"x"}', '{"choices":[{"delta":{"content":5}}]}']) {
      const d = new OpenAIChatStreamDecoder(req, testContext());
      const events = [...d.push(chunk({ content: 'a' })), ...d.push({ data: bad }), ...d.push(chunk({ content: 'b' })), ...d.finish()];
      expect(events.at(-1)).toMatchObject({ type: 'error' });
      expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
      expect((events.at(-1) as any).error.kind).toBe('upstream');
    }
  });

  test('a repeated finish chunk (with usage) is ignored; array content is read', () => {
    const events = decodeEvents([
      chunk({ role: 'assistant', content: [{ type: 'text', text: 'Hi' }] }),
      chunk({}, { finish_reason: 'stop' }),
      {
        data: JSON.stringify({
          id: 'c1',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      },
    ]);
    assertWellFramed(events);
    expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'usage' });
    expect(assemble(events)[0]!.text).toBe('Hi');
  });

  test('finish() closes blocks of a stream cut short, then reports it ended early', () => {
    const events = decodeEvents([chunk({ role: 'assistant', content: '' }), chunk({ content: 'par' })]);
    expect(events.at(-2)).toEqual({ type: 'text-end', choice: 0 });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', message: expect.stringContaining('no finish_reason and no [DONE]') } });
    assertWellFramed(events);
  });

  test('a finish_reason on every choice, or [DONE], completes a stream', () => {
    const finished = decodeEvents([chunk({ content: 'a' }), chunk({}, { finish_reason: 'stop' })]);
    expect(finished.some((e) => e.type === 'error')).toBe(false);
    const d = new OpenAIChatStreamDecoder(req, testContext());
    const done = [...d.push(chunk({ content: 'a' })), ...d.push({ data: '[DONE]' }), ...d.finish()];
    expect(done.some((e) => e.type === 'error')).toBe(false);
    const two = new OpenAIChatStreamDecoder(req, testContext());
    const half = [
      ...two.push({ data: JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content: 'a' }, finish_reason: 'stop' }, { index: 1, delta: { content: 'b' } }] }) }),
      ...two.finish(),
    ];
    expect(half.at(-1)).toMatchObject({ type: 'error' });
  });

  test.each([
    ['vLLM', { object: 'error', message: 'This model has a maximum context length of 4096 tokens.', type: 'BadRequestError', param: null, code: 400 }, 'invalid-request', 400],
    ['OpenAI-compatible', { error: { message: 'Rate limit reached', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }, 'rate-limit', 429],
    ['OpenAI-compatible, bare', { error: 'upstream worker died' }, 'upstream', 502],
  ])('an in-stream error object (%s) is an error event, not a clean end', (_name, body, kind, status) => {
    const d = new OpenAIChatStreamDecoder(req, testContext());
    const events = [...d.push(chunk({ content: 'a' })), ...d.push({ data: JSON.stringify(body) }), ...d.push({ data: '[DONE]' }), ...d.finish()];
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind, status } });
    expect(events.some((e) => e.type === 'finish')).toBe(false);
  });

  test('a JSON frame that is no chunk (neither choices nor usage) is an error event', () => {
    const d = new OpenAIChatStreamDecoder(req, testContext());
    const events = [...d.push({ data: '{"hello":"world"}' }), ...d.finish()];
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream' }) }]);
  });
});

describe('chunks the fixtures do not show', () => {
  const run = (chunks: unknown[]) => decodeEvents(chunks.map((c) => ({ data: typeof c === 'string' ? c : JSON.stringify(c) })));
  const ch = (delta: unknown, finish: string | null = null) => ({ id: 'c1', model: 'm', created: 5, choices: [{ index: 0, delta, finish_reason: finish }] });

  test('bad frames name what was wrong and keep the bytes', () => {
    expect(run(['{nope'])).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'The upstream sent an unparsable stream frame.', raw: '{nope' }) }]);
    expect(run(['{"id":"x"}'])).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'The upstream sent a malformed stream chunk.', raw: '{"id":"x"}' }) }]);
  });

  test('a usage-only chunk without choices is usage; a chunk without created is stamped now', () => {
    const events = run([{ id: 'c1', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] }, { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }, '[DONE]']);
    expect(events[0]).toEqual({ type: 'message-start', id: 'c1', model: 'asked', created: 1_700_000_000 });
    expect(events.at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } });
  });

  test('reasoning_details alone: a signed text is streamed once and signs its block; an unsigned one is plain reasoning', () => {
    const sig = encodeSignature({ origin: 'anthropic', value: 'EqQB' });
    const signed = run([ch({ role: 'assistant', reasoning_details: [{ type: 'reasoning.text', text: 'Whole thought.', signature: sig }] }), ch({ content: 'A' }, 'stop'), '[DONE]']);
    expect(signed.slice(1, 4)).toEqual([
      { type: 'reasoning-start', choice: 0 },
      { type: 'reasoning-delta', choice: 0, text: 'Whole thought.' },
      { type: 'reasoning-end', choice: 0, signature: { origin: 'anthropic', value: 'EqQB' } },
    ]);
    const plain = run([ch({ role: 'assistant', reasoning_details: [{ type: 'reasoning.text', text: 'plain' }] }), ch({ content: 'A' }, 'stop'), '[DONE]']);
    expect(plain.slice(1, 4)).toEqual([{ type: 'reasoning-start', choice: 0 }, { type: 'reasoning-delta', choice: 0, text: 'plain' }, { type: 'reasoning-end', choice: 0 }]);
    // Streamed text followed by its signed detail: the text is not repeated.
    const marked = run([ch({ role: 'assistant', reasoning_content: 'Let me ' }), ch({ reasoning_content: 'think.' }), ch({ reasoning_details: [{ type: 'reasoning.text', text: 'Let me think.', signature: sig }] }), ch({ content: 'A' }, 'stop'), '[DONE]']);
    expect(marked.filter((e) => e.type === 'reasoning-delta').map((e) => (e as { text: string }).text).join('')).toBe('Let me think.');
    expect(marked.find((e) => e.type === 'reasoning-end')).toEqual({ type: 'reasoning-end', choice: 0, signature: { origin: 'anthropic', value: 'EqQB' } });
  });

  test('legacy function_call: arguments continue the call its first fragment named', () => {
    const events = run([ch({ role: 'assistant', function_call: { name: 'f', arguments: '{"a"' } }), ch({ function_call: { arguments: ':1}' } }), ch({}, 'function_call'), '[DONE]']);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', choice: 0, index: 0, id: 'call_test0001', name: 'f' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"a"' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ':1}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'finish', choice: 0, reason: { unified: 'tool-calls', raw: 'function_call' } },
    ]);
  });
});
