/** The Anthropic stream encoder's frames for canonical events, and each frame in short, for its tests. */
import { expect } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../src/canonical/index.ts';
import { createStreamEncoder } from '../../translators/anthropic/stream-encoder.ts';
import { testContext } from './fixtures.ts';

/** The frames' data, each checked to name its own event. */
export function encodeAnthropicStream(req: ChatRequest, events: StreamEvent[]): Array<Record<string, any>> {
  const enc = createStreamEncoder(req, testContext());
  const frames = [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
  for (const f of frames) expect(JSON.parse(f.data).type).toBe(f.event);
  return frames.map((f) => JSON.parse(f.data) as Record<string, any>);
}

/** Each frame in short: `start0:text`, `delta0:text_delta:Hi`, `stop0`… (a citation delta by its url). */
export const shortFrames = (data: Array<Record<string, any>>) =>
  data.map((d) => {
    if (d.type === 'content_block_start') return `start${d.index}:${d.content_block.type}`;
    if (d.type === 'content_block_delta') return `delta${d.index}:${d.delta.type}:${d.delta.text ?? d.delta.partial_json ?? d.delta.citation?.url ?? ''}`;
    if (d.type === 'content_block_stop') return `stop${d.index}`;
    return d.type;
  });
