import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../canonical/index.ts';
import { AnthropicStreamDecoder } from '../../../translators/anthropic/stream-decoder.ts';
import { concatBytes, chunkFrame, encodeFrame, exceptionFrame } from '../../../test/support/aws.ts';
import { testContext } from '../../../test/support/fixtures.ts';
import { createBedrockStreamParser } from './bedrock-stream.ts';

const START = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } } };
const EVENTS = [
  START,
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Héllo ✓' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
  { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 3, outputTokenCount: 5, invocationLatency: 100, firstByteLatency: 50 } },
];
const STREAM = concatBytes(EVENTS.map(chunkFrame));

function parseAll(chunks: Uint8Array[], max = 1 << 20) {
  const parser = createBedrockStreamParser(max);
  const events: SseEvent[] = chunks.flatMap((c) => parser.push(c));
  events.push(...parser.finish());
  return { events, parser };
}

/** What the anthropic decoder makes of them (what the pipeline would do). */
function decoded(events: SseEvent[]) {
  const d = new AnthropicStreamDecoder({ model: 'm', system: [], messages: [], stream: true }, testContext());
  return [...events.flatMap((e) => d.push(e)), ...d.finish()];
}

// The parser contract (any split, frames over the limit, cut bodies) is test/conformance/stream-parsers.test.ts.
describe('Bedrock stream parser: event stream → Anthropic SSE events', () => {
  it('chunk events become the Anthropic events they carry, named by type', () => {
    const { events, parser } = parseAll([STREAM]);
    expect(events.map((e) => e.event)).toEqual(EVENTS.map((e) => e.type));
    expect(events.map((e) => JSON.parse(e.data))).toEqual(EVENTS);
    expect(parser.eventCount).toBe(6);
    expect(parser.sawBytes).toBe(true);
    expect(parser.error).toBeUndefined();
    const out = decoded(events);
    expect(out.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('')).toBe('Héllo ✓');
    expect(out.some((e) => e.type === 'error')).toBe(false);
  });

  it.each([
    ['throttlingException', 'rate_limit_error', 'rate-limit'],
    ['modelStreamErrorException', 'api_error', 'upstream'],
    ['validationException', 'invalid_request_error', 'invalid-request'],
    ['internalServerException', 'api_error', 'upstream'],
    ['serviceUnavailableException', 'overloaded_error', 'overloaded'],
    ['modelTimeoutException', 'timeout_error', 'timeout'],
  ])('exception %s → event: error (%s) → %s', (type, anthropicType, kind) => {
    const { events } = parseAll([concatBytes([chunkFrame(START), exceptionFrame(type, 'It went wrong.')])]);
    expect(events[1]).toEqual({ event: 'error', data: JSON.stringify({ type: 'error', error: { type: anthropicType, message: 'It went wrong.' } }) });
    const err = decoded(events).find((e) => e.type === 'error');
    expect(err).toMatchObject({ error: { kind, message: 'It went wrong.' } });
  });

  it('an event-stream `error` message (:error-code, :error-message) is an error event too', () => {
    const frame = encodeFrame({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'boom' }, '');
    expect(parseAll([frame]).events).toEqual([{ event: 'error', data: '{"type":"error","error":{"type":"api_error","message":"boom"}}' }]);
  });

  it.each([
    ['prelude', 8],
    ['message', -10],
  ])('a bad %s checksum → one error event, then nothing more is read', (_what, offset) => {
    const second = chunkFrame(EVENTS[1]);
    const bad = second.slice();
    const at = offset < 0 ? bad.length + offset : offset;
    bad[at] = bad[at]! ^ 0xff;
    const stream = concatBytes([chunkFrame(START), bad, chunkFrame(EVENTS[2])]);
    for (const split of [0, 20, stream.length - 3]) {
      const { events } = parseAll([stream.subarray(0, split), stream.subarray(split)]);
      expect(events.map((e) => e.event)).toEqual(['message_start', 'error']);
      expect(JSON.parse(events[1]!.data).error.message).toMatch(new RegExp(`corrupt: ${_what} checksum mismatch`));
      expect(decoded(events).at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream' } });
    }
  });

  it('unknown event types are skipped; a chunk without base64 JSON bytes is an error event', () => {
    const other = encodeFrame({ ':message-type': 'event', ':event-type': 'somethingNew' }, '{}');
    const badChunk = encodeFrame({ ':message-type': 'event', ':event-type': 'chunk' }, '{"bytes":"%%%"}');
    const { events, parser } = parseAll([other, badChunk]);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe('error');
    expect(parser.eventCount).toBe(1);
    expect(parseAll([other]).parser.eventCount).toBe(0);
  });
});
