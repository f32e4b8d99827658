import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { OpenAIResponsesStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'caller', system: [], messages: [], stream: true };

function run(events: SseEvent[]): StreamEvent[] {
  const dec = new OpenAIResponsesStreamDecoder(req, testContext());
  return [...events.flatMap((e) => dec.push(e)), ...dec.finish()];
}
const fixture = (name: string) => run(fixtureSse('openai-responses', name));
const textOf = (events: StreamEvent[], type: 'text-delta' | 'reasoning-delta' | 'refusal-delta') =>
  events.flatMap((e) => (e.type === type ? [e.text] : [])).join('');
const argsOf = (events: StreamEvent[], index: number) =>
  events.flatMap((e) => (e.type === 'tool-call-delta' && e.index === index ? [e.argumentsDelta] : [])).join('');
const ev = (data: Record<string, unknown>): SseEvent => ({ event: String(data['type']), data: JSON.stringify(data) });

describe('Responses stream decoder', () => {
  it('the Codex turn: summaries joined, signature at the reasoning end, text, a freeform patch streamed raw', () => {
    const events = fixture('stream-codex-reasoning-summaries-apply-patch.sse');
    expect(events[0]).toEqual({ type: 'message-start', id: 'resp_hand_codex', model: 'gpt-5.1-codex', created: 1767000000 });
    expect(textOf(events, 'reasoning-delta')).toBe('**Locating the greeting**\n\nThe function lives in src/greet.ts.\n\n**Editing it**\n\nA one-line patch is enough.');
    expect(events.find((e) => e.type === 'reasoning-end')).toEqual({ type: 'reasoning-end', signature: { origin: 'openai', value: expect.stringMatching(/^gAAAAA/) } });
    expect(textOf(events, 'text-delta')).toBe('I’ll update the greeting in src/greet.ts.');
    expect(events.find((e) => e.type === 'tool-call-start')).toEqual({ type: 'tool-call-start', index: 0, id: 'call_hand_patch', name: 'apply_patch', custom: true });
    expect(argsOf(events, 0)).toContain('Grüß dich, ${name} 👋');
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 5210, outputTokens: 301, totalTokens: 5511, cachedInputTokens: 4864, reasoningTokens: 192 } },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'completed' } },
    ]);
  });

  it('function calls in order, arguments from their deltas', () => {
    const events = fixture('stream-parallel-function-calls.sse');
    expect(events.filter((e) => e.type === 'tool-call-start').map((e) => (e as { name: string }).name)).toEqual(['currentLocation', 'weather']);
    expect(argsOf(events, 0)).toBe('{}');
    expect(argsOf(events, 1)).toBe('{"location":"Rome"}');
  });

  it('refusal, incomplete, logprobs', () => {
    const refusal = fixture('stream-refusal.sse');
    expect(textOf(refusal, 'refusal-delta')).toBe("I'm sorry, but I can't help with that.");
    expect(refusal.at(-1)).toEqual({ type: 'finish', reason: { unified: 'refusal', raw: 'completed' } });
    expect(fixture('stream-incomplete-max-output-tokens.sse').at(-1)).toEqual({ type: 'finish', reason: { unified: 'length', raw: 'max_output_tokens' } });
    const lp = fixture('stream-text-logprobs.sse').find((e) => e.type === 'logprobs');
    expect(lp).toMatchObject({ type: 'logprobs', logprobs: { content: [{ token: 'N', top: expect.arrayContaining([expect.objectContaining({ token: 'Please' })]) }] } });
  });

  it('failures: the error event and response.failed, by code, with the wait from the message', () => {
    const quota = fixture('stream-error-insufficient-quota.sse');
    expect(quota.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(quota.at(-1)).toMatchObject({ type: 'error', error: { kind: 'rate-limit', code: 'insufficient_quota', upstreamType: 'insufficient_quota' } });
    const rate = fixture('stream-error-failed-rate-limit.sse');
    expect(rate.at(-1)).toMatchObject({ type: 'error', error: { kind: 'rate-limit', code: 'rate_limit_exceeded', retryAfter: 11.054 } });
    const top = run([ev({ type: 'error', code: 'context_length_exceeded', message: 'Too long.', param: 'input' })]);
    expect(top).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'invalid-request', code: 'context_length_exceeded', param: 'input' }), upstreamFrame: true }]);
  });

  it('hosted tool items and unknown events are ignored; the answer still decodes', () => {
    const events = fixture('stream-web-search-hosted-tool-annotations.sse');
    expect(events.some((e) => e.type === 'tool-call-start')).toBe(false);
    expect(textOf(events, 'text-delta').length).toBeGreaterThan(100);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: { unified: 'stop' } });
  });

  it('a server that sends only finished items and .done events still yields the content', () => {
    const item = { type: 'message', id: 'm1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Whole.', annotations: [] }] };
    const call = { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'f', arguments: '{"a":1}', status: 'completed' };
    const events = run([
      ev({ type: 'response.output_item.done', output_index: 0, item }),
      ev({ type: 'response.output_item.added', output_index: 1, item: { ...call, arguments: '' } }),
      ev({ type: 'response.function_call_arguments.done', output_index: 1, arguments: '{"a":1}' }),
      ev({ type: 'response.output_item.done', output_index: 1, item: call }),
      ev({ type: 'response.completed', response: { id: 'r', status: 'completed', usage: null } }),
    ]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish']);
    expect(textOf(events, 'text-delta')).toBe('Whole.');
    expect(argsOf(events, 0)).toBe('{"a":1}');
  });

  it('deltas of a message whose item was never added still frame properly; a cut stream ends in an error', () => {
    const events = run([
      ev({ type: 'response.created', response: { id: 'r', model: 'm', created_at: 5 } }),
      ev({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Hel' }),
    ]);
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'error']);
    expect(events.at(-1)).toMatchObject({ error: { kind: 'upstream', message: expect.stringContaining('response.completed') } });
  });

  it('a carrier in encrypted_content names its vendor (a signature the proxy gave a Responses caller)', () => {
    const carrier = '/2lsMWFFcVFC'; // encodeSignature({origin:'anthropic', value:'EqQB'})
    const events = run([
      ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } }),
      ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [], encrypted_content: carrier } }),
      ev({ type: 'response.completed', response: { status: 'completed' } }),
    ]);
    expect(events.find((e) => e.type === 'reasoning-end')).toEqual({ type: 'reasoning-end', signature: { origin: 'anthropic', value: 'EqQB' } });
  });

  it('finished items only: reasoning from its summary parts, a refusal beside the text; incomplete without a status', () => {
    const events = run([
      ev({ type: 'response.created', response: { id: 'resp_1', model: 'm', created_at: 5 } }),
      ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'a' }, { type: 'summary_text', text: '' }, { type: 'summary_text', text: 'b' }], encrypted_content: 'gAAAAAenc' } }),
      ev({ type: 'response.output_item.done', output_index: 1, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }, { type: 'refusal', refusal: 'No' }] } }),
      ev({ type: 'response.output_item.done', output_index: 2, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":1}' } }),
      ev({ type: 'response.incomplete', response: { id: 'resp_1' } }),
    ]);
    expect(events).toEqual([
      { type: 'message-start', id: 'resp_1', model: 'm', created: 5 },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'a\n\nb' },
      { type: 'reasoning-end', signature: { origin: 'openai', value: 'gAAAAAenc' } },
      { type: 'text-start' },
      { type: 'text-delta', text: 'Hi' },
      { type: 'text-end' },
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'No' },
      { type: 'refusal-end' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'other', raw: 'incomplete' } },
    ]);
  });

  it('.done events say the rest: a summary after its deltas, a text with none, a refusal after its start', () => {
    const events = run([
      ev({ type: 'response.created', response: { id: 'resp_1' } }),
      ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }),
      ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'th' }),
      ev({ type: 'response.reasoning_summary_text.done', output_index: 0, text: 'think' }),
      ev({ type: 'response.output_text.done', output_index: 1, text: 'whole' }),
      ev({ type: 'response.refusal.delta', output_index: 1, delta: 'N' }),
      ev({ type: 'response.refusal.done', output_index: 1, refusal: 'No' }),
      ev({ type: 'response.completed', response: { id: 'resp_1' } }),
    ]);
    expect(events).toEqual([
      { type: 'message-start', id: 'resp_1', model: 'caller', created: 1_700_000_000 },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'th' },
      { type: 'reasoning-delta', text: 'ink' },
      { type: 'reasoning-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'whole' },
      { type: 'text-end' },
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'N' },
      { type: 'refusal-delta', text: 'o' },
      { type: 'refusal-end' },
      { type: 'finish', reason: { unified: 'stop', raw: 'completed' } },
    ]);
  });

  it('frames: empty and [DONE] say nothing; bad JSON or a non-event shape end the stream with the frame kept', () => {
    const dec = new OpenAIResponsesStreamDecoder(req, testContext());
    expect([...dec.push({ data: '' }), ...dec.push({ data: '[DONE]' })]).toEqual([]);
    const [bad] = dec.push({ data: '{nope' });
    expect(bad).toMatchObject({ type: 'error', error: { kind: 'upstream', message: 'The upstream sent an unparsable stream frame.', raw: '{nope' } });
    expect(dec.finish()).toEqual([]);
    const [shape] = new OpenAIResponsesStreamDecoder(req, testContext()).push({ data: '[1]' });
    expect(shape).toMatchObject({ type: 'error', error: { kind: 'upstream', message: 'The upstream sent a stream event of the wrong shape.', raw: '[1]' } });
  });

  it('late events of an item already done say nothing: no block is reopened (and left open)', () => {
    const message = { type: 'message', id: 'm1', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] };
    const call = { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'f', arguments: '{}' };
    const events = run([
      ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } }),
      ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'r' }),
      ev({ type: 'response.output_item.added', output_index: 1, item: { ...message, content: [] } }),
      ev({ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'Hi' }),
      ev({ type: 'response.output_item.done', output_index: 1, item: message }),
      ev({ type: 'response.output_item.added', output_index: 2, item: call }),
      ev({ type: 'response.output_item.done', output_index: 2, item: call }),
      ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'late' }),
      ev({ type: 'response.reasoning_summary_part.added', output_index: 0, part: { type: 'summary_text', text: '' } }),
      ev({ type: 'response.content_part.added', output_index: 1, content_index: 1, part: { type: 'refusal', refusal: '' } }),
      ev({ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'late' }),
      ev({ type: 'response.refusal.delta', output_index: 1, content_index: 1, delta: 'late' }),
      ev({ type: 'response.output_text.done', output_index: 1, content_index: 0, text: 'Hi late' }),
      ev({ type: 'response.refusal.done', output_index: 0, content_index: 0, refusal: 'late' }),
      ev({ type: 'response.content_part.done', output_index: 1, content_index: 0, part: { type: 'output_text', text: 'Hi' } }),
      ev({ type: 'response.function_call_arguments.delta', output_index: 2, delta: 'late' }),
      ev({ type: 'response.function_call_arguments.done', output_index: 2, arguments: '{}late' }),
      ev({ type: 'response.output_item.added', output_index: 1, item: message }),
      ev({ type: 'response.output_item.done', output_index: 1, item: message }),
      ev({ type: 'response.completed', response: { status: 'completed' } }),
    ]);
    expect(events).toEqual([
      { type: 'message-start', id: 'resp_test0001', model: 'caller', created: 1_700_000_000 },
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'r' },
      { type: 'reasoning-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'Hi' },
      { type: 'text-end' },
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'completed' } },
    ]);
  });
});
