import { describe, expect, test } from 'vitest';
import {
  decodeSignature,
  decodeToolCallId,
  encodeSignature,
  ProxyError,
  type ChatRequest,
  type StreamEvent,
  type StreamFrame,
} from '../../src/canonical/index.ts';
import { fixtureJson, fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import type { OpenAIChatExtras } from './legacy.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';
import { OpenAIChatStreamEncoder } from './stream-encoder.ts';

const baseReq: ChatRequest = { model: 'm', system: [], messages: [], stream: true };

function encodeAll(events: StreamEvent[], req: ChatRequest = baseReq): StreamFrame[] {
  const enc = new OpenAIChatStreamEncoder(req, testContext());
  return [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
}

function decodeFixture(name: string): StreamEvent[] {
  const d = new OpenAIChatStreamDecoder(baseReq, testContext());
  return [...fixtureSse('openai-chat', name).flatMap((e) => d.push(e)), ...d.finish()];
}

const json = (frames: StreamFrame[]) => frames.map((f) => (f.data === '[DONE]' ? '[DONE]' : JSON.parse(f.data)));

/** The fixture's chunks as the proxy should reproduce them for a caller with/without include_usage. */
function expectedChunks(name: string, includeUsage: boolean): unknown[] {
  const out: unknown[] = [];
  for (const e of fixtureSse('openai-chat', name)) {
    if (e.data === '[DONE]') {
      out.push('[DONE]');
      continue;
    }
    const { system_fingerprint: _f, obfuscation: _o, service_tier: _s, usage, ...chunk } = JSON.parse(e.data);
    if (chunk.choices.length === 0) {
      if (!includeUsage) continue;
      out.push({
        ...chunk,
        usage: {
          ...usage,
          prompt_tokens_details: usage.prompt_tokens_details ?? { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: { audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0, ...usage.completion_tokens_details },
        },
      });
    } else out.push(includeUsage ? { ...chunk, usage: null } : chunk);
  }
  return out;
}

const exactFixtures = [
  'stream-text-basic',
  'stream-text-no-usage',
  'stream-include-usage-obfuscation',
  'stream-structured-output-json-schema',
  'stream-n3-multiple-choices',
  'stream-finish-length',
  'stream-refusal',
  'stream-refusal-logprobs',
  'stream-logprobs',
  'stream-tool-call-single',
];

describe('decoded fixtures re-encode chunk by chunk as the real service sent them', () => {
  test.each(exactFixtures)('%s (include_usage off and on)', (name) => {
    const caller =
      name === 'stream-include-usage-obfuscation' // recorded without its request
        ? baseReq
        : decodeRequest(
            { body: fixtureJson('openai-chat', `${name}.request.json`), headers: {}, params: {}, query: {} },
            testContext(),
          ).value;
    const events = decodeFixture(`${name}.sse`);
    const hasUsageChunk = events.some((e) => e.type === 'usage');
    expect(json(encodeAll(events, { ...caller, streamUsage: false }))).toEqual(expectedChunks(`${name}.sse`, false));
    if (hasUsageChunk) {
      expect(json(encodeAll(events, { ...caller, streamUsage: true }))).toEqual(expectedChunks(`${name}.sse`, true));
    }
  });

  test('stream-parallel-tool-calls: the first call rides in the role chunk, the rest as on the wire', () => {
    const frames = json(encodeAll(decodeFixture('stream-parallel-tool-calls.sse'))) as any[];
    expect(frames[0].choices[0].delta).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: 'call_JMW1whyEaYG438VE1OIflxA2', type: 'function', function: { name: 'GetWeatherArgs', arguments: '' } }],
      refusal: null,
    });
    const wire = expectedChunks('stream-parallel-tool-calls.sse', false) as any[];
    expect(frames.slice(1)).toEqual(wire.slice(2));
  });
});

