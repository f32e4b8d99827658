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
    expect(encode([user(part)]).out.input).toStrictEqual([{ type: 'user_input', content: [content] }]);
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
    expect(warnings).toStrictEqual([{ code: 'dropped', path: 'system[2]', detail: 'image', lossy: true }]);
  });

  it('an empty user message is one empty text; an empty assistant text is skipped, an empty user text kept; a refusal is text', () => {
    const { out } = encode([user(), assistant({ type: 'text', text: '' }, { type: 'refusal', text: 'No.' }), user({ type: 'text', text: '' })]);
    expect(out).toStrictEqual({
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
    expect(out.input).toStrictEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(warnings).toStrictEqual([
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
    expect(out.input).toStrictEqual([{ type: 'function_call', id: 'c', name: 'f', arguments: args }]);
    expect(warnings).toStrictEqual(warns);
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
    expect(out.input.slice(1)).toStrictEqual([
      { type: 'function_result', call_id: 'c1', name: 'look', result: 'a\nb' },
      { type: 'function_result', call_id: 'c2', result: [{ type: 'text', text: 'see' }, { type: 'image', uri: 'files/i', mime_type: 'image/jpeg' }], is_error: true },
      { type: 'function_result', call_id: 'c3', name: 'own', result: '' },
    ]);
    expect(warnings).toStrictEqual([{ code: 'dropped', path: 'messages[1].content[1].content[2]', detail: 'reasoning in a tool result', lossy: true }]);
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
    expect(out.input).toStrictEqual([
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
    expect(out.input).toStrictEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(warnings).toStrictEqual([{ code: 'signature-not-replayed', path: 'messages[1].content[1]' }]);
  });
});

describe('encodeInput: media by URL and inline', () => {
  it.each<[string, Part, Record<string, unknown>]>([
    ['an image by URL with its type', { type: 'image', source: { type: 'url', url: 'https://x/i.png', mediaType: 'image/png' } }, { type: 'image', uri: 'https://x/i.png', mime_type: 'image/png' }],
    ['an inline image', { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBO' } }, { type: 'image', data: 'iVBO', mime_type: 'image/png' }],
    ['audio by URL', { type: 'audio', format: 'mp3', source: { type: 'url', url: 'https://x/a.mp3' } }, { type: 'audio', uri: 'https://x/a.mp3' }],
    ['a PDF file by URL', { type: 'file', source: { type: 'url', url: 'https://x/d.pdf', mediaType: 'application/pdf' } }, { type: 'document', uri: 'https://x/d.pdf', mime_type: 'application/pdf' }],
    ['a file named video by its type, by URL', { type: 'file', source: { type: 'url', url: 'https://x/v', mediaType: 'video/webm' } }, { type: 'video', uri: 'https://x/v', mime_type: 'video/webm' }],
  ])('%s', (_name, part, content) => {
    expect(encode([user(part)]).out.input).toStrictEqual([{ type: 'user_input', content: [content] }]);
  });

  it('text and media of one message gather in one step; an assistant’s in a model_output', () => {
    const img: Part = { type: 'image', source: { type: 'file-id', id: 'files/a', mediaType: 'image/png' } };
    expect(encode([user({ type: 'text', text: 'see' }, img), assistant({ type: 'text', text: 'a' }, img, { type: 'refusal', text: 'r' })]).out.input).toStrictEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'see' }, { type: 'image', uri: 'files/a', mime_type: 'image/png' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }, { type: 'image', uri: 'files/a', mime_type: 'image/png' }, { type: 'text', text: 'r' }] },
    ]);
  });

  it('no system text: no system_instruction; an empty assistant message: no step', () => {
    const { out } = encode([user({ type: 'text', text: 'q' }), assistant()], [{ type: 'text', text: '' }]);
    expect(out).toStrictEqual({ input: [{ type: 'user_input', content: [{ type: 'text', text: 'q' }] }] });
  });
});

describe('encodeInput: steps between gathered text', () => {
  it('text after a call or a result starts another step', () => {
    const { out } = encode([
      assistant({ type: 'text', text: 'a' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }, { type: 'text', text: 'b' }),
      user({ type: 'text', text: 'x' }, { type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'r' }] }, { type: 'text', text: 'y' }),
    ]);
    expect(out.input).toStrictEqual([
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
      { type: 'function_call', id: 'c', name: 'f', arguments: {} },
      { type: 'model_output', content: [{ type: 'text', text: 'b' }] },
      { type: 'user_input', content: [{ type: 'text', text: 'x' }] },
      { type: 'function_result', call_id: 'c', name: 'f', result: 'r' },
      { type: 'user_input', content: [{ type: 'text', text: 'y' }] },
    ]);
  });

  it('a result of a call of an earlier message takes its name; a result naming its own function keeps it', () => {
    const { out } = encode([
      assistant({ type: 'tool-call', id: 'c1', name: 'look', arguments: '{}' }, { type: 'tool-call', id: 'c2', name: 'find', arguments: '{}' }),
      user({ type: 'tool-result', callId: 'c2', content: [] }, { type: 'tool-result', callId: 'c1', name: 'mine', content: [] }, { type: 'tool-result', callId: 'c3', content: [], isError: false }),
    ]);
    expect(out.input.slice(2)).toStrictEqual([
      { type: 'function_result', call_id: 'c2', name: 'find', result: '' },
      { type: 'function_result', call_id: 'c1', name: 'mine', result: '' },
      { type: 'function_result', call_id: 'c3', result: '' },
    ]);
  });
});

