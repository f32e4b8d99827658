/** A text block held until its citations are known (a hosted web tool on the request). */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/canonical/index.ts';
import { HeldText } from './citations-stream.ts';

const ev = (type: StreamEvent['type']) => ({ type }) as StreamEvent;

describe('HeldText', () => {
  it('nothing held: released by nothing, a citation not kept, nothing to take', () => {
    const h = new HeldText(true);
    expect(h.holds).toBe(true);
    expect(new HeldText(false).holds).toBe(false);
    expect(h.releasedBy(ev('tool-call-start'))).toBe(false);
    expect(h.cite({ url: 'https://a' })).toBe(false);
    expect(h.take()).toEqual([]);
  });

  it('held text waits through its own deltas, citations, usage, logprobs, message-start and text-end; anything else releases it', () => {
    const h = new HeldText(true);
    h.add('');
    for (const t of ['text-delta', 'citation', 'usage', 'logprobs', 'message-start', 'text-end'] as const) expect(h.releasedBy(ev(t))).toBe(false);
    for (const t of ['text-start', 'reasoning-delta', 'tool-call-start', 'web-search', 'finish', 'error', 'refusal-delta'] as const) expect(h.releasedBy(ev(t))).toBe(true);
  });

  it('taken once: the text joined, cut at the cited stretch; empty stretches left out; then nothing', () => {
    const h = new HeldText(true);
    h.add('ab');
    h.add('cd');
    expect(h.cite({ url: 'https://a', span: { start: 2, end: 4 } })).toBe(true);
    const blocks = h.take();
    expect(blocks.map((b) => [b.text, b.citations?.length ?? 0])).toEqual([
      ['ab', 0],
      ['cd', 1],
    ]);
    expect(h.take()).toEqual([]);
    expect(h.releasedBy(ev('finish'))).toBe(false);
    h.add('x');
    expect(h.take()).toEqual([{ type: 'text', text: 'x', citations: null }]);
  });

  it('an empty held block gives no block', () => {
    const h = new HeldText(true);
    h.add('');
    expect(h.take()).toEqual([]);
  });
});