describe('stream encoder', () => {
  const start: StreamEvent = { type: 'message-start', id: 'chatcmpl-X', model: 'gpt', created: 7 };

  test('all chunks share id/created/model; foreign ids get the chatcmpl- prefix', () => {
    const frames = json(encodeAll([{ ...start, id: 'msg_01' }, { type: 'text-start' }, { type: 'text-delta', text: 'a' }, { type: 'finish', reason: { unified: 'stop' } }]));
    const chunks = frames.slice(0, -1) as any[];
    expect(new Set(chunks.map((c) => `${c.id}|${c.created}|${c.model}`))).toEqual(new Set(['chatcmpl-msg_01|7|gpt']));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
  });

  test('include_usage: usage:null on every chunk and a final choices:[] usage chunk', () => {
    const events: StreamEvent[] = [
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'hi' },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop' } },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4, cachedInputTokens: 1 } },
    ];
    const on = json(encodeAll(events, { ...baseReq, streamUsage: true })) as any[];
    expect(on.slice(0, 3).every((c) => c.usage === null)).toBe(true);
    expect(on[3]).toEqual({
      id: 'chatcmpl-X',
      object: 'chat.completion.chunk',
      created: 7,
      model: 'gpt',
      choices: [],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 1,
        total_tokens: 4,
        prompt_tokens_details: { cached_tokens: 1, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
    expect(on[4]).toBe('[DONE]');
    const off = json(encodeAll(events)) as any[];
    expect(off).toHaveLength(4);
    expect(off.slice(0, 3).every((c) => !('usage' in c))).toBe(true);
  });

  test('reasoning: reasoning_content deltas, signed end, redacted block; tool-call id carrier', () => {
    const sig = { origin: 'anthropic' as const, value: 'SIG' };
    const frames = json(
      encodeAll([
        start,
        { type: 'reasoning-start' },
        { type: 'reasoning-delta', text: 'Hmm, ' },
        { type: 'reasoning-delta', text: 'ok.' },
        { type: 'reasoning-end', signature: sig },
        { type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'R' } },
        { type: 'reasoning-end' },
        { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'f', signature: { origin: 'gemini', value: 'g' } },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
        { type: 'tool-call-end', index: 0 },
        { type: 'finish', reason: { unified: 'tool-calls' } },
      ]),
    ) as any[];
    const deltas = frames.slice(0, -1).map((c) => c.choices[0].delta);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(deltas[1]).toEqual({ reasoning_content: 'Hmm, ' });
    expect(deltas[2]).toEqual({ reasoning_content: 'ok.' });
    expect(deltas[3].reasoning_details[0]).toMatchObject({ type: 'reasoning.text', text: 'Hmm, ok.' });
    expect(decodeSignature(deltas[3].reasoning_details[0].signature)).toEqual(sig);
    expect(decodeSignature(deltas[4].reasoning_details[0].data)).toEqual({ origin: 'anthropic', value: 'R' });
    expect(decodeToolCallId(deltas[5].tool_calls[0].id)).toEqual({ id: 'toolu_1', signature: { origin: 'gemini', value: 'g' } });
    expect(deltas[6]).toEqual({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] });
    expect(frames.at(-2).choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' });
  });

  test('an error event → error chunk then [DONE]; finish() adds nothing', () => {
    const enc = new OpenAIChatStreamEncoder(baseReq, testContext());
    const frames = [
      ...enc.push(start),
      ...enc.push({ type: 'text-start' }),
      ...enc.push({ type: 'text-delta', text: 'par' }),
      ...enc.push({ type: 'error', error: new ProxyError('upstream', 'Upstream broke.', { status: 502 }) }),
    ];
    expect(json(frames).slice(-2)).toEqual([{ error: { message: 'Upstream broke.', type: 'server_error', param: null, code: null } }, '[DONE]']);
    expect(enc.push({ type: 'text-delta', text: 'more' })).toEqual([]);
    expect(enc.finish()).toEqual([]);
  });

  test('finish() with no finish seen closes every choice, then usage and [DONE]', () => {
    const frames = json(
      encodeAll(
        [
          start,
          { type: 'text-start', choice: 1 },
          { type: 'text-delta', choice: 1, text: 'x' },
          { type: 'tool-call-start', choice: 0, index: 0, id: 'c', name: 'f' },
          { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
        ],
        { ...baseReq, streamUsage: true },
      ),
    ) as any[];
    expect(frames.slice(-4).map((f) => (f === '[DONE]' ? f : f.choices[0]?.finish_reason ?? 'usage'))).toEqual(['stop', 'tool_calls', 'usage', '[DONE]']);
    expect(json(encodeAll([]))).toEqual([
      { id: 'chatcmpl-test0001', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }] },
      { id: 'chatcmpl-test0001', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm', choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] },
      '[DONE]',
    ]);
  });

  test('finish() after any prefix of a fixture closes properly', () => {
    for (const name of ['stream-n3-multiple-choices.sse', 'stream-parallel-tool-calls.sse', 'stream-refusal-logprobs.sse']) {
      const events = decodeFixture(name);
      for (let n = 0; n <= events.length; n++) {
        const frames = encodeAll(events.slice(0, n), { ...baseReq, logprobs: true, streamUsage: true });
        expect(frames.at(-1)).toEqual({ data: '[DONE]' });
        const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data));
        const finishes = chunks.flatMap((c) => c.choices.filter((ch: any) => ch.finish_reason !== null).map((ch: any) => ch.index));
        const seen = new Set(chunks.flatMap((c) => c.choices.map((ch: any) => ch.index)));
        expect(finishes.sort()).toEqual([...seen].sort());
        // Re-decoding what we sent is well-formed and ends each choice once.
        const d = new OpenAIChatStreamDecoder(baseReq, testContext());
        const again = [...frames.flatMap((f) => d.push({ data: f.data })), ...d.finish()];
        expect(again.filter((e) => e.type === 'finish')).toHaveLength(seen.size);
      }
    }
  });

  test('prompt-blocked → content_filter finish; legacy functions stream function_call', () => {
    const blocked = json(encodeAll([start, { type: 'prompt-blocked', reason: 'SAFETY' }])) as any[];
    expect(blocked.at(-2).choices[0].finish_reason).toBe('content_filter');
    const legacy: ChatRequest = { ...baseReq, extras: { dialect: 'openai-chat', fields: {}, legacyFunctions: true } as OpenAIChatExtras };
    const frames = json(
      encodeAll(
        [
          start,
          { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
          { type: 'tool-call-end', index: 0 },
          { type: 'finish', reason: { unified: 'tool-calls' } },
        ],
        legacy,
      ),
    ) as any[];
    expect(frames.map((f) => (f === '[DONE]' ? f : f.choices[0]))).toEqual([
      { index: 0, delta: { role: 'assistant', content: null, function_call: { name: 'f', arguments: '' }, refusal: null }, logprobs: null, finish_reason: null },
      { index: 0, delta: { function_call: { arguments: '{"a":1}' } }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'function_call' },
      '[DONE]',
    ]);
  });

  test('logprobs are dropped when the caller did not ask for them', () => {
    const frames = json(encodeAll(decodeFixture('stream-logprobs.sse'))) as any[];
    expect(frames.slice(0, -1).every((c) => c.choices.every((ch: any) => ch.logprobs === null))).toBe(true);
  });
});

