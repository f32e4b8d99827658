import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { describe, expect, it } from 'vitest';
import { encodeSignature, ProxyError, type ChatRequest, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { createStreamEncoder } from './stream-encoder.ts';

const dir = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

const sseFixtures = readdirSync(dir).filter((f) => f.endsWith('.sse'));

const req: ChatRequest = { model: 'claude-x', system: [], messages: [], stream: true };

function encodeAll(events: StreamEvent[], cut = events.length): StreamFrame[] {
  const enc = createStreamEncoder(req, testContext());
  return [...events.slice(0, cut).flatMap((e) => enc.push(e)), ...enc.finish()];
}

function decodeFixture(name: string): StreamEvent[] {
  const d = createStreamDecoder(req, testContext());
  return [...fixtureSse('anthropic', name).flatMap((e) => d.push(e)), ...d.finish()];
}

const payloads = (frames: StreamFrame[]) => frames.map((f) => JSON.parse(f.data) as Record<string, any>);

/** The real service's order: one open block at a time, indexes from 0, closed before message_delta. */
function expectAnthropicOrder(frames: StreamFrame[]): void {
  const data = payloads(frames);
  frames.forEach((f, i) => expect(f.event).toBe(data[i]!.type));
  if (data[0]!.type === 'error') {
    expect(data).toHaveLength(1);
    return;
  }
  expect(data[0]!.type).toBe('message_start');
  let open: number | null = null;
  let next = 0;
  let ended = false;
  for (const d of data.slice(1)) {
    if (d.type === 'error') {
      ended = true;
      continue;
    }
    expect(ended).toBe(false);
    switch (d.type) {
      case 'content_block_start':
        expect(open).toBeNull();
        expect(d.index).toBe(next);
        open = next++;
        break;
      case 'content_block_delta':
        expect(d.index).toBe(open);
        break;
      case 'content_block_stop':
        expect(d.index).toBe(open);
        open = null;
        break;
      case 'message_delta':
        expect(open).toBeNull();
        expect(d.delta.stop_reason).toEqual(expect.any(String));
        // MessageDeltaUsage: every field present (nullable ones as null).
        expect(Object.keys(d.usage).sort()).toEqual([
          'cache_creation_input_tokens',
          'cache_read_input_tokens',
          'input_tokens',
          'output_tokens',
          'output_tokens_details',
          'server_tool_use',
        ]);
        break;
      case 'message_stop':
        ended = true;
        break;
      default:
        throw new Error(`unexpected ${d.type}`);
    }
  }
  expect(ended).toBe(true);
}

/** What `client.messages.stream(...).finalMessage()` makes of our frames. */
async function sdkFinalMessage(frames: StreamFrame[]) {
  const body = frames.map((f) => f.data).join('\n') + '\n';
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(body));
      c.close();
    },
  });
  return MessageStream.fromReadableStream(stream).finalMessage();
}

