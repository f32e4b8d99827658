import { describe, expect, it } from 'vitest';
import { ByteParts, peekJson } from '../../kit/index.ts';
import { CHECKPOINT_EVERY, ScanMemo } from './scan-memo.ts';

/** An agent's body as Node reads it: a Buffer (a socket read), so the native compare applies. */
const agentBody = (turns: number, o: { model?: string; tail?: Record<string, unknown>; system?: string } = {}) => {
  const messages = Array.from({ length: turns }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: ${'lorem ipsum '.repeat(40)}` }));
  return Buffer.from(JSON.stringify({ model: o.model ?? 'm', system: o.system ?? 'be brief', messages, ...o.tail }));
};

describe('ScanMemo: the next turn is scanned from where the last one shares its bytes', () => {
  it('resumes the next turn past the bytes the last turn had, with the answer a whole scan gives', () => {
    const memo = new ScanMemo();
    const first = agentBody(100);
    const a = memo.peek('d', first);
    expect(a.resumedAt).toBe(0);
    expect(a.top).toEqual(peekJson(first));
    memo.keep('d', first, a);
    // The agent's next turn: two more turns, and a field after the conversation.
    const next = agentBody(102, { tail: { stream: true } });
    const b = memo.peek('d', next);
    expect(b.resumedAt).toBeGreaterThan(first.length - CHECKPOINT_EVERY - 1000);
    expect(b.top).toEqual(peekJson(next));
    expect(b.top!.stream).toBe(true);
  });

  it('a body that differs early resumes from before the difference, or not at all', () => {
    const memo = new ScanMemo();
    const first = agentBody(100);
    memo.keep('d', first, memo.peek('d', first));
    // One byte changed in the middle of the conversation.
    const edited = Buffer.from(first);
    const mid = first.length >> 1;
    edited[mid] = edited[mid] === 0x61 ? 0x62 : 0x61;
    const b = memo.peek('d', edited);
    expect(b.resumedAt).toBeGreaterThan(0);
    expect(b.resumedAt).toBeLessThanOrEqual(mid);
    expect(b.top).toEqual(peekJson(edited));
    // Another system prompt: nothing shared past the first bytes.
    const other = agentBody(100, { system: 'be verbose' });
    const c = memo.peek('d', other);
    expect(c.resumedAt).toBe(0);
    expect(c.top).toEqual(peekJson(other));
  });

  it('never resumes across scopes (another dialect or another caller credential)', () => {
    const memo = new ScanMemo();
    const first = agentBody(100);
    memo.keep('openai-chat\nkey-a', first, memo.peek('openai-chat\nkey-a', first));
    expect(memo.peek('openai-chat\nkey-b', agentBody(101)).resumedAt).toBe(0);
    expect(memo.peek('anthropic\nkey-a', agentBody(101)).resumedAt).toBe(0);
    expect(memo.peek('openai-chat\nkey-a', agentBody(101)).resumedAt).toBeGreaterThan(0);
  });

  it('compares a body that came in pieces, piece by piece, against the next one', () => {
    const memo = new ScanMemo();
    const first = agentBody(100);
    const pieces = new ByteParts([first.subarray(0, 5000), first.subarray(5000, 5001), first.subarray(5001, 20000), first.subarray(20000)]);
    memo.keep('d', pieces, memo.peek('d', first));
    const next = agentBody(101);
    const b = memo.peek('d', next);
    expect(b.resumedAt).toBeGreaterThan(20000);
    expect(b.top).toEqual(peekJson(next));
    // A difference in the one-byte piece, within the first checkpoint's span: resumed from nothing.
    const early = Buffer.from(next);
    early[5000] = early[5000] === 0x61 ? 0x62 : 0x61;
    expect(memo.peek('d', early).resumedAt).toBe(0);
    // A difference inside a piece that is not the first: resumed before it.
    const edited = Buffer.from(next);
    edited[12000] = edited[12000]! ^ 1;
    const c = memo.peek('d', edited);
    expect(c.resumedAt).toBeGreaterThan(0);
    expect(c.resumedAt).toBeLessThanOrEqual(12000);
  });

  it('a turn kept replaces the one it resumed from; entries are bounded', () => {
    const memo = new ScanMemo();
    let body = agentBody(60);
    memo.keep('d', body, memo.peek('d', body));
    for (let t = 61; t < 70; t++) {
      body = agentBody(t);
      memo.keep('d', body, memo.peek('d', body));
    }
    expect(memo.size).toBe(1);
    for (let k = 0; k < 40; k++) {
      const other = agentBody(30, { system: `agent ${k}` });
      memo.keep('d', other, memo.peek('d', other));
    }
    expect(memo.size).toBe(32);
  });

  it('a shorter body than the one kept (a conversation cut short) resumes from a checkpoint it still has', () => {
    const memo = new ScanMemo();
    const long = agentBody(100);
    memo.keep('d', long, memo.peek('d', long));
    const short = agentBody(50);
    const b = memo.peek('d', short);
    expect(b.resumedAt).toBeGreaterThan(0);
    expect(b.resumedAt).toBeLessThan(short.length);
    expect(b.top).toEqual(peekJson(short));
  });

  it('two turns resumed from the same body at once (concurrent requests) are both kept, and nothing else is dropped', () => {
    const memo = new ScanMemo();
    const other = agentBody(40, { system: 'other' });
    memo.keep('d', other, memo.peek('d', other));
    const first = agentBody(100);
    memo.keep('d', first, memo.peek('d', first));
    const a = agentBody(101);
    const b = agentBody(102);
    const scanA = memo.peek('d', a);
    const scanB = memo.peek('d', b);
    memo.keep('d', a, scanA);
    memo.keep('d', b, scanB);
    expect(memo.size).toBe(3);
    expect(memo.peek('d', agentBody(40, { system: 'other' })).resumedAt).toBeGreaterThan(0);
  });

  it('keeps nothing for a body too small to leave a checkpoint', () => {
    const memo = new ScanMemo();
    const small = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    memo.keep('d', small, memo.peek('d', small));
    expect(memo.size).toBe(0);
  });

  it('without a native compare (Workers) scans whole and keeps nothing', () => {
    const memo = new ScanMemo();
    const saved = Buffer.prototype.compare;
    try {
      // As where Buffer is not (Workers).
      (Buffer.prototype as { compare?: unknown }).compare = undefined;
      const body = agentBody(100);
      const a = memo.peek('d', body);
      expect(a.top).toEqual(peekJson(body));
      memo.keep('d', body, a);
      expect(memo.size).toBe(0);
    } finally {
      Buffer.prototype.compare = saved;
    }
  });
});

describe('ScanMemo: bounded work', () => {
  it('compares against the latest eight bodies of the scope at most', () => {
    const memo = new ScanMemo();
    const mine = agentBody(100, { system: 'mine' });
    memo.keep('d', mine, memo.peek('d', mine));
    // Eight other sessions since, of the same scope: the first body is no longer tried.
    for (let k = 0; k < 8; k++) {
      const other = agentBody(30, { system: `other ${k}` });
      memo.keep('d', other, memo.peek('d', other));
    }
    expect(memo.peek('d', agentBody(101, { system: 'mine' })).resumedAt).toBe(0);
    // Seven since: still found. (Other scopes do not count.)
    const memo2 = new ScanMemo();
    memo2.keep('d', mine, memo2.peek('d', mine));
    for (let k = 0; k < 7; k++) {
      const other = agentBody(30, { system: `other ${k}` });
      memo2.keep('d', other, memo2.peek('d', other));
      memo2.keep('e', other, memo2.peek('e', other));
    }
    expect(memo2.peek('d', agentBody(101, { system: 'mine' })).resumedAt).toBeGreaterThan(0);
  });
});

describe('ScanMemo: bounded memory', () => {
  it('holds at most 16 MiB of bodies, counted by the buffers their pieces keep alive; the oldest go first', () => {
    const memo = new ScanMemo();
    const big = (k: number) => Buffer.from(JSON.stringify({ model: 'm', system: `agent ${k}`, messages: Array.from({ length: 450 }, (_, i) => ({ role: 'user', content: `${i} ${'y'.repeat(5000)}` })) }));
    const first = big(0);
    expect(first.byteLength).toBeGreaterThan(2_000_000);
    memo.keep('d', first, memo.peek('d', first));
    for (let k = 1; k < 9; k++) {
      const b = big(k);
      memo.keep('d', b, memo.peek('d', b));
    }
    expect(memo.size).toBe(7); // 7 × 2.25 MB under 16 MiB, 8 over
    expect(memo.peek('d', first).resumedAt).toBe(0); // the first one went
    // Pieces of one buffer count it once.
    const memo3 = new ScanMemo();
    const whole = Buffer.alloc(6 * 1024 * 1024, 0x20);
    const json = agentBody(100);
    json.copy(whole);
    const parts = new ByteParts([whole.subarray(0, 1000), whole.subarray(1000, 3000), whole.subarray(3000, json.length)]);
    memo3.keep('d', parts, memo3.peek('d', json));
    expect(memo3.size).toBe(1);
    // A small view of a big buffer holds the whole buffer.
    const view = Buffer.alloc(17 * 1024 * 1024);
    const body = agentBody(100);
    body.copy(view);
    const inView = view.subarray(0, body.byteLength);
    const before = memo.size;
    memo.keep('e', inView, memo.peek('e', inView));
    expect(memo.size).toBe(before);
  });
});
