/**
 * The Responses stream decoder, event by event: what each upstream event adds to the canonical
 * stream, for the shapes servers other than OpenAI's (and OpenAI's own corners) send.
 */
import { describe, expect, it } from 'vitest';
import { encodeToolCallId, type ChatRequest, type SseEvent, type StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { OpenAIResponsesStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'caller', system: [], messages: [], stream: true };
const ev = (data: Record<string, unknown>): SseEvent => ({ event: String(data['type']), data: JSON.stringify(data) });
const created = ev({ type: 'response.created', response: { id: 'resp_1', model: 'm', created_at: 5 } });
const completed = ev({ type: 'response.completed', response: { status: 'completed' } });
const head: StreamEvent = { type: 'message-start', id: 'resp_1', model: 'm', created: 5 };

/** The canonical events of a stream, without its finish() unless asked. */
function run(events: SseEvent[], finish = false): StreamEvent[] {
  const dec = new OpenAIResponsesStreamDecoder(req, testContext());
  return [...events.flatMap((e) => dec.push(e)), ...(finish ? dec.finish() : [])];
}
const stop = { type: 'finish', reason: { unified: 'stop', raw: 'completed' } } as const;

describe('Responses stream decoder, event by event', () => {
  it('blank frames and [DONE] with spaces around say nothing', () => {
    const dec = new OpenAIResponsesStreamDecoder(req, testContext());
    expect([...dec.push({ data: '  ' }), ...dec.push({ data: ' [DONE]\n' })]).toEqual([]);
    expect(dec.push(completed)).toEqual([{ type: 'message-start', id: 'resp_test0001', model: 'caller', created: 1_700_000_000 }, stop]);
  });

  it('an event without a string type ends the stream as an upstream error keeping the frame', () => {
    const dec = new OpenAIResponsesStreamDecoder(req, testContext());
    expect(dec.push({ data: '{"type":5}' })).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', message: 'The upstream sent a stream event of the wrong shape.', raw: '{"type":5}' }) }]);
    expect([...dec.push(completed), ...dec.finish()]).toEqual([]);
  });

  it('a failure before anything else is only the error: no message is started', () => {
    const failed = run([ev({ type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } })]);
    expect(failed).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'upstream', code: 'server_error', message: 'boom' }), upstreamFrame: true }]);
    const dec = new OpenAIResponsesStreamDecoder(req, testContext());
    dec.push(ev({ type: 'response.failed', response: {} }));
    expect([...dec.push(completed), ...dec.finish()]).toEqual([]);
  });

  it('added and done events without an item or its place say nothing', () => {
    const rs = { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text', text: 'r' }] };
    expect(run([created, ev({ type: 'response.output_item.added', item: rs }), ev({ type: 'response.output_item.added', output_index: 0 }), ev({ type: 'response.output_item.done', item: rs }), ev({ type: 'response.output_item.done', output_index: 0, item: null }), completed])).toEqual([head, stop]);
  });

  it('queued and in-progress events start the message once; unknown events only start it', () => {
    expect(run([ev({ type: 'response.queued', response: { id: 'resp_q', model: 'mq', created_at: 1 } }), ev({ type: 'response.in_progress', response: { id: 'resp_x' } }), ev({ type: 'response.audio.delta', delta: 'AAA' }), completed])).toEqual([
      { type: 'message-start', id: 'resp_q', model: 'mq', created: 1 },
      stop,
    ]);
  });

  it('content parts of other types open no block; a refusal part opens a refusal block; its logprobs are not text logprobs', () => {
    const lp = [{ token: 'N', logprob: -1, top_logprobs: [] }];
    expect(
      run([
        created,
        ev({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_audio' } }),
        ev({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: '' } }),
        ev({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: '' } }),
        ev({ type: 'response.refusal.delta', output_index: 0, delta: 'N', logprobs: lp }),
        ev({ type: 'response.content_part.done', output_index: 0, content_index: 0 }),
        ev({ type: 'response.content_part.added', output_index: 0, content_index: 1, part: { type: 'output_text', text: '' } }),
        ev({ type: 'response.output_text.delta', output_index: 0, delta: 'Y', logprobs: lp }),
        ev({ type: 'response.output_text.delta', output_index: 0, delta: '', logprobs: [] }),
        completed,
      ]),
    ).toEqual([
      head,
      { type: 'refusal-start' },
      { type: 'refusal-delta', text: 'N' },
      { type: 'refusal-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'Y' },
      { type: 'logprobs', logprobs: { content: [{ token: 'N', logprob: -1, top: [] }] } },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop', raw: 'completed' } },
    ]);
  });

  it('.done texts: the rest after the deltas, nothing when they disagree or are empty', () => {
    expect(
      run([
        created,
        ev({ type: 'response.output_text.delta', output_index: 0, delta: 'Hel' }),
        ev({ type: 'response.output_text.done', output_index: 0, text: 'Hello' }),
        ev({ type: 'response.output_text.done', output_index: 0, text: 'Other' }),
        ev({ type: 'response.refusal.done', output_index: 0, refusal: '' }),
        ev({ type: 'response.refusal.done', output_index: 0 }),
        ev({ type: 'response.output_text.done', output_index: 0 }),
        completed,
      ]),
    ).toEqual([head, { type: 'text-start' }, { type: 'text-delta', text: 'Hel' }, { type: 'text-delta', text: 'lo' }, { type: 'text-end' }, stop]);
  });

  it('a new item closes the open text and reasoning; a repeated added event changes nothing', () => {
    const msg = { type: 'message', id: 'm', role: 'assistant', content: [] };
    expect(
      run([
        created,
        ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } }),
        ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } }),
        ev({ type: 'response.reasoning_text.delta', output_index: 0, delta: 'raw' }),
        ev({ type: 'response.output_item.added', output_index: 1, item: msg }),
        ev({ type: 'response.output_text.delta', output_index: 1, delta: 'A' }),
        ev({ type: 'response.output_item.added', output_index: 1, item: msg }),
        ev({ type: 'response.output_text.delta', output_index: 1, delta: 'B' }),
        ev({ type: 'response.output_item.added', output_index: 2, item: { type: 'web_search_call', id: 'ws', status: 'in_progress' } }),
        ev({ type: 'response.output_text.delta', output_index: 1, delta: 'C' }),
        ev({ type: 'response.output_item.done', output_index: 2, item: { type: 'web_search_call', id: 'ws', status: 'completed' } }),
        completed,
      ]),
    ).toEqual([
      head,
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'raw' },
      { type: 'reasoning-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'A' },
      { type: 'text-delta', text: 'B' },
      { type: 'text-end' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'C' },
      // The finished web search: one event, whole, when its item is done.
      { type: 'web-search', part: { type: 'web-search', id: 'ws', kind: 'search', results: [], raw: { dialect: 'openai-responses', value: { type: 'web_search_call', id: 'ws', status: 'completed' } } } },
      { type: 'text-end' },
      stop,
    ]);
  });

  it('text events aimed at an item of another kind say nothing: that item still ends properly', () => {
    expect(
      run([
        created,
        ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs' } }),
        ev({ type: 'response.output_text.delta', output_index: 0, delta: 'a' }),
        ev({ type: 'response.output_item.added', output_index: 1, item: { type: 'function_call', call_id: 'c', name: 'f' } }),
        ev({ type: 'response.refusal.delta', output_index: 1, delta: 'b' }),
        ev({ type: 'response.content_part.added', output_index: 1, part: { type: 'output_text', text: '' } }),
        ev({ type: 'response.output_item.added', output_index: 2, item: { type: 'web_search_call', id: 'ws' } }),
        ev({ type: 'response.output_text.done', output_index: 2, text: 'c' }),
        completed,
      ]),
    ).toEqual([
      head,
      { type: 'reasoning-start' },
      { type: 'reasoning-end' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'completed' } },
    ]);
  });

  it('reasoning: summary parts apart by a blank line (not before the first, nor after an empty one); events of no reasoning item ignored', () => {
    const rs = { type: 'reasoning', id: 'rs', summary: [] };
    const part = ev({ type: 'response.reasoning_summary_part.added', output_index: 0, part: { type: 'summary_text', text: '' } });
    expect(
      run([
        created,
        ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'orphan' }),
        ev({ type: 'response.reasoning_summary_part.added', output_index: 0, part: { type: 'summary_text', text: '' } }),
        ev({ type: 'response.reasoning_summary_text.done', output_index: 0, text: 'orphan' }),
        ev({ type: 'response.output_item.added', output_index: 0, item: rs }),
        part,
        part,
        ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'one' }),
        ev({ type: 'response.reasoning_summary_text.done', output_index: 0, text: 'different' }),
        part,
        ev({ type: 'response.reasoning_summary_text.done', output_index: 0, text: 'two' }),
        ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: '' }),
        ev({ type: 'response.output_item.done', output_index: 0, item: { ...rs, summary: [{ type: 'summary_text', text: 'one' }, { type: 'summary_text', text: 'two' }] } }),
        completed,
      ]),
    ).toEqual([
      head,
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'one' },
      { type: 'reasoning-delta', text: '\n\n' },
      { type: 'reasoning-delta', text: 'two' },
      { type: 'reasoning-end' },
      stop,
    ]);
    // Text before the first part event: that part still needs no separator.
    expect(run([created, ev({ type: 'response.output_item.added', output_index: 0, item: rs }), ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'a' }), part, ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'b' })])).toEqual([
      head,
      { type: 'reasoning-start' },
      { type: 'reasoning-delta', text: 'a' },
      { type: 'reasoning-delta', text: 'b' },
    ]);
  });

  it('tool calls: arguments given with the added item, a Gemini signature from the call id, ids and names filled in', () => {
    const signature = { origin: 'gemini' as const, value: 'SIG' };
    expect(
      run([
        created,
        ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: encodeToolCallId('call_1', signature), name: 'f', arguments: '{"a":' } }),
        ev({ type: 'response.function_call_arguments.delta', output_index: 0, delta: '1}' }),
        ev({ type: 'response.function_call_arguments.delta', output_index: 0, delta: '' }),
        ev({ type: 'response.function_call_arguments.delta', output_index: 5, delta: 'lost' }),
        ev({ type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"a":1}' }),
        ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: 'not the same' } }),
        ev({ type: 'response.output_item.added', output_index: 1, item: { type: 'custom_tool_call', id: 'ctc_1', input: 'pre' } }),
        ev({ type: 'response.custom_tool_call_input.delta', output_index: 1, delta: 'fix' }),
        ev({ type: 'response.custom_tool_call_input.done', output_index: 1, input: 'prefix!' }),
        ev({ type: 'response.output_item.added', output_index: 2, item: { type: 'function_call' } }),
        ev({ type: 'response.output_item.done', output_index: 2, item: { type: 'function_call', arguments: '{}' } }),
        ev({ type: 'response.output_item.done', output_index: 1, item: { type: 'custom_tool_call', id: 'ctc_1', input: 'prefix!' } }),
        completed,
      ]),
    ).toEqual([
      head,
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f', signature },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'ctc_1', name: '', custom: true },
      { type: 'tool-call-delta', index: 1, argumentsDelta: 'pre' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: 'fix' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '!' },
      { type: 'tool-call-start', index: 2, id: 'call_test0001', name: '' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 2 },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'completed' } },
    ]);
  });

  it('a done message after its deltas repeats nothing; a done reasoning after its deltas neither', () => {
    expect(
      run([
        created,
        ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } }),
        ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'r' }),
        ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text', text: 'r' }] } }),
        ev({ type: 'response.output_text.delta', output_index: 1, delta: 'Hi' }),
        ev({ type: 'response.output_item.done', output_index: 1, item: { type: 'message', id: 'm', content: [{ type: 'output_text', text: 'Hi' }] } }),
        completed,
      ]),
    ).toEqual([head, { type: 'reasoning-start' }, { type: 'reasoning-delta', text: 'r' }, { type: 'reasoning-end' }, { type: 'text-start' }, { type: 'text-delta', text: 'Hi' }, { type: 'text-end' }, stop]);
    // A done message with no text says nothing; an empty-summary reasoning just ends.
    expect(
      run([
        created,
        ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: 'm', content: [{ type: 'output_audio' }] } }),
        ev({ type: 'response.output_item.done', output_index: 1, item: { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text', text: '' }] } }),
        completed,
      ]),
    ).toEqual([head, { type: 'reasoning-start' }, { type: 'reasoning-end' }, stop]);
  });

  it('the end closes whatever is still open, in order: text, reasoning, tool calls; usage before the finish', () => {
    const events = [
      created,
      ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'c', name: 'f' } }),
      ev({ type: 'response.output_item.added', output_index: 1, item: { type: 'reasoning', id: 'rs' } }),
    ];
    expect(run([...events, ev({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: { input_tokens: 2, output_tokens: 3 } } })])).toEqual([
      head,
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'reasoning-start' },
      { type: 'tool-call-end', index: 0 },
      { type: 'reasoning-end' },
      { type: 'usage', usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 } },
      { type: 'finish', reason: { unified: 'length', raw: 'max_output_tokens' } },
    ]);
    const cut = run([...events, ev({ type: 'response.output_text.delta', output_index: 2, delta: 'x' })], true);
    expect(cut.slice(3).map((e) => e.type)).toEqual(['reasoning-end', 'text-start', 'text-delta', 'tool-call-end', 'text-end', 'error']);
    expect(cut.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', message: expect.stringContaining('no response.completed, response.incomplete or response.failed') } });
  });

  it('finish reasons: a refusal with no text is a refusal, a refusal beside text is a stop; a status the event does not give is the event’s own', () => {
    const refusal = ev({ type: 'response.refusal.delta', output_index: 0, delta: 'No' });
    expect(run([created, refusal, ev({ type: 'response.completed', response: {} })]).at(-1)).toEqual({ type: 'finish', reason: { unified: 'refusal', raw: 'completed' } });
    expect(run([created, refusal, ev({ type: 'response.output_text.delta', output_index: 1, delta: 'but' }), completed]).at(-1)).toEqual(stop);
    expect(run([created, ev({ type: 'response.incomplete', response: { incomplete_details: { reason: 'content_filter' } } })]).at(-1)).toEqual({ type: 'finish', reason: { unified: 'content-filter', raw: 'content_filter' } });
    expect(run([created, ev({ type: 'response.incomplete' })]).at(-1)).toEqual({ type: 'finish', reason: { unified: 'other', raw: 'incomplete' } });
    expect(run([created, ev({ type: 'response.completed', response: { status: 'cancelled' } })]).at(-1)).toEqual({ type: 'finish', reason: { unified: 'other', raw: 'cancelled' } });
  });

  it('after the end, nothing: neither later events nor finish()', () => {
    const dec = new OpenAIResponsesStreamDecoder(req, testContext());
    dec.push(created);
    dec.push(completed);
    expect([...dec.push(ev({ type: 'response.output_text.delta', output_index: 0, delta: 'x' })), ...dec.push({ data: '{bad' }), ...dec.finish()]).toEqual([]);
    const cut = new OpenAIResponsesStreamDecoder(req, testContext());
    cut.push(created);
    expect(cut.finish().map((e) => e.type)).toEqual(['error']);
    expect([...cut.finish(), ...cut.push(completed)]).toEqual([]);
    const errored = new OpenAIResponsesStreamDecoder(req, testContext());
    errored.push(ev({ type: 'error', message: 'boom' }));
    expect([...errored.push(created), ...errored.finish()]).toEqual([]);
  });
});