describe('anthropic stream encoder: fixtures through decoder → encoder', () => {
  it.each(sseFixtures)('%s keeps the service order, closes on any prefix', (name) => {
    const events = decodeFixture(name);
    expectAnthropicOrder(encodeAll(events));
    for (let cut = 0; cut <= events.length; cut++) expectAnthropicOrder(encodeAll(events, cut));
  });

  it('stream-tool-use: the SDK accumulates the same message', async () => {
    const msg = await sdkFinalMessage(encodeAll(decodeFixture('stream-tool-use.sse')));
    expect(msg.id).toBe('msg_01AusY9WEbCaj3N7Tv5J4YjH');
    expect(msg.model).toBe('claude-haiku-4-5-20251001');
    expect(msg.content).toEqual([
      { type: 'tool_use', id: 'toolu_018acGYLtfR52q9yDbWaEdQZ', name: 'get_weather', input: { location: 'San Francisco, CA', units: 'f' }, caller: { type: 'direct' } },
    ]);
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.usage).toMatchObject({ input_tokens: 656, output_tokens: 74, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });

  it('stream-tool-use-no-args: input {}', async () => {
    const msg = await sdkFinalMessage(encodeAll(decodeFixture('stream-tool-use-no-args.sse')));
    expect(msg.content[1]).toEqual({ type: 'tool_use', id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', input: {}, caller: { type: 'direct' } });
  });

  it('stream-thinking-signature: thinking + signature round-trip unchanged', async () => {
    const msg = await sdkFinalMessage(encodeAll(decodeFixture('stream-thinking-signature.sse')));
    expect(msg.content[0]).toMatchObject({ type: 'thinking', thinking: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185' });
    expect((msg.content[0] as { signature: string }).signature.startsWith('EvQBCkYICxgCKkAxhD4N')).toBe(true);
    expect(msg.content[1]).toMatchObject({ type: 'text', text: '925 ÷ 5 = 185' });
  });

  it('stream-prompt-cache-write-server-tool: usage back in Anthropic terms', async () => {
    const msg = await sdkFinalMessage(encodeAll(decodeFixture('stream-prompt-cache-write-server-tool.sse')));
    expect(msg.usage).toMatchObject({ input_tokens: 6, cache_creation_input_tokens: 3337, cache_read_input_tokens: 6289, output_tokens: 198 });
  });

  it('stream-stop-sequence keeps stop_sequence', async () => {
    const msg = await sdkFinalMessage(encodeAll(decodeFixture('stream-stop-sequence.sse')));
    expect(msg.stop_reason).toBe('stop_sequence');
    expect(msg.stop_sequence).toBe('STOP');
  });
});

describe('anthropic stream encoder: OpenAI-shaped input', () => {
  const openaiLike: StreamEvent[] = [
    { type: 'message-start', id: 'chatcmpl-1', model: 'gpt-4o', created: 1 },
    { type: 'text-start' },
    { type: 'text-delta', text: '' },
    { type: 'text-delta', text: 'Let me check.' },
    { type: 'text-end' },
    { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
    { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g', signature: { origin: 'gemini', value: 'sig' } },
    { type: 'tool-call-delta', index: 1, argumentsDelta: '{"y":' },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
    { type: 'tool-call-delta', index: 1, argumentsDelta: '2}' },
    { type: 'tool-call-end', index: 0 },
    { type: 'tool-call-end', index: 1 },
    { type: 'tool-call-start', index: 2, id: 'call_c', name: 'h' },
    { type: 'tool-call-end', index: 2 },
    { type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_calls' } },
    { type: 'usage', usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120, cachedInputTokens: 40 } },
  ];

  it('holds usage for message_delta, serializes overlapping tool calls', async () => {
    const frames = encodeAll(openaiLike);
    expectAnthropicOrder(frames);
    const data = payloads(frames);
    expect(data[0]!.message).toMatchObject({ id: 'msg_test0001', model: 'gpt-4o', content: [], stop_reason: null, usage: { input_tokens: 0, output_tokens: 0 } });
    // message_start carries a whole `Message`: the nullable fields the OpenAPI document requires.
    expect(data[0]!.message).toMatchObject({ stop_details: null, container: null });
    expect(data[0]!.message.usage).toMatchObject({
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      service_tier: null,
      inference_geo: null,
      server_tool_use: null,
    });
    const toolStart = data.find((d) => d.type === 'content_block_start' && d.content_block.type === 'tool_use');
    expect(toolStart!.content_block.caller).toEqual({ type: 'direct' });
    expect(data.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null, container: null },
      usage: { input_tokens: 60, cache_creation_input_tokens: 0, cache_read_input_tokens: 40, output_tokens: 20, output_tokens_details: null, server_tool_use: null },
    });
    const msg = await sdkFinalMessage(frames);
    expect(msg.content).toEqual([
      { type: 'text', text: 'Let me check.', citations: null },
      { type: 'tool_use', id: 'call_a', name: 'f', input: { x: 1 }, caller: { type: 'direct' } },
      { type: 'tool_use', id: expect.stringMatching(/^call_b__il1g[A-Za-z0-9_-]+$/), name: 'g', input: { y: 2 }, caller: { type: 'direct' } },
      { type: 'tool_use', id: 'call_c', name: 'h', input: {}, caller: { type: 'direct' } },
    ]);
    expect(msg.usage).toMatchObject({ input_tokens: 60, cache_read_input_tokens: 40, output_tokens: 20 });
    // The carrier id decodes back to the plain id + the Gemini signature on the next turn.
    const next = decodeRequest(
      {
        body: { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: msg.content }] },
        headers: { 'anthropic-version': '2023-06-01' },
        params: {},
        query: {},
      },
    ).value;
    expect(next.messages[1]!.content[2]).toEqual({ type: 'tool-call', id: 'call_b', name: 'g', arguments: '{"y":2}', signature: { origin: 'gemini', value: 'sig' } });
  });

  it('reasoning with foreign signature, redacted, Gemini text signature, refusal', async () => {
    const frames = encodeAll([
      { type: 'message-start', id: 'x', model: 'gemini-3', created: 1 },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'think' },
      { type: 'reasoning-end', signature: { origin: 'gemini', value: 'g1' } },
      { type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'opaque' } },
      { type: 'reasoning-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'hi' },
      { type: 'text-end', signature: { origin: 'gemini', value: 'g2' } },
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'no' },
      { type: 'refusal-end' },
      { type: 'finish', reason: { unified: 'content-filter' } },
    ]);
    expectAnthropicOrder(frames);
    const msg = await sdkFinalMessage(frames);
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'think', signature: encodeSignature({ origin: 'gemini', value: 'g1' }) },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'hi', citations: null },
      { type: 'thinking', thinking: '', signature: encodeSignature({ origin: 'gemini', value: 'g2' }) },
      { type: 'text', text: 'no', citations: null },
    ]);
    expect(msg.stop_reason).toBe('refusal');
  });

  it('an error event is the last frame; finish() adds nothing', () => {
    const enc = createStreamEncoder(req, testContext());
    const out = [
      ...enc.push({ type: 'message-start', id: 'msg_1', model: 'm', created: 1 }),
      ...enc.push({ type: 'text-delta', text: 'Hel' }),
      ...enc.push({ type: 'error', error: new ProxyError('overloaded', 'Overloaded') }),
    ];
    expect(enc.finish()).toEqual([]);
    expect(enc.push({ type: 'text-delta', text: 'x' })).toEqual([]);
    expect(out.at(-1)).toEqual({ event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: null }) });
  });

  it('an empty upstream still yields a complete message', async () => {
    const frames = encodeAll([]);
    expect(frames.map((f) => f.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
    const msg = await sdkFinalMessage(frames);
    expect(msg).toMatchObject({ id: 'msg_test0001', model: 'claude-x', content: [], stop_reason: 'end_turn' });
  });

  it('ignores choices other than 0', () => {
    const frames = encodeAll([{ type: 'text-delta', choice: 1, text: 'x' }]);
    expect(frames.some((f) => f.event === 'content_block_start')).toBe(false);
  });
});

