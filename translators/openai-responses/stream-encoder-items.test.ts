/**
 * The Responses stream encoder, event by event: which frames each canonical event writes, what the
 * done items and the terminal Response carry.
 */
import { describe, expect, it } from 'vitest';
import { encodeReasoning, type ChatRequest, type StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { OpenAIResponsesStreamEncoder } from './stream-encoder.ts';

type Data = Record<string, any>;

const plain: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true };
const codex: ChatRequest = { ...plain, reasoning: { effort: 'low', includeThoughts: true }, extras: { dialect: 'openai-responses', fields: {}, encryptedReasoning: true } as never };
const start: StreamEvent = { type: 'message-start', id: 'resp_up', model: 'up-model', created: 9 };
const stop: StreamEvent = { type: 'finish', reason: { unified: 'stop' } };

function frames(events: StreamEvent[], r = plain, finish = true): Data[] {
  const enc = new OpenAIResponsesStreamEncoder(r, testContext());
  const out = [...events.flatMap((e) => enc.push(e)), ...(finish ? enc.finish() : [])];
  return out.map((f) => JSON.parse(f.data) as Data);
}
/** Frames after created/in_progress, each as its type and what tells it apart. */
const brief = (fs: Data[]) =>
  fs.slice(2).map((f) => {
    const t = String(f['type']).replace(/^response\./, '');
    const what = f['delta'] ?? f['item']?.['id'] ?? f['text'] ?? f['refusal'] ?? f['arguments'] ?? f['input'] ?? f['part']?.['type'] ?? f['response']?.['status'] ?? f['code'];
    return what === undefined ? t : `${t} ${typeof what === 'string' ? what : JSON.stringify(what)}`;
  });
const last = (fs: Data[]) => fs.at(-1)!['response'] as Data;

