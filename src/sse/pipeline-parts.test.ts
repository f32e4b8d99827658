import { describe, expect, it } from 'vitest';
import type { StreamFrame } from '../canonical/index.ts';
import { RequestScope } from '../observe/scope.ts';
import { FrameSplitter, HeldFrames, nextFrameEnd, StreamTrace } from './pipeline-parts.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const f = (data: string): StreamFrame => ({ data });

describe('nextFrameEnd', () => {
  it('is the offset just past a blank line (LF LF or LF CR LF), 0 when there is none', () => {
    expect(nextFrameEnd(enc.encode('data: a\n\ndata: b\n\n'), 0)).toBe(9);
    expect(nextFrameEnd(enc.encode('data: a\n\ndata: b\n\n'), 9)).toBe(18);
    expect(nextFrameEnd(enc.encode('data: a\n\r\nx'), 0)).toBe(10);
    expect(nextFrameEnd(enc.encode('data: a\ndata: b\n'), 0)).toBe(0);
    expect(nextFrameEnd(enc.encode('data: a\n\r'), 0)).toBe(0);
  });
});

describe('FrameSplitter', () => {
  it('keeps an unfinished frame for the next chunk, and completes it at the end', () => {
    const s = new FrameSplitter();
    const first = s.join(enc.encode('data: a\n\ndata: b'));
    expect(s.keep(first, 9)).toBe(7);
    const second = s.join(enc.encode('c\n'));
    expect(dec.decode(second)).toBe('data: bc\n');
    expect(s.keep(second, 0)).toBe(9);
    expect(dec.decode(s.completeLast())).toBe('data: bc\n\n\n');
    expect(s.completeLast()).toBeUndefined();
    expect(s.keep(enc.encode('x\n\n'), 3)).toBe(0);
    expect(s.completeLast()).toBeUndefined();
  });
});

describe('HeldFrames (the terminal hold)', () => {
  it('lets frames out up to the one carrying the answer, holds it and all after, and keeps the answer', async () => {
    const kept: unknown[] = [];
    let release!: () => void;
    const ready = new Promise<void>((r) => (release = r));
    const h = new HeldFrames({ answerOf: (x) => (x.data === 'END' ? { answer: 1 } : undefined), keep: (a) => (kept.push(a), ready) }, () => undefined);
    expect(h.taken()).toBeUndefined();
    expect(h.pass([f('a'), f('b')])).toEqual([f('a'), f('b')]);
    expect(h.pass([f('c'), f('END'), f('after')])).toEqual([f('c')]);
    expect(h.pass([f('later')])).toEqual([]);
    expect(kept).toEqual([{ answer: 1 }]);
    const held = h.taken()!;
    expect(held.frames).toEqual([f('END'), f('after'), f('later')]);
    release();
    await expect(held.ready).resolves.toBeUndefined();
  });

  it("keeps the encoder's fuller answer when it has one", () => {
    const kept: unknown[] = [];
    const h = new HeldFrames({ answerOf: (x) => (x.data === 'END' ? 'shown' : undefined), keep: async (a) => void kept.push(a) }, () => 'kept');
    h.pass([f('END')]);
    expect(kept).toEqual(['kept']);
  });
});

describe('StreamTrace', () => {
  it('is made only when the scope dumps, and dumps both sides with their times', () => {
    const scope = new RequestScope('/test', 'req_1', () => 42);
    expect(StreamTrace.of(scope)).toBeUndefined();
    const dumps: Array<[string, unknown, readonly number[] | undefined]> = [];
    scope.dump = (stage, data, times) => dumps.push([stage, data, times]);
    const t = StreamTrace.of(scope)!;
    t.received({ event: 'x', data: '{"a":1}' });
    t.sent([f('one'), { event: 'e', data: '2' }]);
    t.flush(false);
    expect(dumps).toEqual([
      ['upstream events', [{ event: 'x', data: { a: 1 } }], [42]],
      ['caller frames', ['one', { event: 'e', data: 2 }], [42, 42]],
    ]);
    const quiet = StreamTrace.of(scope)!;
    dumps.length = 0;
    quiet.flush(true);
    expect(dumps.map((d) => d[0])).toEqual(['upstream events']);
    const added = StreamTrace.of(scope)!;
    added.sent([f('x')]);
    dumps.length = 0;
    added.flush(true);
    expect(dumps.map((d) => d[0])).toEqual(['upstream events', 'caller frames (added to the forwarded stream)']);
  });
});
