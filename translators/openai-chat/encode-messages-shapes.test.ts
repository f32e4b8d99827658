/**
 * Canonical messages → Chat Completions messages: the exact members each wire message and part
 * gets (no member for what the canonical part leaves unset), and the parts the wire has no place for.
 */
import { describe, expect, test } from 'vitest';
import type { Message, Part, Warning } from '../../src/canonical/index.ts';
import type { UpstreamOptions } from '../types.ts';
import { encodeMessages } from './encode-messages.ts';

function encode(messages: Message[], options: UpstreamOptions = {}) {
  const warnings: Warning[] = [];
  const out = encodeMessages({ model: 'm', system: [], messages, stream: false }, warnings, options);
  return { out, warnings };
}

const search: Part = { type: 'web-search', id: 'ws_1', kind: 'search', queries: ['q'], results: [{ url: 'https://a.org', title: 'A' }] };

describe('members only for what is set', () => {
  test('an image without detail, a file without a name, a user turn without a name', () => {
    const { out } = encode([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
          { type: 'file', source: { type: 'file-id', id: 'file-1' } },
        ],
      },
    ]);
    expect(out).toStrictEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          { type: 'file', file: { file_id: 'file-1' } },
        ],
      },
    ]);
  });

  test('with detail, a title as the file name, and a name', () => {
    const { out } = encode([
      {
        role: 'user',
        name: 'ann',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://x/y.png' }, detail: 'low' },
          { type: 'file', source: { type: 'file-id', id: 'file-1' }, title: 'report.pdf' },
        ],
      },
    ]);
    expect(out).toStrictEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'low' } },
          { type: 'file', file: { file_id: 'file-1', filename: 'report.pdf' } },
        ],
        name: 'ann',
      },
    ]);
  });

  test('an assistant turn of text only has role and content; a name and a stored audio reply are carried', () => {
    expect(encode([{ role: 'assistant', content: [{ type: 'text', text: 'a' }] }]).out).toStrictEqual([{ role: 'assistant', content: 'a' }]);
    const audio: Part = { type: 'audio', source: { type: 'file-id', id: 'audio_1' } };
    expect(encode([{ role: 'assistant', name: 'bot', content: [audio] }]).out).toStrictEqual([
      { role: 'assistant', content: null, name: 'bot', audio: { id: 'audio_1' } },
    ]);
  });
});

describe('parts Chat Completions has no place for', () => {
  test('a web search in a user or assistant turn is dropped and reported (not lossy: the answer stays)', () => {
    const { out, warnings } = encode([
      { role: 'user', content: [{ type: 'text', text: 'q' }, search] },
      { role: 'assistant', content: [search, { type: 'text', text: 'a' }] },
    ]);
    expect(out).toStrictEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages[0].content[1]', detail: 'web-search' },
      { code: 'dropped', path: 'messages[1].content[0]', detail: 'web-search' },
    ]);
  });

  test('a tool result inside a tool result is left out, unreported', () => {
    const inner: Part = { type: 'tool-result', callId: 'c0', content: [{ type: 'text', text: 'deep' }] };
    const { out, warnings } = encode([{ role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'r' }, inner] }] }]);
    expect(out).toStrictEqual([{ role: 'tool', tool_call_id: 'c1', content: 'r' }]);
    expect(warnings).toEqual([]);
  });

  test('a part of no known type is a programming error, in either role', () => {
    const bogus = { type: 'bogus' } as unknown as Part;
    expect(() => encode([{ role: 'user', content: [bogus] }])).toThrow('unhandled part');
    expect(() => encode([{ role: 'assistant', content: [bogus] }])).toThrow('unhandled part');
  });
});
