import { describe, expect, it } from 'vitest';
import type { ChatRequest, Part, Warning } from '../../src/canonical/index.ts';
import { deepFreeze } from '../../src/kit/index.ts';
import { encodeInput } from './encode-input.ts';

const withToolResult = (content: Part[]): ChatRequest => ({
  model: 'm',
  system: [],
  stream: false,
  messages: [
    { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'run', arguments: '{}' }] },
    { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content }] },
  ],
});

const outputOf = (req: ChatRequest) => {
  const warnings: Warning[] = [];
  const item = encodeInput(req, warnings).input.find((i) => i['type'] === 'function_call_output');
  return item?.['output'];
};

describe('tool results with several text parts', () => {
  it('keep their separation in the function_call_output string', () => {
    const out = outputOf(withToolResult([{ type: 'text', text: 'line one' }, { type: 'text', text: '```py\nprint(1)\n```' }]));
    expect(out).toBe('line one\n```py\nprint(1)\n```');
  });

  it('a single text part is sent as it is', () => {
    expect(outputOf(withToolResult([{ type: 'text', text: 'only' }]))).toBe('only');
  });

  it('an empty result, or one whose parts were all dropped, is an empty string', () => {
    expect(outputOf(withToolResult([]))).toBe('');
    expect(outputOf(withToolResult([{ type: 'reasoning', text: 'x' }]))).toBe('');
  });

  it('a refusal part of a result is text; a custom call’s result is a custom output', () => {
    const warnings: Warning[] = [];
    const req: ChatRequest = { ...withToolResult([{ type: 'refusal', text: 'no' }]), messages: [{ role: 'user', content: [{ type: 'tool-result', callId: 'p1', custom: true, content: [{ type: 'refusal', text: 'no' }] }] }] };
    expect(encodeInput(req, warnings).input).toEqual([{ type: 'custom_tool_call_output', call_id: 'p1', output: 'no' }]);
  });
});

describe('encodeInput: parts as input items', () => {
  const run = (messages: ChatRequest['messages'], system: ChatRequest['system'] = []) => {
    const warnings: Warning[] = [];
    const out = encodeInput({ model: 'm', system, stream: false, messages }, warnings);
    return { ...out, warnings };
  };

  it('user media: images by URL, inline or file id (detail auto); files inline (named "file" when unnamed), by URL or file id', () => {
    const { input } = run([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://x/a.png' }, detail: 'high' },
          { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBO' } },
          { type: 'image', source: { type: 'file-id', id: 'file_i' } },
          { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
          { type: 'file', source: { type: 'url', url: 'https://x/doc.pdf' }, title: 'Doc' },
          { type: 'file', source: { type: 'url', url: 'https://x/raw' } },
          { type: 'file', source: { type: 'file-id', id: 'file_f' }, filename: 'f.pdf' },
          { type: 'file', source: { type: 'file-id', id: 'file_g' } },
          { type: 'refusal', text: 'r' },
        ],
      },
    ]);
    expect(input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'https://x/a.png', detail: 'high' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'auto' },
          { type: 'input_image', file_id: 'file_i', detail: 'auto' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'file' },
          { type: 'input_file', file_url: 'https://x/doc.pdf', filename: 'Doc' },
          { type: 'input_file', file_url: 'https://x/raw' },
          { type: 'input_file', file_id: 'file_f', filename: 'f.pdf' },
          { type: 'input_file', file_id: 'file_g' },
          { type: 'input_text', text: 'r' },
        ],
      },
    ]);
  });

  it('audio input is refused with its place named', () => {
    try {
      run([{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' }] }]);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ kind: 'unsupported', message: 'The Responses API takes no audio input.', param: 'messages[0].content[1]' });
    }
  });

  it('parts with no place in their role are dropped and reported; an empty user turn is one empty text', () => {
    const { input, warnings } = run(
      [
        { role: 'user', content: [{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }, { type: 'reasoning', text: 'r' }] },
        { role: 'assistant', content: [{ type: 'image', source: { type: 'url', url: 'https://x/a.png' } }, { type: 'text', text: 'ok', signature: { origin: 'gemini', value: 'S' } }, { type: 'refusal', text: 'no' }] },
      ],
      [{ type: 'text', text: 'sys' }, { type: 'image', source: { type: 'url', url: 'https://x/s.png' } } as never],
    );
    expect(input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '' }] },
      { type: 'message', role: 'assistant', content: 'ok\n\nno' },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'system[1]', detail: 'image', lossy: true },
      { code: 'dropped', path: 'messages[0].content[0]', detail: 'tool-call in a user message', lossy: true },
      { code: 'dropped', path: 'messages[0].content[1]', detail: 'reasoning in a user message', lossy: true },
      { code: 'dropped', path: 'messages[1].content[0]', detail: 'image in an assistant message', lossy: true },
      { code: 'signature-not-replayed', path: 'messages[1].content[1]' },
      { code: 'approximated', path: 'messages[1].content[2]', detail: 'refusal as text' },
    ]);
  });

  it('a tool result with media sends its parts; an error flag is reported; text after it starts a new message', () => {
    const { input, warnings } = run([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'run', arguments: '{}' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'before' },
          { type: 'tool-result', callId: 'c1', isError: true, content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'url', url: 'https://x/a.png' } }, { type: 'reasoning', text: 'x' }] },
          { type: 'text', text: 'after' },
        ],
      },
    ]);
    expect(input.slice(1)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'before' }] },
      { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'see' }, { type: 'input_image', image_url: 'https://x/a.png', detail: 'auto' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'after' }] },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages[1].content[1].content[2]', detail: 'reasoning in a user message', lossy: true },
      { code: 'dropped', path: 'messages[1].content[1].isError' },
    ]);
  });

  it('assistant: a call splits the message; only OpenAI reasoning is replayed, others reported', () => {
    const { input, warnings } = run([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'mine', signature: { origin: 'openai', value: 'gAAA' } },
          { type: 'reasoning', text: 'theirs', signature: { origin: 'anthropic', value: 'EqQB' } },
          { type: 'reasoning', text: 'plain' },
          { type: 'reasoning', text: '', redacted: { origin: 'openai', value: 'gBBB' } },
          { type: 'text', text: 'a' },
          { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'S' } },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'mine' }], encrypted_content: 'gAAA' },
      { type: 'reasoning', summary: [], encrypted_content: 'gBBB' },
      { type: 'message', role: 'assistant', content: 'a' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'message', role: 'assistant', content: 'b' },
    ]);
    expect(warnings).toEqual([
      { code: 'signature-not-replayed', path: 'messages[0].content[1]' },
      { code: 'signature-not-replayed', path: 'messages[0].content[5]' },
    ]);
  });

  it('replayed reasoning between texts splits the message; reasoning that is not replayed does not', () => {
    const { input } = run([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'reasoning', text: 'r', signature: { origin: 'openai', value: 'gAAA' } },
          { type: 'text', text: 'b' },
          { type: 'reasoning', text: 's', signature: { origin: 'anthropic', value: 'EqQB' } },
          { type: 'refusal', text: 'c' },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: 'message', role: 'assistant', content: 'a' },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'r' }], encrypted_content: 'gAAA' },
      { type: 'message', role: 'assistant', content: 'b\n\nc' },
    ]);
  });

  it('one system text is the instructions; several are a system message', () => {
    const one = run([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], [{ type: 'text', text: 'A' }]);
    expect(one.instructions).toBe('A');
    const two = run([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }]);
    expect(two.instructions).toBeUndefined();
    expect(two.input[0]).toEqual({ type: 'message', role: 'system', content: [{ type: 'input_text', text: 'A' }, { type: 'input_text', text: 'B' }] });
    expect('instructions' in run([{ role: 'user', content: [] }])).toBe(false);
  });
});

