import { describe, expect, it } from 'vitest';
import { ToolCallQueue } from './tool-call-queue.ts';

interface Call {
  index: number;
  name: string;
}

/** An encoder of one open block at a time, writing what happens as lines: `open a`, `a+{…}`, `close a`. */
function encoder() {
  let open: { kind: 'text' } | { kind: 'call'; call: Call } | undefined;
  const close = (out: string[]) => {
    if (open) out.push(`close ${open.kind === 'call' ? open.call.name : 'text'}`);
    open = undefined;
  };
  const queue = new ToolCallQueue<Call, string[]>({
    openCall: () => (open?.kind === 'call' ? open.call.index : undefined),
    openBlock: (call, out) => {
      close(out);
      out.push(`open ${call.name}`);
      open = { kind: 'call', call };
    },
    argumentsDelta: (d, out) => out.push(`${(open as { call: Call }).call.name}+${d}`),
    closeBlock: close,
  });
  const text = (out: string[]) => {
    if (open?.kind !== 'text') {
      close(out);
      out.push('open text');
      open = { kind: 'text' };
    }
  };
  return { queue, text, close };
}

const a: Call = { index: 0, name: 'a' };
const b: Call = { index: 1, name: 'b' };
const c: Call = { index: 2, name: 'c' };

describe('ToolCallQueue', () => {
  it('calls one after the other pass straight through', () => {
    const { queue } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.delta(0, '{"x":', out);
    queue.delta(0, '1}', out);
    expect(queue.end(0, out)).toBe(true);
    queue.start(b, out);
    queue.end(1, out);
    expect(out).toEqual(['open a', 'a+{"x":', 'a+1}', 'close a', 'open b', 'close b']);
    expect(queue.idle).toBe(true);
  });

  it('a call that starts while another is open waits with its fragments, and follows when that one ends', () => {
    const { queue } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.start(b, out);
    queue.delta(1, 'B1', out);
    queue.delta(0, 'A1', out);
    queue.delta(1, 'B2', out);
    expect(queue.idle).toBe(false);
    expect(out).toEqual(['open a', 'a+A1']);
    expect(queue.end(0, out)).toBe(true);
    expect(out).toEqual(['open a', 'a+A1', 'close a', 'open b', 'b+B1', 'b+B2']);
    expect(queue.idle).toBe(false);
    queue.delta(1, 'B3', out);
    queue.end(1, out);
    expect(out.slice(6)).toEqual(['b+B3', 'close b']);
    expect(queue.idle).toBe(true);
  });

  it('a waiting call that already ended is written and closed at once, and the next one opens after it', () => {
    const { queue } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.start(b, out);
    queue.start(c, out);
    queue.delta(1, 'B', out);
    expect(queue.end(1, out)).toBe(false);
    queue.delta(2, 'C', out);
    queue.end(0, out);
    expect(out).toEqual(['open a', 'close a', 'open b', 'b+B', 'close b', 'open c', 'c+C']);
  });

  it('flush(false) opens the next waiting call without closing it; flush(true) closes every one', () => {
    const { queue, close } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.start(b, out);
    queue.start(c, out);
    close(out); // something else closed a's block
    queue.flush(false, out);
    expect(out).toEqual(['open a', 'close a', 'open b']);
    queue.flush(false, out);
    expect(out).toHaveLength(3);
    close(out);
    queue.flush(true, out);
    expect(out.slice(3)).toEqual(['close b', 'open c', 'close c']);
    expect(queue.idle).toBe(true);
  });

  it('flush(true) writes the waiting calls once the open one is closed, not before', () => {
    const { queue, close } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.start(b, out);
    queue.flush(true, out);
    expect(out).toEqual(['open a']);
    close(out);
    queue.flush(true, out);
    expect(out).toEqual(['open a', 'close a', 'open b', 'close b']);
  });

  it('a call starting while another kind of block is open opens at once (closing that block)', () => {
    const { queue, text } = encoder();
    const out: string[] = [];
    text(out);
    expect(queue.idle).toBe(true);
    queue.start(a, out);
    expect(out).toEqual(['open text', 'close text', 'open a']);
  });

  it('empty fragments are never written, open or waiting', () => {
    const { queue } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.delta(0, '', out);
    queue.start(b, out);
    queue.delta(1, '', out);
    queue.delta(1, 'x', out);
    queue.end(0, out);
    expect(out).toEqual(['open a', 'close a', 'open b', 'b+x']);
  });

  it('fragments and ends of an unknown index, or of a closed call, change nothing', () => {
    const { queue, text } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.end(0, out);
    text(out);
    queue.delta(0, 'late', out);
    queue.delta(7, 'stray', out);
    expect(queue.end(0, out)).toBe(false);
    expect(queue.end(7, out)).toBe(false);
    expect(out).toEqual(['open a', 'close a', 'open text']);
    expect(queue.idle).toBe(true);
  });

  it('a repeated start for an index already written is not written again', () => {
    const { queue } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    queue.start({ index: 0, name: 'again' }, out);
    queue.end(0, out);
    queue.start({ index: 0, name: 'later' }, out);
    queue.start(b, out);
    expect(out).toEqual(['open a', 'close a', 'open b']);
  });

  it('idle: false while a call is open or one waits', () => {
    const { queue, close } = encoder();
    const out: string[] = [];
    queue.start(a, out);
    expect(queue.idle).toBe(false);
    queue.start(b, out);
    close(out);
    expect(queue.idle).toBe(false); // b still waits
    queue.flush(true, out);
    expect(queue.idle).toBe(true);
  });
});
