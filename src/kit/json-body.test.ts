import { describe, expect, it } from 'vitest';
import { ByteParts } from './http.ts';
import { JSON_PARTS_FROM_CHARS, jsonBody } from './json-body.ts';

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