describe('Responses stream encoder, event by event', () => {
  it('the head: a Responses upstream’s id kept, any other minted; its model, else the caller’s; sequence numbers from 0', () => {
    const fs = frames([start, stop]);
    expect(fs.map((f) => f['sequence_number'])).toEqual([0, 1, 2]);
    expect(fs[0]).toMatchObject({ type: 'response.created', response: { id: 'resp_up', model: 'up-model', created_at: 9, status: 'in_progress', output: [] } });
    expect(fs[1]).toMatchObject({ type: 'response.in_progress', response: { id: 'resp_up' } });
    expect(frames([{ ...start, id: 'msg_1', model: '' }, stop])[0]!['response']).toMatchObject({ id: 'resp_test0001', model: 'caller-model' });
    expect(frames([{ ...start, id: '' }, stop])[0]!['response']['id']).toBe('resp_test0001');
    // No message-start: the head is made up at the first event.
    expect(frames([stop])[0]!['response']).toMatchObject({ id: 'resp_test0001', model: 'caller-model', created_at: 1_700_000_000 });
    // A second message-start changes nothing.
    expect(brief(frames([start, { ...start, id: 'resp_other' }, stop]))).toEqual(['completed completed']);
  });

  it('only choice 0 is written', () => {
    const fs = frames([start, { type: 'text-delta', text: 'other', choice: 1 }, { type: 'text-delta', text: 'mine', choice: 0 }, { type: 'text-delta', text: '!', choice: undefined }, { type: 'finish', reason: { unified: 'length' }, choice: 1 }, stop]);
    expect(brief(fs).filter((b) => b.startsWith('output_text.delta'))).toEqual(['output_text.delta mine', 'output_text.delta !']);
    expect(last(fs)['status']).toBe('completed');
  });

  it('text then refusal in one message: a part each; empty deltas and starts write nothing', () => {
    const fs = frames([start, { type: 'text-start' }, { type: 'text-delta', text: '' }, { type: 'text-delta', text: 'A' }, { type: 'text-delta', text: 'B' }, { type: 'refusal-start' }, { type: 'refusal-delta', text: '' }, { type: 'refusal-delta', text: 'No' }, { type: 'refusal-end' }, stop]);
    expect(brief(fs)).toEqual([
      'output_item.added msg_test0001',
      'content_part.added output_text',
      'output_text.delta A',
      'output_text.delta B',
      'output_text.done AB',
      'content_part.done output_text',
      'content_part.added refusal',
      'refusal.delta No',
      'refusal.done No',
      'content_part.done refusal',
      'output_item.done msg_test0001',
      'completed completed',
    ]);
    expect(fs.find((f) => f['type'] === 'response.refusal.delta')).toMatchObject({ item_id: 'msg_test0001', output_index: 0, content_index: 1 });
    expect(fs.filter((f) => f['type'] === 'response.content_part.added').map((f) => f['part'])).toEqual([{ type: 'output_text', annotations: [], logprobs: [], text: '' }, { type: 'refusal', refusal: '' }]);
    expect(fs.find((f) => f['type'] === 'response.output_item.added')!['item']).toEqual({ id: 'msg_test0001', type: 'message', status: 'in_progress', content: [], role: 'assistant' });
    expect(fs.find((f) => f['type'] === 'response.output_text.delta')).toMatchObject({ item_id: 'msg_test0001', output_index: 0, content_index: 0, logprobs: [] });
    expect(last(fs)['output']).toEqual([
      { id: 'msg_test0001', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'AB' }, { type: 'refusal', refusal: 'No' }] },
    ]);
  });

  it('a text end with a signature: the message is closed by the next item, then the signature follows as a reasoning item (encrypted callers only)', () => {
    const signature = { origin: 'gemini' as const, value: 'S' };
    const events: StreamEvent[] = [start, { type: 'text-delta', text: 'Hi' }, { type: 'text-end', signature }, { type: 'tool-call-start', index: 0, id: 'c', name: 'f' }, { type: 'tool-call-end', index: 0 }, stop];
    expect(brief(frames(events, codex))).toEqual([
      'output_item.added msg_test0001',
      'content_part.added output_text',
      'output_text.delta Hi',
      'output_text.done Hi',
      'content_part.done output_text',
      'output_item.done msg_test0001',
      'output_item.added rs_test0002',
      'output_item.done rs_test0002',
      'output_item.added fc_test0003',
      'function_call_arguments.done ',
      'output_item.done fc_test0003',
      'completed completed',
    ]);
    expect(frames(events, codex).find((f) => f['item']?.['id'] === 'rs_test0002' && f['type'] === 'response.output_item.done')!['item']).toEqual({ id: 'rs_test0002', type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', signature }) });
    expect(brief(frames(events, plain)).filter((b) => b.includes('rs_'))).toEqual([]);
    // A signature on a text end with nothing open, for a caller that wants no encrypted content: nothing.
    expect(brief(frames([start, { type: 'text-end', signature }, stop]))).toEqual(['completed completed']);
  });

  it('reasoning: summary frames only when summaries were asked; a redacted block is one done item; an end without a start only with a signature', () => {
    const events: StreamEvent[] = [start, { type: 'reasoning-start' }, { type: 'reasoning-delta', text: '' }, { type: 'reasoning-delta', text: 'a' }, { type: 'reasoning-delta', text: 'b' }, { type: 'reasoning-end' }, stop];
    expect(brief(frames(events, codex))).toEqual([
      'output_item.added rs_test0001',
      'reasoning_summary_part.added summary_text',
      'reasoning_summary_text.delta a',
      'reasoning_summary_text.delta b',
      'reasoning_summary_text.done ab',
      'reasoning_summary_part.done summary_text',
      'output_item.done rs_test0001',
      'completed completed',
    ]);
    expect(frames(events, codex).find((f) => f['type'] === 'response.reasoning_summary_part.done')).toMatchObject({ item_id: 'rs_test0001', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: 'ab' } });
    expect(frames(events, codex).find((f) => f['type'] === 'response.reasoning_summary_part.added')).toEqual({ type: 'response.reasoning_summary_part.added', sequence_number: 3, item_id: 'rs_test0001', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } });
    expect(frames(events, codex).find((f) => f['type'] === 'response.reasoning_summary_text.done')).toEqual({ type: 'response.reasoning_summary_text.done', sequence_number: 6, item_id: 'rs_test0001', output_index: 0, summary_index: 0, text: 'ab' });
    expect(brief(frames(events, plain))).toEqual(['output_item.added rs_test0001', 'output_item.done rs_test0001', 'completed completed']);
    // A delta with no reasoning open opens one.
    expect(brief(frames([start, { type: 'reasoning-delta', text: 'x' }, stop], plain))).toEqual(['output_item.added rs_test0001', 'output_item.done rs_test0001', 'completed completed']);

    const redacted = { origin: 'anthropic' as const, value: 'RED' };
    const red = frames([start, { type: 'text-delta', text: 'T' }, { type: 'reasoning-start', redacted }, stop], codex);
    expect(brief(red).slice(-3)).toEqual(['output_item.added rs_test0002', 'output_item.done rs_test0002', 'completed completed']);
    expect(red.at(-2)!['item']).toEqual({ id: 'rs_test0002', type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', redacted }) });
    expect(last(red)['output'].map((i: Data) => i['type'])).toEqual(['message', 'reasoning']);

    const signature = { origin: 'anthropic' as const, value: 'EqQB' };
    expect(brief(frames([start, { type: 'reasoning-end' }, stop], codex))).toEqual(['completed completed']);
    const signed = frames([start, { type: 'reasoning-end', signature }, stop], codex);
    expect(signed.at(-2)!['item']).toEqual({ id: 'rs_test0001', type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', signature }) });
  });

  it('tool calls: empty and unknown deltas ignored; a queued call that ended is closed when its turn comes, one still open at the finish too', () => {
    const fs = frames([
      start,
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '' },
      { type: 'tool-call-delta', index: 7, argumentsDelta: 'lost' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'p', custom: true },
      { type: 'tool-call-start', index: 2, id: 'c', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: 'raw' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 9 },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]);
    expect(brief(fs)).toEqual([
      'output_item.added fc_test0001',
      'function_call_arguments.delta {"x":1}',
      'function_call_arguments.done {"x":1}',
      'output_item.done fc_test0001',
      'output_item.added ctc_test0002',
      'custom_tool_call_input.delta raw',
      'custom_tool_call_input.done raw',
      'output_item.done ctc_test0002',
      'output_item.added fc_test0003',
      'function_call_arguments.delta {}',
      'function_call_arguments.done {}',
      'output_item.done fc_test0003',
      'completed completed',
    ]);
    expect(fs.find((f) => f['type'] === 'response.function_call_arguments.done')).toMatchObject({ item_id: 'fc_test0001', output_index: 0, name: 'f', arguments: '{"x":1}' });
    expect(fs.find((f) => f['type'] === 'response.custom_tool_call_input.delta')).toMatchObject({ item_id: 'ctc_test0002', output_index: 1, delta: 'raw' });
    expect(fs.find((f) => f['type'] === 'response.output_item.added' && f['output_index'] === 1)!['item']).toEqual({ id: 'ctc_test0002', type: 'custom_tool_call', status: 'in_progress', call_id: 'b', name: 'p', input: '' });
    expect(last(fs)['output'].map((i: Data) => [i['call_id'], i['status']])).toEqual([['a', 'completed'], ['b', 'completed'], ['c', 'completed']]);
  });

  it('a message cut by the output limit is done as incomplete; usage rides on the terminal Response', () => {
    const fs = frames([start, { type: 'text-delta', text: 'Hel' }, { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } }, { type: 'finish', reason: { unified: 'length' } }]);
    expect(fs.find((f) => f['type'] === 'response.output_item.done')!['item']['status']).toBe('incomplete');
    expect(fs.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } } });
    expect(last(frames([start, stop]))).not.toHaveProperty('usage');
  });

  it('a generation error as the finish reason fails the Response, with the items done so far', () => {
    const fs = frames([start, { type: 'text-delta', text: 'Hi' }, { type: 'finish', reason: { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' } }]);
    expect(fs.at(-1)).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: "The model's output ended in an error (MALFORMED_FUNCTION_CALL)." } } });
    expect(last(fs)['output'].map((i: Data) => [i['type'], i['status']])).toEqual([['message', 'incomplete']]);
  });

  it('a call that starts while others wait its turn queues behind them, even with a message in between', () => {
    const fs = frames([
      start,
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'f' },
      { type: 'text-delta', text: 'T' },
      { type: 'tool-call-start', index: 2, id: 'c', name: 'f' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-end', index: 2 },
      { type: 'finish', reason: { unified: 'tool-calls' } },
    ]);
    expect(last(fs)['output'].map((i: Data) => i['call_id'] ?? i['type'])).toEqual(['a', 'message', 'b', 'c']);
  });

  it('logprobs go on the open text part only, when asked', () => {
    const token = { token: 'A', logprob: -1, top: [] };
    const events: StreamEvent[] = [
      start,
      { type: 'logprobs', logprobs: { content: [token] } },
      { type: 'refusal-delta', text: 'No' },
      { type: 'logprobs', logprobs: { content: [token] } },
      { type: 'text-delta', text: 'A' },
      { type: 'logprobs', logprobs: { content: [token] } },
      stop,
    ];
    const done = (r: ChatRequest) => frames(events, r).filter((f) => f['type'] === 'response.output_text.done').map((f) => f['logprobs']);
    expect(done({ ...plain, logprobs: true })).toEqual([[{ token: 'A', logprob: -1, bytes: [65], top_logprobs: [] }]]);
    expect(done(plain)).toEqual([[]]);
  });

  it('after the terminal event nothing more is written', () => {
    const enc = new OpenAIResponsesStreamEncoder(plain, testContext());
    enc.push(start);
    enc.push(stop);
    expect(enc.finish().map((f) => f.event)).toEqual(['response.completed']);
    expect(enc.push({ type: 'text-delta', text: 'late' })).toEqual([]);
    expect(enc.finish()).toEqual([]);
  });
});

