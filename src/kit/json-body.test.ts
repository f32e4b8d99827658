import { describe, expect, it } from 'vitest';
import { ByteParts } from './http.ts';
import { JSON_PARTS_FROM_CHARS, jsonBody, sameJson, type KeptJsonBody } from './json-body.ts';

const text = (b: string | ByteParts) => (typeof b === 'string' ? b : new TextDecoder().decode(b.join()));

/** A conversation of `n` turns, each with `size` characters of awkward text. */
function conversation(n: number, size: number): Record<string, unknown>[] {
  const chunk = 'const s = "quote\\" tab\t nl\n é ü 😀 \u2028 \u0001 ';
  const body = chunk.repeat(Math.ceil(size / chunk.length)).slice(0, size);
  return Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${i}:${body}`, skipped: undefined }));
}

describe('jsonBody', () => {
  it('is JSON.stringify itself, as a string, for a small body', () => {
    const v = { model: 'm', messages: conversation(3, 50), stream: true };
    const out = jsonBody(v, 'messages');
    expect(typeof out).toBe('string');
    expect(out).toBe(JSON.stringify(v));
  });

  it('gives the UTF-8 bytes of JSON.stringify in pieces for a big body, wherever the list is', () => {
    const messages = conversation(400, 600);
    for (const v of [
      { model: 'm', messages, stream: true, n: 1 },
      { messages, model: 'm' },
      { model: 'm', meta: { a: [1, 2], b: null }, messages },
    ]) {
      const out = jsonBody(v, 'messages');
      expect(out).toBeInstanceOf(ByteParts);
      const parts = (out as ByteParts).parts;
      // Batched: far fewer pieces than elements, none of them huge.
      expect(parts.length).toBeGreaterThan(2);
      expect(parts.length).toBeLessThan(messages.length / 10);
      expect(parts.every((p) => p.byteLength > 0)).toBe(true);
      expect(Buffer.from((out as ByteParts).join()).equals(Buffer.from(JSON.stringify(v)))).toBe(true);
    }
  });

  it('keeps JSON.stringify’s rules: undefined members left out, undefined elements as null', () => {
    const messages: unknown[] = conversation(300, 400);
    messages.splice(5, 0, undefined, () => 1, null);
    const v = { a: undefined, messages, f: () => 2, z: 'end' } as Record<string, unknown>;
    const out = jsonBody(v, 'messages');
    expect(out).toBeInstanceOf(ByteParts);
    expect(text(out)).toBe(JSON.stringify(v));
    const first = { messages, after: 1 };
    expect(text(jsonBody(first, 'messages'))).toBe(JSON.stringify(first));
  });

  it('crosses to pieces at exactly JSON_PARTS_FROM_CHARS characters of JSON', () => {
    // {"model":"…","messages":[{"c":"x"},…]} padded through `model` to an exact length.
    const messages = Array.from({ length: 100 }, () => ({ c: 'x' }));
    const sized = (chars: number) => {
      const bare = JSON.stringify({ model: '', messages }).length;
      return { model: 'm'.repeat(chars - bare), messages };
    };
    const under = sized(JSON_PARTS_FROM_CHARS - 1);
    expect(JSON.stringify(under).length).toBe(JSON_PARTS_FROM_CHARS - 1);
    expect(jsonBody(under, 'messages')).toBe(JSON.stringify(under));
    const at = sized(JSON_PARTS_FROM_CHARS);
    const out = jsonBody(at, 'messages');
    expect(out).toBeInstanceOf(ByteParts);
    expect(text(out)).toBe(JSON.stringify(at));
  });

  it('crosses to pieces at JSON_PARTS_FROM_CHARS', () => {
    const one = JSON.stringify({ role: 'user', content: 'x' });
    const fit = Math.floor((JSON_PARTS_FROM_CHARS - 20) / (one.length + 1));
    const under = { messages: Array.from({ length: fit }, () => ({ role: 'user', content: 'x' })) };
    expect(JSON.stringify(under).length).toBeLessThan(JSON_PARTS_FROM_CHARS);
    expect(typeof jsonBody(under, 'messages')).toBe('string');
    const over = { messages: Array.from({ length: fit + 10 }, () => ({ role: 'user', content: 'x' })) };
    expect(JSON.stringify(over).length).toBeGreaterThanOrEqual(JSON_PARTS_FROM_CHARS);
    const out = jsonBody(over, 'messages');
    expect(out).toBeInstanceOf(ByteParts);
    expect(text(out)).toBe(JSON.stringify(over));
  });

  it('stringifies whole a body without that list, or with one element only', () => {
    const big = 'y'.repeat(JSON_PARTS_FROM_CHARS * 2);
    expect(jsonBody({ contents: big }, 'contents')).toBe(JSON.stringify({ contents: big }));
    expect(jsonBody({ contents: [big] }, 'contents')).toBe(JSON.stringify({ contents: [big] }));
    expect(jsonBody({ other: [big, big] }, 'contents')).toBe(JSON.stringify({ other: [big, big] }));
  });
});

describe('jsonBody given the last body (an agent’s next turn)', () => {
  /** A keeper as the turn memo is, without its bound. */
  const keeper = () => {
    let kept: KeptJsonBody | undefined;
    return { last: () => kept, keep: (b: KeptJsonBody | undefined) => void (kept = b) };
  };

  it('gives JSON.stringify’s bytes turn after turn, whatever changed, and reuses the last batches', () => {
    const memo = keeper();
    let messages: unknown[] = conversation(200, 600);
    const system = { text: 'be brief', tags: ['a', 'b'] };
    for (let turn = 0; turn < 12; turn++) {
      if (turn % 4 === 1) messages = [...messages, { role: 'assistant', content: `turn ${turn}`, when: new Date(0), f: () => 1 }];
      else if (turn % 4 === 2) messages = messages.map((m, i) => (i === 100 ? { ...(m as object), content: `edited ${turn}` } : m));
      else if (turn % 4 === 3) messages = [...messages.slice(0, 50), { toJSON: () => 'custom' }, ...messages.slice(51)];
      // The same values in another key order: other bytes.
      const v = turn % 5 === 4 ? { messages, system: { tags: system.tags, text: system.text }, model: 'm' } : { model: 'm', system, messages, n: turn % 3 ? undefined : 1 };
      const before = memo.last();
      const out = jsonBody(v, 'messages', memo);
      expect(Buffer.from((out as ByteParts).join()).equals(Buffer.from(JSON.stringify(v)))).toBe(true);
      if (before && turn % 4 === 1 && turn % 5 !== 4 && (turn - 1) % 5 !== 4) expect((out as ByteParts).parts[0]).toBe(before.batches[0]!.bytes);
    }
  });

  it('counts as equal only what JSON writes alike', () => {
    class Box {
      constructor(readonly x: number) {}
    }
    const same: Array<[unknown, unknown]> = [[{ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] }], [null, null], ['s', 's'], [{ u: undefined }, { u: undefined }]];
    const different: Array<[unknown, unknown]> = [
      [{ a: 1, b: 2 }, { b: 2, a: 1 }],
      [[1, 2], [1, 2, 3]],
      [new Box(1), new Box(1)],
      [{ toJSON: 1 }, { toJSON: 1 }],
      [NaN, NaN],
      [{ a: 1 }, [1]],
      [() => 1, () => 1],
    ];
    for (const [a, b] of same) expect(sameJson(a, b)).toBe(true);
    for (const [a, b] of different) expect(sameJson(a, b)).toBe(false);
  });
});
