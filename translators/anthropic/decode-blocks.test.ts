/**
 * Turns and blocks both ways: what is sent, what is left out, and the warning that says so
 * (and none when nothing was lost).
 */
import { describe, expect, it } from 'vitest';
import { encodeSignature, type Warning } from '../../src/canonical/index.ts';
import { decodeContent } from './decode-blocks.ts';

function dec(content: unknown) {
  const warnings: Warning[] = [];
  return { parts: decodeContent(content, 'messages.0.content', warnings), warnings };
}

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
