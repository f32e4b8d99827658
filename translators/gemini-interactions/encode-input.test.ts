import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message, Part, Warning } from '../../src/canonical/index.ts';
import { encodeInput } from './encode-input.ts';

function encode(messages: Message[], system: Part[] = []): { out: ReturnType<typeof encodeInput>; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const req: ChatRequest = { model: 'm', system, messages, stream: false };
  return { out: encodeInput(req, warnings), warnings };
}
const user = (...content: Part[]): Message => ({ role: 'user', content });
const assistant = (...content: Part[]): Message => ({ role: 'assistant', content });
const gemini = (value: string) => ({ origin: 'gemini' as const, value });

describe('encodeInput: media contents', () => {
  it.each<[string, Part, Record<string, unknown>]>([
    ['an image by file handle without a type', { type: 'image', source: { type: 'file-id', id: 'files/a' } }, { type: 'image', uri: 'files/a', mime_type: 'image/jpeg' }],
    ['an image by file handle with its type', { type: 'image', source: { type: 'file-id', id: 'files/a', mediaType: 'image/png' } }, { type: 'image', uri: 'files/a', mime_type: 'image/png' }],
    ['an image by URL without a type', { type: 'image', source: { type: 'url', url: 'gs://b/a.png' } }, { type: 'image', uri: 'gs://b/a.png' }],
    ['audio named by its format', { type: 'audio', format: 'mp3', source: { type: 'file-id', id: 'files/s' } }, { type: 'audio', uri: 'files/s', mime_type: 'audio/mp3' }],
    ['audio without a format', { type: 'audio', source: { type: 'file-id', id: 'files/s' } }, { type: 'audio', uri: 'files/s', mime_type: 'audio/wav' }],
    ['a video file (type in any case)', { type: 'file', source: { type: 'file-id', id: 'files/v', mediaType: 'VIDEO/MP4' } }, { type: 'video', uri: 'files/v', mime_type: 'VIDEO/MP4' }],
    ['a file without a type: a PDF document', { type: 'file', source: { type: 'file-id', id: 'files/d' } }, { type: 'document', uri: 'files/d', mime_type: 'application/pdf' }],
    ['inline data', { type: 'file', source: { type: 'base64', mediaType: 'text/csv', data: 'YQ==' } }, { type: 'document', data: 'YQ==', mime_type: 'text/csv' }],
  ])('%s', (_name, part, content) => {
    expect(encode([user(part)]).out.input).toEqual([{ type: 'user_input', content: [content] }]);
  });
});

describe('encodeInput: system, roles and what has no place', () => {
  it('system texts joined by a blank line, empty ones skipped, media dropped with a warning', () => {
    const { out, warnings } = encode([user({ type: 'text', text: 'q' })], [
      { type: 'text', text: 'A' },
      { type: 'text', text: '' },
      { type: 'image', source: { type: 'url', url: 'https://x/i.png' } },
      { type: 'text', text: 'B' },
    ]);
    expect(out.system_instruction).toBe('A\n\nB');
    expect(warnings).toEqual([{ code: 'dropped', path: 'system[2]', detail: 'image', lossy: true }]);
  });

  it('an empty user message is one empty text; an empty assistant text is skipped, an empty user text kept; a refusal is text', () => {
    const { out } = encode([user(), assistant({ type: 'text', text: '' }, { type: 'refusal', text: 'No.' }), user({ type: 'text', text: '' })]);
    expect(out).toEqual({
      input: [
        { type: 'user_input', content: [{ type: 'text', text: '' }] },
        { type: 'model_output', content: [{ type: 'text', text: 'No.' }] },
        { type: 'user_input', content: [{ type: 'text', text: '' }] },
      ],
    });
  });

  it('calls in a user message, results and reasoning in an assistant message are dropped, each named', () => {
    const { out, warnings } = encode([
      user({ type: 'text', text: 'q' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }, { type: 'reasoning', text: 'r' }),
      assistant({ type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'x' }] }, { type: 'text', text: 'a' }),
    ]);
    expect(out.input).toEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages[0].content[1]', detail: 'tool-call in a user message', lossy: true },
      { code: 'dropped', path: 'messages[0].content[2]', detail: 'reasoning in a user message', lossy: true },
      { code: 'dropped', path: 'messages[1].content[0]', detail: 'tool-result in an assistant message', lossy: true },
    ]);
  });
});