describe("encodeInput: messages frozen whole (an Anthropic caller's kept turns)", () => {
  const history = (): ChatRequest['messages'] => [
    { role: 'user', content: [{ type: 'text', text: 'read a.ts' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'reading' }, { type: 'tool-call', id: 'call_1', name: 'read', arguments: '{}' }] },
    { role: 'user', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'export {}' }] }, { type: 'text', text: 'go on' }] },
  ];
  const encode = (messages: ChatRequest['messages']) => {
    const warnings: Warning[] = [];
    return { input: encodeInput({ model: 'm', system: [], messages, stream: false }, warnings).input, warnings };
  };
  const frozen = () => {
    const messages = history();
    for (const m of messages) deepFreeze(m);
    return messages;
  };

  it('are encoded once: the same frozen items each time, as an unfrozen history encodes', () => {
    const messages = frozen();
    const first = encode(messages);
    const next = encode([...messages, { role: 'assistant', content: [{ type: 'text', text: 'done' }] }]);
    expect(first.input).toStrictEqual(encode(history()).input);
    expect(first.warnings).toEqual([]);
    first.input.forEach((item, i) => expect(next.input[i]).toBe(item));
    expect(Object.isFrozen(first.input[3])).toBe(true);
    const plain = history();
    expect(encode(plain).input[0]).not.toBe(encode(plain).input[0]);
  });

  it('are encoded anew, and their warnings reported, when encoding them warns', () => {
    const signed: ChatRequest['messages'][number] = { role: 'assistant', content: [{ type: 'text', text: 'ok', signature: { origin: 'anthropic', value: 'sig' } }] };
    deepFreeze(signed);
    const first = encode([signed]);
    const again = encode([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, signed]);
    expect(first.warnings).toEqual([{ code: 'signature-not-replayed', path: 'messages[0].content[0]' }]);
    expect(again.warnings).toEqual([{ code: 'signature-not-replayed', path: 'messages[1].content[0]' }]);
    expect(again.input[1]).not.toBe(first.input[0]);
  });
});
