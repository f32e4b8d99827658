import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeReasoning, ProxyError, type ChatRequest, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { chatDialects } from '../index.ts';
import { OpenAIResponsesStreamEncoder } from './stream-encoder.ts';

type Data = Record<string, any>;

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, streamUsage: true, ...over });
const codexReq = req({
  reasoning: { effort: 'medium', includeThoughts: true },
  extras: { dialect: 'openai-responses', fields: {}, encryptedReasoning: true } as never,
  tools: [{ name: 'apply_patch', custom: {} }, { name: 'shell', parameters: { type: 'object' } }],
});

function encode(events: StreamEvent[], r = req()): Data[] {
  const enc = new OpenAIResponsesStreamEncoder(r, testContext());
  const frames: StreamFrame[] = [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
  return frames.map((f) => {
    const data = JSON.parse(f.data) as Data;
    expect(f.event, 'event line = data.type').toBe(data['type']);
    return data;
  });
}

const TERMINAL = ['response.completed', 'response.incomplete', 'response.failed'];

/** Everything a Responses client relies on, checked on one encoded stream. */
function protocolProblems(frames: Data[], usage = false): string[] {
  const problems: string[] = [];
  frames.forEach((f, i) => {
    if (f['sequence_number'] !== i) problems.push(`frame ${i}: sequence_number ${f['sequence_number']}`);
  });
  if (frames[0]?.['type'] !== 'response.created' || frames[1]?.['type'] !== 'response.in_progress') problems.push('does not start with created, in_progress');
  const terminals = frames.filter((f) => TERMINAL.includes(f['type']));
  if (terminals.length !== 1 || !TERMINAL.includes(frames.at(-1)?.['type'])) problems.push('not exactly one terminal event, last');
  const state = new Map<number, 'open' | 'done'>();
  const streamed = new Map<number, string>();
  let open: number | undefined;
  const done: Data[] = [];
  for (const f of frames) {
    const at = f['output_index'] as number | undefined;
    if (f['type'] === 'response.output_item.added') {
      if (open !== undefined) problems.push(`item ${at} added while ${open} is open`);
      if (state.has(at!)) problems.push(`item ${at} added twice`);
      state.set(at!, 'open');
      open = at;
    } else if (at !== undefined) {
      if (state.get(at) !== 'open') problems.push(`${f['type']} for item ${at} outside added…done`);
      if (typeof f['delta'] === 'string' && !f['type'].includes('reasoning')) streamed.set(at, (streamed.get(at) ?? '') + f['delta']);
      if (f['type'] === 'response.output_item.done') {
        state.set(at, 'done');
        open = undefined;
        done[at] = f['item'];
        const item = f['item'] as Data;
        const whole =
          item['type'] === 'function_call' ? item['arguments'] : item['type'] === 'custom_tool_call' ? item['input'] : item['type'] === 'message' ? (item['content'] as Data[]).map((c) => c['text'] ?? c['refusal']).join('') : undefined;
        if (whole !== undefined && whole !== (streamed.get(at) ?? '')) problems.push(`item ${at}: done item says ${JSON.stringify(whole)}, deltas said ${JSON.stringify(streamed.get(at))}`);
        if (item['status'] === 'in_progress') problems.push(`item ${at}: done with status in_progress`);
      }
    }
  }
  const last = frames.at(-1);
  if (last?.['type'] === 'response.completed' || last?.['type'] === 'response.incomplete') {
    if ([...state.values()].some((s) => s !== 'done')) problems.push('an item was never done');
    if (JSON.stringify(last['response']['output']) !== JSON.stringify(done.filter(Boolean))) problems.push('the final output is not the done items');
    if (usage && !last['response']['usage']) problems.push('no usage in the terminal event');
  }
  return problems;
}

const fixtureDir = (id: string) => fileURLToPath(new URL(`../${id}/__fixtures__/`, import.meta.url));
const sources = chatDialects.flatMap((d) => readdirSync(fixtureDir(d.id)).filter((f) => f.endsWith('.sse')).map((f) => [`${d.id}/${f}`, d, f] as const));

describe('Responses stream encoder: protocol on every fixture stream, after any prefix', () => {
  it.each(sources)('%s', (_label, d, file) => {
    const dec = d.createStreamDecoder(req(), testContext());
    const events = [...fixtureSse(d.id, file).flatMap((e) => dec.push(e)), ...dec.finish()];
    for (let n = 0; n <= events.length; n++) {
      const usage = events.slice(0, n).some((e) => e.type === 'usage');
      for (const r of [req(), codexReq]) expect(protocolProblems(encode(events.slice(0, n), r), usage), `after ${n} events`).toEqual([]);
    }
  });
});

const start: StreamEvent = { type: 'message-start', id: 'msg_01', model: 'claude-x', created: 7 };

describe('Responses stream encoder', () => {
  it('a cross-vendor turn: reasoning summary with a wrapped signature, text, freeform and function calls', () => {
    const frames = encode(
      [
        start,
        { type: 'reasoning-start' },
        { type: 'reasoning-delta', text: 'Thinking' },
        { type: 'reasoning-delta', text: ' hard.' },
        { type: 'reasoning-end', signature: { origin: 'anthropic', value: 'EqQB' } },
        { type: 'text-start' },
        { type: 'text-delta', text: 'Patching.' },
        { type: 'text-end' },
        { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'apply_patch', custom: true },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '*** Begin Patch\n' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '*** End Patch\n' },
        { type: 'tool-call-end', index: 0 },
        { type: 'tool-call-start', index: 1, id: 'call_2', name: 'shell', signature: { origin: 'gemini', value: 'CikB' } },
        { type: 'tool-call-delta', index: 1, argumentsDelta: '{"command":["ls"]}' },
        { type: 'tool-call-end', index: 1 },
        { type: 'usage', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 4, reasoningTokens: 2 } },
        { type: 'finish', reason: { unified: 'tool-calls' } },
      ],
      codexReq,
    );
    expect(protocolProblems(frames, true)).toEqual([]);
    expect(frames.map((f) => f['type'])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    // Another vendor's id (msg_01) is not made into ours: the Response id is minted.
    expect(frames[0]!['response']).toMatchObject({ id: 'resp_test0001', object: 'response', status: 'in_progress', model: 'claude-x', created_at: 7, output: [] });
    expect(frames[8]!['item']).toEqual({ id: 'rs_test0002', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking hard.' }], encrypted_content: encodeReasoning({ text: 'Thinking hard.', signature: { origin: 'anthropic', value: 'EqQB' } }) });
    expect(frames[19]!['item']).toEqual({ id: 'ctc_test0004', type: 'custom_tool_call', status: 'completed', call_id: 'toolu_1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' });
    expect(frames[23]!['item']).toMatchObject({ type: 'function_call', call_id: expect.stringMatching(/^call_2__il1g/), arguments: '{"command":["ls"]}' });
    expect(frames[22]).toMatchObject({ name: 'shell', arguments: '{"command":["ls"]}' });
    const done = frames.at(-1)!['response'];
    expect(done).toMatchObject({ status: 'completed', error: null, incomplete_details: null });
    expect(done['usage']).toEqual({ input_tokens: 10, input_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 15 });
  });

  it('no summary or encrypted content unless the caller asked; the reasoning item is still there', () => {
    const frames = encode([start, { type: 'reasoning-start' }, { type: 'reasoning-delta', text: 'x' }, { type: 'reasoning-end', signature: { origin: 'openai', value: 'gAAA' } }, { type: 'finish', reason: { unified: 'stop' } }]);
    expect(frames.map((f) => f['type'])).not.toContain('response.reasoning_summary_text.delta');
    expect(frames.find((f) => f['type'] === 'response.output_item.done')!['item']).toEqual({ id: 'rs_test0002', type: 'reasoning', summary: [] });
  });

  it("a signed answer text with no words (Gemini's) keeps its signature as a reasoning item, only for an encrypted caller", () => {
    const signature = { origin: 'gemini' as const, value: 'SIG' };
    const events: StreamEvent[] = [start, { type: 'text-start' }, { type: 'text-end', signature }, { type: 'finish', reason: { unified: 'stop' } }];
    const frames = encode(events, codexReq);
    expect(protocolProblems(frames)).toEqual([]);
    expect(frames.at(-1)!['response']['output']).toEqual([{ id: 'rs_test0002', type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', signature }) }]);
    expect(encode(events).at(-1)!['response']['output']).toEqual([]);
  });

  it('overlapping tool calls are written one after the other', () => {
    const frames = encode([
      start,
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"y":2}' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]);
    expect(protocolProblems(frames)).toEqual([]);
    expect(frames.at(-1)!['response']['output'].map((i: Data) => [i['call_id'], i['arguments']])).toEqual([
      ['a', '{"x":1}'],
      ['b', '{"y":2}'],
    ]);
  });

  it('length and content filter end incomplete; a refusal completes', () => {
    const text = (reason: StreamEvent): Data[] => encode([start, { type: 'text-start' }, { type: 'text-delta', text: 'Hel' }, { type: 'text-end' }, reason]);
    const length = text({ type: 'finish', reason: { unified: 'length' } }).at(-1)!;
    expect(length).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
    expect(text({ type: 'prompt-blocked', reason: 'SAFETY' }).at(-1)).toMatchObject({ type: 'response.incomplete', response: { incomplete_details: { reason: 'content_filter' } } });
    const refusal = encode([start, { type: 'refusal-start' }, { type: 'refusal-delta', text: 'No.' }, { type: 'refusal-end' }, { type: 'finish', reason: { unified: 'refusal' } }]);
    expect(refusal.map((f) => f['type'])).toContain('response.refusal.delta');
    expect(refusal.at(-1)).toMatchObject({ type: 'response.completed', response: { output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] }] } });
  });

  it('an error: an error event, then response.failed with a code Codex acts on and the wait in the message', () => {
    const frames = encode([
      start,
      { type: 'text-start' },
      { type: 'text-delta', text: 'Par' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"half' },
      { type: 'error', error: new ProxyError('rate-limit', 'Too many requests.', { retryAfter: 7 }) },
      { type: 'text-delta', text: 'ignored' },
    ]);
    expect(frames.slice(-2).map((f) => f['type'])).toEqual(['error', 'response.failed']);
    expect(frames.at(-2)).toMatchObject({ code: 'rate_limit_exceeded', error: { code: 'rate_limit_exceeded', type: 'requests' } });
    const failed = frames.at(-1)!['response'];
    expect(failed['error']).toEqual({ code: 'rate_limit_exceeded', message: 'Too many requests. Please try again in 7s.' });
    expect(failed['output'].map((i: Data) => i['type'])).toEqual(['message']); // the half call is not in it
    expect(frames.filter((f) => f['type'] === 'response.output_item.done' && f['item']['type'] === 'function_call')).toEqual([]);
  });

  it('context too long, from any vendor, is context_length_exceeded', () => {
    const frames = encode([start, { type: 'error', error: new ProxyError('invalid-request', 'prompt is too long: 210000 tokens > 200000 maximum') }]);
    expect(frames.at(-1)!['response']['error']['code']).toBe('context_length_exceeded');
  });

  it('a stream that stops without a finish fails; nothing at all still opens and closes', () => {
    const cut = encode([start, { type: 'text-start' }, { type: 'text-delta', text: 'Hel' }]);
    expect(cut.at(-1)).toMatchObject({ type: 'response.failed', response: { error: { code: 'server_error' } } });
    expect(encode([]).map((f) => f['type'])).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
  });

  it('logprobs on the output text when asked', () => {
    const frames = encode(
      [
        start,
        { type: 'text-start' },
        { type: 'text-delta', text: 'N' },
        { type: 'logprobs', logprobs: { content: [{ token: 'N', logprob: -0.1, top: [{ token: 'Y', logprob: -2 }] }] } },
        { type: 'text-end' },
        { type: 'finish', reason: { unified: 'stop' } },
      ],
      req({ logprobs: true }),
    );
    expect(frames.find((f) => f['type'] === 'response.output_text.done')!['logprobs']).toEqual([
      { token: 'N', logprob: -0.1, bytes: [78], top_logprobs: [{ token: 'Y', logprob: -2, bytes: [89] }] },
    ]);
  });
});