describe('encodeInput: hosted searches', () => {
  const steps = [
    { type: 'google_search_call', id: 'g', arguments: { queries: ['q'] }, signature: 'EqC' },
    { type: 'google_search_result', call_id: 'g', result: [], signature: 'EqR' },
  ];
  const own: Part = { type: 'web-search', id: 'g', kind: 'search', results: [], raw: { dialect: 'gemini-interactions', value: steps } };

  it('this API’s own search in an assistant message goes back as its steps, text after it in a step of its own', () => {
    const { out, warnings } = encode([assistant({ type: 'text', text: 'a' }, own, { type: 'text', text: 'b' })]);
    expect(out.input).toStrictEqual([
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
      ...steps,
      { type: 'model_output', content: [{ type: 'text', text: 'b' }] },
    ]);
    expect(warnings).toStrictEqual([]);
  });

  it('another vendor’s, one of this dialect that is not a list of steps, or one in a user message: dropped, reported at its place', () => {
    const { out, warnings } = encode([
      assistant({ type: 'web-search', id: 's', kind: 'search', results: [], raw: { dialect: 'anthropic', value: [] } }, { type: 'web-search', id: 't', kind: 'search', results: [], raw: { dialect: 'gemini-interactions', value: {} } }, { type: 'text', text: 'a' }),
      user(own, { type: 'text', text: 'q' }),
    ]);
    expect(out.input).toStrictEqual([
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
      { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
    ]);
    expect(warnings).toStrictEqual([
      { code: 'dropped', path: 'messages[0].content[0]', detail: 'web-search' },
      { code: 'dropped', path: 'messages[0].content[1]', detail: 'web-search' },
      { code: 'dropped', path: 'messages[1].content[0]', detail: 'web-search' },
    ]);
  });

  it('unsigned thought text before a search has no input form: dropped, reported', () => {
    const { out, warnings } = encode([assistant({ type: 'reasoning', text: 'look it up' }, own)]);
    expect(out.input).toStrictEqual(steps);
    expect(warnings).toStrictEqual([{ code: 'dropped', path: 'messages[0].content[0]', detail: 'reasoning' }]);
  });
});

describe('encodeInput: thoughts', () => {
  it('unsigned thought text before a Gemini-signed text or call is that signature’s summary', () => {
    const { out, warnings } = encode([
      assistant({ type: 'reasoning', text: 'think' }, { type: 'text', text: 'a', signature: gemini('T') }, { type: 'reasoning', text: 'more' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}', signature: gemini('C') }),
    ]);
    expect(out.input).toStrictEqual([
      { type: 'thought', signature: 'T', summary: [{ type: 'text', text: 'think' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
      { type: 'thought', signature: 'C', summary: [{ type: 'text', text: 'more' }] },
      { type: 'function_call', id: 'c', name: 'f', arguments: {} },
    ]);
    expect(warnings).toStrictEqual([]);
  });

  it('unsigned thought text followed by unsigned text, a media part, or nothing: dropped, each reported at its place', () => {
    const img: Part = { type: 'image', source: { type: 'file-id', id: 'files/a', mediaType: 'image/png' } };
    const { out, warnings } = encode([
      assistant({ type: 'reasoning', text: 'r0' }, { type: 'text', text: 'a' }, { type: 'reasoning', text: 'r2' }, img, { type: 'reasoning', text: 'r4' }, { type: 'reasoning', text: 'r5' }),
    ]);
    expect(out.input).toStrictEqual([{ type: 'model_output', content: [{ type: 'text', text: 'a' }, { type: 'image', uri: 'files/a', mime_type: 'image/png' }] }]);
    expect(warnings).toStrictEqual([
      { code: 'dropped', path: 'messages[0].content[0]', detail: 'reasoning' },
      { code: 'dropped', path: 'messages[0].content[2]', detail: 'reasoning' },
      { code: 'dropped', path: 'messages[0].content[4]', detail: 'reasoning' },
      { code: 'dropped', path: 'messages[0].content[5]', detail: 'reasoning' },
    ]);
  });

  it('a Gemini-signed thought without text has no summary; a redacted one or another vendor’s is not replayed', () => {
    const { out, warnings } = encode([
      assistant(
        { type: 'reasoning', text: '', signature: gemini('S') },
        { type: 'reasoning', text: 'x', redacted: { origin: 'anthropic', value: 'R' } },
        { type: 'reasoning', text: 'y', redacted: gemini('R2'), signature: gemini('S2') },
        { type: 'reasoning', text: 'z', signature: { origin: 'anthropic', value: 'A' } },
        { type: 'text', text: 'a' },
      ),
    ]);
    expect(out.input).toStrictEqual([{ type: 'thought', signature: 'S' }, { type: 'model_output', content: [{ type: 'text', text: 'a' }] }]);
    expect(warnings).toStrictEqual([
      { code: 'signature-not-replayed', path: 'messages[0].content[1]' },
      { code: 'signature-not-replayed', path: 'messages[0].content[2]' },
      { code: 'signature-not-replayed', path: 'messages[0].content[3]' },
    ]);
  });

  it('text signed like the thought step just before it adds none; another vendor’s signature on a call is not replayed', () => {
    const { out, warnings } = encode([
      assistant({ type: 'reasoning', text: 'p', signature: gemini('S') }, { type: 'text', text: 'a', signature: gemini('S') }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}', signature: { origin: 'openai', value: 'O' } }),
    ]);
    expect(out.input).toStrictEqual([
      { type: 'thought', signature: 'S', summary: [{ type: 'text', text: 'p' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
      { type: 'function_call', id: 'c', name: 'f', arguments: {} },
    ]);
    expect(warnings).toStrictEqual([{ code: 'signature-not-replayed', path: 'messages[0].content[2]' }]);
  });

  it('an empty assistant text still places its signature', () => {
    const { out } = encode([assistant({ type: 'text', text: 'a' }, { type: 'text', text: '', signature: gemini('E') })]);
    expect(out.input).toStrictEqual([{ type: 'model_output', content: [{ type: 'text', text: 'a' }] }, { type: 'thought', signature: 'E' }]);
  });
});