describe('events the fixtures do not show', () => {
  const choicesOf = (frames: StreamFrame[]) => json(frames).flatMap((f) => (f === '[DONE]' ? [] : f.choices));
  const start: StreamEvent = { type: 'message-start', id: 'x', model: 'm', created: 1 };

  test('a signed answer text, a redacted thought, and empty deltas', () => {
    const choices = choicesOf(
      encodeAll([
        start,
        { type: 'text-start' },
        { type: 'text-delta', text: '' },
        { type: 'text-delta', text: 'Hi' },
        { type: 'text-end', signature: { origin: 'gemini', value: 'SIG' } },
        { type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'RED' } },
        { type: 'reasoning-delta', text: '' },
        { type: 'reasoning-end' },
        { type: 'refusal-delta', text: '' },
        { type: 'finish', reason: { unified: 'stop' } },
      ]),
    );
    expect(choices.map((c: any) => c.delta)).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: 'Hi' },
      { reasoning_details: [{ type: 'reasoning.text', text: '', signature: encodeSignature({ origin: 'gemini', value: 'SIG' }) }] },
      { reasoning_details: [{ type: 'reasoning.encrypted', data: encodeSignature({ origin: 'anthropic', value: 'RED' }) }] },
      {},
    ]);
  });

  test('legacy functions: only the first call, as function_call, and no empty fragments', () => {
    const legacy: ChatRequest = { ...baseReq, extras: { dialect: 'openai-chat', fields: {}, legacyFunctions: true } as OpenAIChatExtras };
    const choices = choicesOf(
      encodeAll(
        [
          start,
          { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '' },
          { type: 'tool-call-end', index: 0 },
          { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
          { type: 'tool-call-delta', index: 1, argumentsDelta: '{"x":1}' },
          { type: 'finish', reason: { unified: 'tool-calls' } },
        ],
        legacy,
      ),
    );
    expect(choices.map((c: any) => [c.delta, c.finish_reason])).toEqual([
      [{ role: 'assistant', content: null, function_call: { name: 'f', arguments: '' }, refusal: null }, null],
      [{ function_call: { arguments: '{}' } }, null],
      [{}, 'function_call'],
    ]);
  });

  test('logprobs: a held delta takes the logprobs of its own choice only; finish() lets a held delta go', () => {
    const lp = (token: string) => ({ content: [{ token, logprob: -0.1, bytes: [1], top: [] }] });
    const choices = choicesOf(
      encodeAll(
        [
          start,
          { type: 'text-start' },
          { type: 'text-delta', text: 'A' },
          { type: 'logprobs', logprobs: lp('A') },
          { type: 'text-delta', text: 'B' },
          { type: 'logprobs', choice: 1, logprobs: lp('other') },
          { type: 'text-delta', text: 'C' },
        ],
        { ...baseReq, logprobs: true },
      ),
    );
    expect(choices.map((c: any) => [c.index, c.delta, c.logprobs?.content.map((t: any) => t.token) ?? null])).toEqual([
      [0, { role: 'assistant', content: '', refusal: null }, []],
      [0, { content: 'A' }, ['A']],
      [0, { content: 'B' }, null],
      [1, {}, ['other']],
      [0, { content: 'C' }, null],
      [0, {}, null],
    ]);
  });
});
