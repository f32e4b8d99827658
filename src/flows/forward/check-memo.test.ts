import { describe, expect, it, vi } from 'vitest';
import { peekJson } from '../../kit/index.ts';
import { CheckMemo } from './check.ts';

const enc = new TextEncoder();
const body = (fields: Record<string, unknown>) => {
  const bytes = enc.encode(JSON.stringify(fields));
  return { bytes, top: peekJson(bytes)! };
};
const turn = (messages: unknown[], extra: Record<string, unknown> = {}) => body({ model: 'm', system: 'be brief', tools: [{ name: 'read' }], messages, ...extra });

describe('CheckMemo: a request whose parameters passed before is not checked again', () => {
  it('the next turn (only the conversation grew) passes without running the check', () => {
    const memo = new CheckMemo();
    const check = vi.fn(() => true);
    const a = turn([{ role: 'user', content: 'hi' }]);
    const b = turn([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }]);
    expect(memo.passes('d', a.bytes, a.top, 'messages', check)).toBe(true);
    expect(memo.passes('d', b.bytes, b.top, 'messages', check)).toBe(true);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('any other field changed, by one byte, is checked again', () => {
    const memo = new CheckMemo();
    const check = vi.fn(() => true);
    const a = turn([], { temperature: 0.5 });
    memo.passes('d', a.bytes, a.top, 'messages', check);
    for (const other of [turn([], { temperature: 0.6 }), turn([], { temperature: 0.5, top_k: 1 }), turn([]), body({ model: 'n', system: 'be brief', tools: [{ name: 'read' }], messages: [], temperature: 0.5 })]) {
      memo.passes('d', other.bytes, other.top, 'messages', check);
    }
    expect(check).toHaveBeenCalledTimes(5);
  });

  it('the same fields in another order, or another conversation field, are checked again', () => {
    const memo = new CheckMemo();
    const check = vi.fn(() => true);
    const a = body({ model: 'm', a: 1, b: 2, messages: [] });
    memo.passes('d', a.bytes, a.top, 'messages', check);
    const swapped = body({ model: 'm', b: 2, a: 1, messages: [] });
    memo.passes('d', swapped.bytes, swapped.top, 'messages', check);
    memo.passes('d', a.bytes, a.top, 'input', check);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('what else the check reads (its scope) is part of what is remembered', () => {
    const memo = new CheckMemo();
    const check = vi.fn(() => true);
    const a = turn([]);
    memo.passes('anthropic\ntrue', a.bytes, a.top, 'messages', check);
    memo.passes('anthropic\nfalse', a.bytes, a.top, 'messages', check);
    memo.passes('openai-chat\ntrue', a.bytes, a.top, 'messages', check);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('a refusal is not remembered: it is checked (and refused) every time', () => {
    const memo = new CheckMemo();
    const check = vi.fn(() => false);
    const a = turn([]);
    expect(memo.passes('d', a.bytes, a.top, 'messages', check)).toBe(false);
    expect(memo.passes('d', a.bytes, a.top, 'messages', check)).toBe(false);
    expect(check).toHaveBeenCalledTimes(2);
    expect(memo.size).toBe(0);
  });

  it('keeps at most 64 passes, dropping the least recently used', () => {
    const memo = new CheckMemo();
    const check = vi.fn(() => true);
    const bodies = Array.from({ length: 65 }, (_, i) => turn([], { seed: i }));
    memo.passes('d', bodies[0]!.bytes, bodies[0]!.top, 'messages', check);
    for (const b of bodies.slice(1, 64)) memo.passes('d', b.bytes, b.top, 'messages', check);
    // The first is used again: the second is now the oldest.
    memo.passes('d', bodies[0]!.bytes, bodies[0]!.top, 'messages', check);
    expect(check).toHaveBeenCalledTimes(64);
    memo.passes('d', bodies[64]!.bytes, bodies[64]!.top, 'messages', check);
    expect(memo.size).toBe(64);
    memo.passes('d', bodies[0]!.bytes, bodies[0]!.top, 'messages', check);
    expect(check).toHaveBeenCalledTimes(65);
    memo.passes('d', bodies[1]!.bytes, bodies[1]!.top, 'messages', check);
    expect(check).toHaveBeenCalledTimes(66);
  });

  it('parameters past 256 KB are checked every time, never kept', () => {
    const memo = new CheckMemo();
    const check = vi.fn(() => true);
    const big = turn([], { system: 'x'.repeat(256 * 1024) });
    memo.passes('d', big.bytes, big.top, 'messages', check);
    memo.passes('d', big.bytes, big.top, 'messages', check);
    expect(check).toHaveBeenCalledTimes(2);
    expect(memo.size).toBe(0);
  });
});

describe('CheckMemo compares bytes the same way natively (Node) and by hand (no Buffer)', () => {
  it.each([
    ['Buffer.compare', false],
    ['by hand', true],
  ])('%s: equal fields hit, a changed byte in any field misses', (_name, handOnly) => {
    if (handOnly) vi.stubGlobal('Buffer', undefined);
    try {
      const memo = new CheckMemo();
      const check = vi.fn(() => true);
      const a = turn([], { temperature: 0.5 });
      memo.passes('d', a.bytes, a.top, 'messages', check);
      memo.passes('d', a.bytes.slice(), a.top, 'messages', check);
      expect(check).toHaveBeenCalledTimes(1);
      // Same length, one byte different: in the first field, and in the last.
      for (const changed of [turn([], { temperature: 0.6 }), body({ model: 'n', system: 'be brief', tools: [{ name: 'read' }], messages: [], temperature: 0.5 })]) {
        memo.passes('d', changed.bytes, changed.top, 'messages', check);
      }
      expect(check).toHaveBeenCalledTimes(3);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
