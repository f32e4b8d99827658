/**
 * When frames leave the encoder, not only which: a caller streaming a tool call or text sees each
 * block close as soon as it ends and the next one stream live, not held back until the end.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { createStreamEncoder } from './stream-encoder.ts';

const req: ChatRequest = { model: 'claude-x', system: [], messages: [], stream: true };
/** The frames each push produces, as `type:index` strings. */
function perPush(events: StreamEvent[]): string[][] {
  const enc = createStreamEncoder(req, testContext());
  return events.map((e) =>
    enc.push(e).map((f) => {
      const d = JSON.parse(f.data) as { type: string; index?: number };
      return d.index === undefined ? d.type : `${d.type}:${d.index}`;
    }),
  );
}

describe('anthropic stream encoder: frames go out as events arrive', () => {
  it('a tool call closes at its end; the next call streams live', () => {
    expect(
      perPush([
        { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
        { type: 'tool-call-end', index: 0 },
        { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
        { type: 'tool-call-delta', index: 1, argumentsDelta: '{"x":1}' },
        { type: 'tool-call-end', index: 1 },
      ]),
    ).toEqual([
      ['message_start', 'content_block_start:0'],
      ['content_block_delta:0'],
      ['content_block_stop:0'],
      ['content_block_start:1'],
      ['content_block_delta:1'],
      ['content_block_stop:1'],
    ]);
  });

  it('an overlapping call waits, then comes out whole (with its end) when the open one ends', () => {
    expect(
      perPush([
        { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
        { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
        { type: 'tool-call-delta', index: 1, argumentsDelta: '{"y":2}' },
        { type: 'tool-call-end', index: 1 },
        { type: 'tool-call-end', index: 0 },
      ]),
    ).toEqual([
      ['message_start', 'content_block_start:0'],
      [],
      [],
      [],
      ['content_block_stop:0', 'content_block_start:1', 'content_block_delta:1', 'content_block_stop:1'],
    ]);
  });

  it('text, refusal and thinking blocks close at their end event', () => {
    expect(
      perPush([
        { type: 'text-start' },
        { type: 'text-delta', text: 'a' },
        { type: 'text-end' },
        { type: 'refusal-start' },
        { type: 'refusal-delta', text: 'no' },
        { type: 'refusal-end' },
        { type: 'reasoning-start' },
        { type: 'reasoning-delta', text: 'r' },
        { type: 'reasoning-end' },
        { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      ]),
    ).toEqual([
      [],
      ['message_start', 'content_block_start:0', 'content_block_delta:0'],
      ['content_block_stop:0'],
      [],
      ['content_block_start:1', 'content_block_delta:1'],
      ['content_block_stop:1'],
      [],
      ['content_block_start:2', 'content_block_delta:2'],
      ['content_block_stop:2'],
      ['content_block_start:3'],
    ]);
  });

  it('a text-end does not close a thinking block; a tool call started while text is open closes the text', () => {
    expect(
      perPush([
        { type: 'reasoning-delta', text: 'r' },
        { type: 'text-end' },
        { type: 'refusal-end' },
        { type: 'text-delta', text: 't' },
        { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      ]),
    ).toEqual([
      ['message_start', 'content_block_start:0', 'content_block_delta:0'],
      [],
      [],
      ['content_block_stop:0', 'content_block_start:1', 'content_block_delta:1'],
      ['content_block_stop:1', 'content_block_start:2'],
    ]);
  });
});