describe('encodeInput: calls and results', () => {
  it.each([
    ['', {}, []],
    ['  ', {}, []],
    ['{"a":1}', { a: 1 }, []],
    ['[1]', { value: '[1]' }, [{ code: 'approximated', path: 'messages[0].content[0].arguments', detail: 'arguments not a JSON object' }]],
    ['7', { value: '7' }, [{ code: 'approximated', path: 'messages[0].content[0].arguments', detail: 'arguments not a JSON object' }]],
    ['null', { value: 'null' }, [{ code: 'approximated', path: 'messages[0].content[0].arguments', detail: 'arguments not a JSON object' }]],
    ['{"a":', { value: '{"a":' }, [{ code: 'approximated', path: 'messages[0].content[0].arguments', detail: 'arguments not a JSON object' }]],
  ])('arguments %j → %j', (text, args, warns) => {
    const { out, warnings } = encode([assistant({ type: 'tool-call', id: 'c', name: 'f', arguments: text })]);
    expect(out.input).toEqual([{ type: 'function_call', id: 'c', name: 'f', arguments: args }]);
    expect(warnings).toEqual(warns);
  });

  it('a result: text joined into a string, media as a content list, other parts dropped; the name from the call when missing', () => {
    const { out, warnings } = encode([
      assistant({ type: 'tool-call', id: 'c1', name: 'look', arguments: '{}' }),
      user(
        { type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
        { type: 'tool-result', callId: 'c2', isError: true, content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'file-id', id: 'files/i' } }, { type: 'reasoning', text: 'r' }] },
        { type: 'tool-result', callId: 'c3', name: 'own', content: [] },
      ),
    ]);
    expect(out.input.slice(1)).toEqual([
      { type: 'function_result', call_id: 'c1', name: 'look', result: 'a\nb' },
      { type: 'function_result', call_id: 'c2', result: [{ type: 'text', text: 'see' }, { type: 'image', uri: 'files/i', mime_type: 'image/jpeg' }], is_error: true },
      { type: 'function_result', call_id: 'c3', name: 'own', result: '' },
    ]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'messages[1].content[1].content[2]', detail: 'reasoning in a tool result', lossy: true }]);
  });
});

describe('encodeInput: signatures', () => {
  it('a call signed like the thought just before it gets no second thought step; another signature does', () => {
    const { out } = encode([
      assistant(
        { type: 'reasoning', text: 'plan', signature: gemini('S1') },
        { type: 'tool-call', id: 'a', name: 'f', arguments: '{}', signature: gemini('S1') },
        { type: 'tool-call', id: 'b', name: 'f', arguments: '{}', signature: gemini('S2') },
      ),
    ]);
    expect(out.input).toEqual([
      { type: 'thought', signature: 'S1', summary: [{ type: 'text', text: 'plan' }] },
      { type: 'function_call', id: 'a', name: 'f', arguments: {} },
      { type: 'thought', signature: 'S2' },
      { type: 'function_call', id: 'b', name: 'f', arguments: {} },
    ]);
  });

  it('another vendor’s signature on text is not replayed (warned); a signature on user text is ignored; empty unsigned thought text is nothing', () => {
    const { out, warnings } = encode([
      user({ type: 'text', text: 'q', signature: gemini('U') }),
      assistant({ type: 'reasoning', text: '' }, { type: 'text', text: 'a', signature: { origin: 'anthropic', value: 'X' } }),
    ]);
    expect(out.input).toEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(warnings).toEqual([{ code: 'signature-not-replayed', path: 'messages[1].content[1]' }]);
  });
});
