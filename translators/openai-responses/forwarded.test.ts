/**
 * Same-dialect passthrough: the caller reads the upstream's own Responses frames, and an error
 * ending must continue that stream (same Response, its done items, the next sequence numbers).
 */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type SseEvent } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { readForwarded } from './forwarded.ts';
import { OpenAIResponsesStreamEncoder } from './stream-encoder.ts';

type Data = Record<string, any>;

const req: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true };

describe('readForwarded: what is read of a forwarded frame', () => {
  it.each([
    ['{"type":"x","sequence_number": 12}', { type: 'x', sequenceNumber: 12 }],
    ['{"type":"x","sequence_number":0}', { type: 'x', sequenceNumber: 0 }],
    ['{"type":"x","sequence_number":9}', { type: 'x', sequenceNumber: 9 }],
    ['{"type":"x","sequence_number":  907,"a":1}', { type: 'x', sequenceNumber: 907 }],
    ['{"type":"x","sequence_number":"3"}', { type: 'x' }],
    ['{"type":"x","sequence_number":null}', { type: 'x' }],
    ['{"type":"x"}', { type: 'x' }],
    [' { "type" : "y" }', { type: 'y' }],
    // Only a leading type is read without parsing.
    ['{"a":1,"type":"z"}', {}],
    ['{"type":"response.created","response":{"id":"r"}}', { type: 'response.created', response: { id: 'r' } }],
    ['{"type":"response.created","response":{"id":5}}', { type: 'response.created' }],
    ['{"type":"response.created","response":"r"}', { type: 'response.created' }],
    ['{"type":"response.created","response":null}', { type: 'response.created' }],
    // A sequence number at the very start of the data is still read.
    ['"sequence_number":5', { sequenceNumber: 5 }],
    ['{"type":"response.output_item.done","output_index":2,"item":{"id":"i"}}', { type: 'response.output_item.done', item: { at: 2, item: { id: 'i' } } }],
    ['{"type":"response.output_item.done","output_index":"1","item":{}}', { type: 'response.output_item.done' }],
    ['{"type":"response.output_item.done","output_index":2,"item":null}', { type: 'response.output_item.done' }],
    ['{"type":"response.output_item.done","output_index":2,"item":"i"}', { type: 'response.output_item.done' }],
    ['{"type":"response.output_item.done",', { type: 'response.output_item.done' }],
    ['nope', {}],
    ['{"type":"x","n":1234567}', { type: 'x' }],
    ['{"a":{"type":"z"}}', {}],
    ['{"type":"response.created"}', { type: 'response.created' }],
    ['{"type":"response.in_progress","output_index":1,"item":{"id":"i"}}', { type: 'response.in_progress' }],
    ['[1]', {}],
  ] as const)('%s', (data, expected) => {
    expect(readForwarded({ data })).toEqual(expected);
  });

  it('a created frame that is no JSON gives no Response', () => {
    expect(readForwarded({ event: 'response.created', data: '{bad' })).toEqual({ type: 'response.created' });
  });

  it('the event line names the type before the JSON does', () => {
    expect(readForwarded({ event: 'response.created', data: '{"type":"other","response":{"id":"r1"}}' })).toEqual({ type: 'response.created', response: { id: 'r1' } });
    expect(readForwarded({ event: 'response.in_progress', data: '{"type":"response.created","response":{"id":"r1"}}' })).toEqual({ type: 'response.in_progress' });
  });
});

describe('an error ending continues the forwarded stream', () => {
  function failAfter(frames: SseEvent[]) {
    const enc = new OpenAIResponsesStreamEncoder(req, testContext());
    for (const f of frames) enc.forwarded(f);
    const out = enc.push({ type: 'error', error: new ProxyError('upstream', 'boom') }).map((f) => ({ event: f.event, data: JSON.parse(f.data) as Data }));
    expect(enc.finish()).toEqual([]);
    return out;
  }

  it.each(['stream-reasoning-encrypted-function-call.sse', 'stream-parallel-function-calls.sse'])('%s, cut after its first done item', (file) => {
    const frames = fixtureSse('openai-responses', file);
    const cut = frames.findIndex((f) => f.event === 'response.output_item.done') + 1;
    const forwarded = frames.slice(0, cut).map((f) => JSON.parse(f.data) as Data);
    const out = failAfter(frames.slice(0, cut));
    expect(out.map((f) => f.event)).toEqual(['error', 'response.failed']);
    // The next sequence numbers: after the last one seen, or counting frames where the host sends none.
    const last = forwarded.at(-1)!['sequence_number'] as number | undefined;
    const next = last === undefined ? cut : last + 1;
    expect(out.map((f) => f.data['sequence_number'])).toEqual([next, next + 1]);
    const created = forwarded[0]!['response'] as Data;
    const failed = out[1]!.data['response'] as Data;
    expect(failed).toMatchObject({ id: created['id'], model: created['model'], created_at: created['created_at'], status: 'failed', error: { code: 'server_error', message: 'boom' } });
    expect(failed['output']).toEqual(forwarded.filter((f) => f['type'] === 'response.output_item.done').map((f) => f['item']));
  });

  it('the failed Response is the upstream’s own, only its status, error and output replaced', () => {
    const out = failAfter([{ event: 'response.created', data: '{"type":"response.created","sequence_number":0,"response":{"id":"resp_x","status":"in_progress","x_host":1}}' }]);
    expect(out[1]!.data['response']).toEqual({ id: 'resp_x', status: 'failed', x_host: 1, error: { code: 'server_error', message: 'boom' }, incomplete_details: null, output: [] });
    expect(out[0]!.data['sequence_number']).toBe(1);
  });

  it.each(['response.completed', 'response.incomplete', 'response.failed'])('after the upstream’s own %s nothing more is written', (type) => {
    const enc = new OpenAIResponsesStreamEncoder(req, testContext());
    enc.forwarded({ event: 'response.created', data: '{"type":"response.created","response":{"id":"resp_x"}}' });
    enc.forwarded({ event: type, data: `{"type":"${type}","response":{"id":"resp_x"}}` });
    expect(enc.push({ type: 'error', error: new ProxyError('upstream', 'boom') })).toEqual([]);
    expect(enc.finish()).toEqual([]);
  });

  it('a second response.created does not replace the first', () => {
    const out = failAfter([
      { event: 'response.created', data: '{"type":"response.created","response":{"id":"resp_1","model":"m1"}}' },
      { event: 'response.created', data: '{"type":"response.created","response":{"id":"resp_2","model":"m2"}}' },
    ]);
    expect(out[1]!.data['response']).toMatchObject({ id: 'resp_1', model: 'm1' });
  });
});
