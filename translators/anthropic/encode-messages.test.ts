/**
 * Turns and blocks both ways: what is sent, what is left out, and the warning that says so
 * (and none when nothing was lost).
 */
import { describe, expect, it } from 'vitest';
import type { Message, Part, Warning } from '../../src/canonical/index.ts';
import { encodeMessages, encodeSystem, wireToolId } from './encode-messages.ts';

const user = (...content: Part[]): Message => ({ role: 'user', content });

const asst = (...content: Part[]): Message => ({ role: 'assistant', content });

function enc(messages: Message[]) {
  const warnings: Warning[] = [];
  return { turns: encodeMessages(messages, warnings), warnings };
}

describe('anthropic upstream: messages', () => {
  it('a clean conversation reports nothing', () => {
    const { turns, warnings } = enc([user({ type: 'text', text: 'hi' }), asst({ type: 'text', text: 'yo' })]);
    expect(turns).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'yo' }] },
    ]);
    expect(warnings).toEqual([]);
  });

  it('a participant name is dropped and reported; a turn emptied by whitespace is dropped and reported at its index', () => {
    const { turns, warnings } = enc([
      { role: 'user', name: 'ann', content: [{ type: 'text', text: 'hi' }] },
      asst({ type: 'text', text: '   ' }),
      user({ type: 'text', text: 'again' }),
    ]);
    expect(turns).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'text', text: 'again' }] }]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages[0].name' },
      { code: 'dropped', path: 'messages[1]', detail: 'empty turn' },
    ]);
    expect(enc([user({ type: 'text', text: 'x' }), asst()]).warnings).toEqual([]);
  });

  it('tool results go first in their user turn, text joined by newlines; is_error kept; ids made wire-safe', () => {
    const { turns } = enc([
      asst({ type: 'tool-call', id: 'call.1', name: 'f', arguments: '{"a":1}' }),
      user(
        { type: 'text', text: 'and?' },
        { type: 'tool-result', callId: 'call.1', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }], isError: true },
      ),
    ]);
    expect(turns[0]!.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } }]);
    expect(turns[1]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_1', content: 'one\ntwo', is_error: true },
      { type: 'text', text: 'and?' },
    ]);
    expect(wireToolId('')).toBe('toolu_');
    expect(wireToolId('ok_id-1')).toBe('ok_id-1');
  });

  it('an empty tool result has no content; a result with an image keeps blocks', () => {
    const { turns } = enc([
      user(
        { type: 'tool-result', callId: 'a', content: [] },
        { type: 'tool-result', callId: 'b', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] },
      ),
    ]);
    expect(turns[0]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a' },
      { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] },
    ]);
  });

  it('tool arguments that are not a JSON object are sent as {} and reported; "" and "{}" are not reported', () => {
    const bad = enc([asst({ type: 'tool-call', id: 'a', name: 'f', arguments: '[1,2]' })]);
    expect(bad.turns[0]!.content[0]).toMatchObject({ input: {} });
    expect(bad.warnings).toEqual([{ code: 'approximated', path: 'messages[0].content[0].arguments', detail: 'not a JSON object' }]);
    for (const args of ['', ' {} ']) expect(enc([asst({ type: 'tool-call', id: 'a', name: 'f', arguments: args })]).warnings).toEqual([]);
  });

  it('a text signature from another vendor is reported, the text still sent; a refusal is text', () => {
    const { turns, warnings } = enc([asst({ type: 'text', text: 'a', signature: { origin: 'gemini', value: 's' } }, { type: 'refusal', text: 'no' }, { type: 'refusal', text: ' ' })]);
    expect(turns[0]!.content).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'no' }]);
    expect(warnings).toEqual([{ code: 'signature-not-replayed', path: 'messages[0].content[0].signature' }]);
  });

  it('reasoning: signed by Anthropic replayed, unsigned dropped and reported, empty unsigned dropped silently', () => {
    const { turns, warnings } = enc([
      asst(
        { type: 'reasoning', text: 'hmm', signature: { origin: 'anthropic', value: 'sig' } },
        { type: 'reasoning', text: 'loose' },
        { type: 'reasoning', text: '' },
        { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'enc' } },
        { type: 'text', text: 'done' },
      ),
    ]);
    expect(turns[0]!.content).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'redacted_thinking', data: 'enc' },
      { type: 'text', text: 'done' },
    ]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'messages[0].content[1]', detail: 'unsigned reasoning' }]);
  });

  it('documents: text documents as plain text, other non-PDF types refused as unsupported', () => {
    const b64 = Buffer.from('hello').toString('base64');
    const { turns } = enc([user({ type: 'file', source: { type: 'base64', mediaType: 'text/markdown', data: b64 }, filename: 'a.md' })]);
    expect(turns[0]!.content).toEqual([{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' }, title: 'a.md' }]);
    expect(() => enc([user({ type: 'file', source: { type: 'base64', mediaType: 'application/zip', data: b64 } })])).toThrow(
      expect.objectContaining({ kind: 'unsupported', message: 'Anthropic accepts PDF and plain-text documents, not application/zip', param: 'messages[0].content[0]' }),
    );
    const img = enc([user({ type: 'file', source: { type: 'file-id', id: 'f1' }, title: 'T' }, { type: 'file', source: { type: 'base64', mediaType: 'image/png', data: b64 } })]);
    expect(img.turns[0]!.content).toEqual([
      { type: 'document', source: { type: 'file', file_id: 'f1' }, title: 'T' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } },
    ]);
  });
});

describe('anthropic upstream: system', () => {
  it('one uncached text is a string; whitespace dropped silently; non-text dropped and reported', () => {
    const w: Warning[] = [];
    expect(encodeSystem([{ type: 'text', text: 'Be brief.' }, { type: 'text', text: ' ' }], undefined, w)).toBe('Be brief.');
    expect(w).toEqual([]);
    expect(encodeSystem([{ type: 'image', source: { type: 'url', url: 'https://x' } }], undefined, w)).toBeUndefined();
    expect(w).toEqual([{ code: 'dropped', path: 'system[0]', detail: 'image', lossy: true }]);
  });

  it('an extra instruction is appended as its own block; a cached text keeps blocks', () => {
    expect(encodeSystem([{ type: 'text', text: 'A' }], 'B', [])).toEqual([{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }]);
    expect(encodeSystem([], 'B', [])).toBe('B');
    expect(encodeSystem([{ type: 'text', text: 'A', cache: {} }], undefined, [])).toEqual([{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }]);
  });
});
