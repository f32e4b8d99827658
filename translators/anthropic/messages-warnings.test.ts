/**
 * Turns and blocks both ways: what is sent, what is left out, and the warning that says so
 * (and none when nothing was lost).
 */
import { describe, expect, it } from 'vitest';
import { encodeSignature, type Message, type Part, type Warning } from '../../src/canonical/index.ts';
import { decodeContent } from './decode-blocks.ts';
import { encodeMessages, encodeSystem, wireToolId } from './encode-messages.ts';

const user = (...content: Part[]): Message => ({ role: 'user', content });
const asst = (...content: Part[]): Message => ({ role: 'assistant', content });
function enc(messages: Message[]) {
  const warnings: Warning[] = [];
  return { turns: encodeMessages(messages, warnings), warnings };
}
function dec(content: unknown) {
  const warnings: Warning[] = [];
  return { parts: decodeContent(content, 'messages.0.content', warnings), warnings };
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

describe('anthropic caller: content blocks', () => {
  it('a web search and its result are one part; other server-tool blocks are dropped and reported by type', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q?' } };
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://a', title: 'A', encrypted_content: 'Eq', page_age: '1 day' }] };
    const { parts, warnings } = dec([{ type: 'text', text: 'q' }, use, result, { type: 'mcp_tool_use', id: 'm', name: 'n', server_name: 's', input: {} }]);
    expect(parts).toEqual([
      { type: 'text', text: 'q' },
      { type: 'web-search', id: 'srvtoolu_1', kind: 'search', queries: ['q?'], results: [{ url: 'https://a', title: 'A', pageAge: '1 day' }], raw: { dialect: 'anthropic', value: [use, result] } },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages.0.content.3', detail: 'mcp_tool_use', lossy: true },
    ]);
  });

  it('documents: context and citations are reported dropped; a plain-text source defaults to text/plain', () => {
    const { parts, warnings } = dec([
      { type: 'document', source: { type: 'text', data: 'hello' }, title: 'Doc', context: 'ctx', citations: { enabled: true } },
      { type: 'document', source: { type: 'url', url: 'https://x/a.pdf' } },
      { type: 'document', source: { type: 'file', file_id: 'file_1' } },
    ]);
    expect(parts).toEqual([
      { type: 'file', source: { type: 'base64', mediaType: 'text/plain', data: Buffer.from('hello').toString('base64') }, title: 'Doc' },
      { type: 'file', source: { type: 'url', url: 'https://x/a.pdf', mediaType: 'application/pdf' } },
      { type: 'file', source: { type: 'file-id', id: 'file_1' } },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages.0.content.0.context' },
      { code: 'dropped', path: 'messages.0.content.0.citations' },
    ]);
  });

  it('a custom-content document keeps its text lines; an image inside is reported', () => {
    const text = dec([{ type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] } }]);
    expect(text.parts).toEqual([{ type: 'file', source: { type: 'base64', mediaType: 'text/plain', data: Buffer.from('a\nb').toString('base64') } }]);
    expect(text.warnings).toEqual([]);
    const mixed = dec([{ type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'a' }, { type: 'image', source: { type: 'url', url: 'https://x' } }] } }]);
    expect(mixed.warnings).toEqual([{ code: 'dropped', path: 'messages.0.content.0.source.content', detail: 'non-text' }]);
  });

  it('an empty thinking block carrying a Gemini signature goes back onto the text before it, only then', () => {
    const sig = { origin: 'gemini' as const, value: 'gsig' };
    const carrier = { type: 'thinking', thinking: '', signature: encodeSignature(sig) };
    expect(dec([{ type: 'text', text: 'hi' }, carrier]).parts).toEqual([{ type: 'text', text: 'hi', signature: sig }]);
    expect(dec([carrier]).parts).toEqual([{ type: 'reasoning', text: '', signature: sig }]);
    expect(dec([{ type: 'text', text: 'hi' }, { type: 'thinking', thinking: 'x', signature: encodeSignature(sig) }]).parts).toHaveLength(2);
    expect(dec([{ type: 'text', text: 'hi' }, { type: 'thinking', thinking: '', signature: 'anthropic-raw' }]).parts).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'reasoning', text: '', signature: { origin: 'anthropic', value: 'anthropic-raw' } },
    ]);
  });

  it('string content: empty is no parts; a non-string, non-list is refused', () => {
    expect(dec('').parts).toEqual([]);
    expect(dec('x').parts).toEqual([{ type: 'text', text: 'x' }]);
    expect(() => dec(5)).toThrow(expect.objectContaining({ kind: 'invalid-request', message: 'messages.0.content: Input should be a valid string or list' }));
  });

  it('tool_use input given as a string is the arguments as is; a tool_result without content has none', () => {
    expect(dec([{ type: 'tool_use', id: 'toolu_1', name: 'f', input: '{"a":1}' }]).parts).toEqual([{ type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"a":1}' }]);
    expect(dec([{ type: 'tool_result', tool_use_id: 'toolu_1' }]).parts).toEqual([{ type: 'tool-result', callId: 'toolu_1', content: [] }]);
    expect(dec([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok', is_error: false }]).parts).toEqual([{ type: 'tool-result', callId: 'toolu_1', content: [{ type: 'text', text: 'ok' }] }]);
  });
});