describe('an error ending after forwarded frames without sequence numbers', () => {
  it('counts the frames; the failed Response stays the upstream’s own, odd fields and all', () => {
    const enc = new OpenAIResponsesStreamEncoder(plain, testContext());
    enc.forwarded({ event: 'response.created', data: '{"type":"response.created","response":{"id":"resp_h","model":5,"created_at":"now"}}' });
    enc.forwarded({ event: 'response.in_progress', data: '{"type":"response.in_progress"}' });
    enc.forwarded({ event: 'response.output_item.done', data: '{"type":"response.output_item.done","output_index":0,"item":{"id":"m","type":"message"}}' });
    const out = enc.finish().map((f) => JSON.parse(f.data) as Data);
    expect(out.map((f) => [f['type'], f['sequence_number']])).toEqual([['error', 3], ['response.failed', 4]]);
    expect(out[1]!['response']).toMatchObject({ id: 'resp_h', model: 5, status: 'failed', output: [{ id: 'm', type: 'message' }] });
  });
});

describe('Responses stream encoder: the hand-written delta frames', () => {
  const tricky = ['plain', 'quote " and \\ backslash', 'line\nbreak\ttab\u0001', 'é ☃ 😀', '\ud800 lone', '</script>'];
  it('a text delta is the bytes JSON.stringify writes for its object, in the SDK’s key order', () => {
    const enc = new OpenAIResponsesStreamEncoder(plain, testContext());
    const out = [start, ...tricky.map((text): StreamEvent => ({ type: 'text-delta', text }))].flatMap((e) => enc.push(e));
    const deltas = out.filter((f) => f.event === 'response.output_text.delta');
    expect(deltas).toHaveLength(tricky.length);
    deltas.forEach((f, i) => {
      const d = JSON.parse(f.data) as Data;
      expect(f.data).toBe(JSON.stringify({ type: 'response.output_text.delta', sequence_number: d['sequence_number'], item_id: 'msg_test0001', output_index: 0, content_index: 0, delta: tricky[i], logprobs: [] }));
    });
    // Sequence numbers run on from the frames before, one per frame.
    expect(out.map((f) => (JSON.parse(f.data) as Data)['sequence_number'])).toEqual(out.map((_, i) => i));
  });

  it('an arguments delta (function or custom tool) likewise', () => {
    for (const custom of [false, true]) {
      const enc = new OpenAIResponsesStreamEncoder(plain, testContext());
      const out = [start, { type: 'text-delta', text: 'x' }, { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f', ...(custom ? { custom: true } : {}) }, ...tricky.map((argumentsDelta): StreamEvent => ({ type: 'tool-call-delta', index: 0, argumentsDelta }))].flatMap((e) => enc.push(e as StreamEvent));
      const type = custom ? 'response.custom_tool_call_input.delta' : 'response.function_call_arguments.delta';
      const deltas = out.filter((f) => f.event === type);
      expect(deltas).toHaveLength(tricky.length);
      const item = (JSON.parse(out.find((f) => f.event === 'response.output_item.added' && f.data.includes(custom ? 'custom_tool_call' : 'function_call'))!.data) as Data);
      deltas.forEach((f, i) => {
        const d = JSON.parse(f.data) as Data;
        expect(f.data).toBe(JSON.stringify({ type, sequence_number: d['sequence_number'], item_id: item['item']['id'], output_index: 1, delta: tricky[i] }));
      });
      expect(out.map((f) => (JSON.parse(f.data) as Data)['sequence_number'])).toEqual(out.map((_, i) => i));
    }
  });
});