describe('anthropic stream encoder: event details', () => {
  const payloads = (frames: StreamFrame[]) => frames.map((f) => JSON.parse(f.data) as Record<string, any>);
  function encode(events: StreamEvent[], r: ChatRequest = req) {
    const enc = createStreamEncoder(r, testContext());
    return payloads([...events.flatMap((e) => enc.push(e)), ...enc.finish()]);
  }

  it('message_start: a msg_ id kept, others replaced; the upstream’s model, else the request’s; usage known by then', () => {
    const a = encode([
      { type: 'message-start', id: 'msg_up', model: 'claude-up', created: 1 },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 0, totalTokens: 30, cachedInputTokens: 10 } },
      { type: 'text-delta', text: 'x' },
    ]);
    expect(a[0]!.message).toMatchObject({ id: 'msg_up', model: 'claude-up', usage: { input_tokens: 20, cache_read_input_tokens: 10 } });
    const b = encode([{ type: 'message-start', id: 'chatcmpl-9', model: '', created: 1 }, { type: 'text-delta', text: 'x' }]);
    expect(b[0]!.message.id).toBe('msg_test0001');
    expect(b[0]!.message.model).toBe('claude-x');
  });

  it('text and thinking switch blocks with rising indexes; empty deltas open nothing', () => {
    const data = encode([
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: '' },
      { type: 'reasoning-delta', text: 'r' },
      { type: 'text-delta', text: '' },
      { type: 'text-delta', text: 't' },
      { type: 'reasoning-delta', text: 'r2' },
      { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'sig' } },
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
    expect(data.filter((d) => d.type.startsWith('content_block'))).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'r' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 't' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'thinking_delta', thinking: 'r2' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 2 },
    ]);
  });

  it('a blocked prompt ends as refusal; the stop sequence and the usage go in message_delta', () => {
    expect(encode([{ type: 'prompt-blocked', reason: 'SAFETY' }]).at(-2)!.delta.stop_reason).toBe('refusal');
    const d = encode([
      { type: 'text-delta', text: 'a' },
      { type: 'finish', reason: { unified: 'stop-sequence', raw: 'stop', stopSequence: 'END' } },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } },
      { type: 'logprobs', content: [] } as unknown as StreamEvent,
    ]).at(-2)!;
    expect(d.delta).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(d.usage).toMatchObject({ input_tokens: 5, output_tokens: 6 });
  });

  it('a tool call whose deltas come for an unknown index loses nothing of the known ones', () => {
    const data = encode([
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 7, argumentsDelta: '{"zz":1}' },
      { type: 'tool-call-end', index: 7 },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
    ]);
    expect(data.filter((d) => d.type === 'content_block_delta').map((d) => d.delta.partial_json)).toEqual(['{}']);
    expect(data.filter((d) => d.type === 'content_block_stop')).toEqual([{ type: 'content_block_stop', index: 0 }]);
  });
});
