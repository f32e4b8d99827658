/**
 * A Responses caller's `instructions` + `input` → canonical system and messages: parts, media
 * types, reasoning carriers, signed call ids, and how items group into turns.
 */
import { describe, expect, it } from 'vitest';
import { encodeReasoning, encodeToolCallId, type Warning } from '../../src/canonical/index.ts';
import { decodeInput, decodeInputPart, reasoningPart, signatureOfEncrypted } from './decode-input.ts';

const run = (input: string | unknown[] | undefined, instructions?: string | null) => {
  const warnings: Warning[] = [];
  return { ...decodeInput(instructions, input, warnings), warnings };
};
const text = (t: string) => ({ type: 'text', text: t });

describe('decodeInputPart', () => {
  it.each([
    ['a.pdf', 'application/pdf'],
    ['notes.TXT', 'text/plain'],
    ['r.md', 'text/markdown'],
    ['t.csv', 'text/csv'],
    ['d.json', 'application/json'],
    ['i.png', 'image/png'],
    ['i.jpg', 'image/jpeg'],
    ['i.JPEG', 'image/jpeg'],
    ['i.gif', 'image/gif'],
    ['i.webp', 'image/webp'],
    ['archive.tar.gz', 'application/octet-stream'],
    ['README', 'application/octet-stream'],
  ])('an inline file named %s is %s', (filename, mediaType) => {
    expect(decodeInputPart({ type: 'input_file', file_data: 'QUJD', filename }, 'p')).toEqual({ type: 'file', source: { type: 'base64', mediaType, data: 'QUJD' }, filename });
  });

  it('images: a data URL inline, a URL as it is, detail only when given', () => {
    expect(decodeInputPart({ type: 'input_image', image_url: 'data:image/webp;base64,UklG' }, 'p')).toEqual({ type: 'image', source: { type: 'base64', mediaType: 'image/webp', data: 'UklG' } });
    expect(decodeInputPart({ type: 'input_image', image_url: 'https://x/a.png', detail: 'low' }, 'p')).toEqual({ type: 'image', source: { type: 'url', url: 'https://x/a.png' }, detail: 'low' });
  });

  it('files: a data URL keeps its own type; a URL is typed by its name or its path', () => {
    expect(decodeInputPart({ type: 'input_file', file_data: 'data:text/csv;base64,YSxi', filename: 'x.pdf' }, 'p')).toEqual({ type: 'file', source: { type: 'base64', mediaType: 'text/csv', data: 'YSxi' }, filename: 'x.pdf' });
    expect(decodeInputPart({ type: 'input_file', file_url: 'https://x/a.png', filename: 'b.pdf' }, 'p')).toEqual({ type: 'file', source: { type: 'url', url: 'https://x/a.png', mediaType: 'application/pdf' }, filename: 'b.pdf' });
    expect(decodeInputPart({ type: 'input_file', file_url: 'https://x/a.png' }, 'p')).toEqual({ type: 'file', source: { type: 'url', url: 'https://x/a.png', mediaType: 'image/png' } });
  });

  it('by file id: a 400 naming the part and what to send instead', () => {
    expect(() => decodeInputPart({ type: 'input_image', file_id: 'file-1' }, 'input[0].content[2]')).toThrow(
      expect.objectContaining({
        kind: 'invalid-request',
        message: "Invalid value for 'input[0].content[2].file_id': images by file id are not supported through this proxy; send 'image_url' (a URL or a data URL).",
        param: 'input[0].content[2].file_id',
        code: 'unsupported_value',
      }),
    );
    expect(() => decodeInputPart({ type: 'input_file', file_id: 'file-1' }, 'input[1].output[0]')).toThrow(
      expect.objectContaining({
        message: "Invalid value for 'input[1].output[0].file_id': files by file id are not supported through this proxy; send 'file_data' (a data URL) or 'file_url'.",
        param: 'input[1].output[0].file_id',
        code: 'unsupported_value',
      }),
    );
    expect(() => decodeInputPart({ type: 'input_image' }, 'q')).toThrow(expect.objectContaining({ code: 'missing_required_parameter', param: 'q.image_url' }));
    expect(() => decodeInputPart({ type: 'input_file' }, 'q')).toThrow(expect.objectContaining({ code: 'invalid_value', param: 'q' }));
  });
});

describe('reasoning items and carriers', () => {
  it('encrypted content: a carrier names its vendor (signature or redaction), anything else is OpenAI’s', () => {
    expect(signatureOfEncrypted('gAAAA-openai')).toEqual({ origin: 'openai', value: 'gAAAA-openai' });
    expect(signatureOfEncrypted(encodeReasoning({ text: 't', signature: { origin: 'anthropic', value: 'EqQB' } }))).toEqual({ origin: 'anthropic', value: 'EqQB' });
    expect(signatureOfEncrypted(encodeReasoning({ text: 't', redacted: { origin: 'anthropic', value: 'RED' } }))).toEqual({ origin: 'anthropic', value: 'RED' });
  });

  it('the text: summaries, else the raw content, else empty; a carried signature keeps the summary when its own text is empty', () => {
    expect(reasoningPart([], null, null)).toEqual({ type: 'reasoning', text: '' });
    expect(reasoningPart([{ text: 'a' }, { text: 'b' }], undefined, [{ text: 'raw' }])).toEqual({ type: 'reasoning', text: 'a\n\nb' });
    expect(reasoningPart([{ text: null }], undefined, [{ text: 'raw' }])).toEqual({ type: 'reasoning', text: '' });
    expect(reasoningPart([], '', [{ text: 'x' }, { text: null }, { text: 'y' }])).toEqual({ type: 'reasoning', text: 'xy' });
    expect(reasoningPart([{ text: 'sum' }], encodeReasoning({ text: '', signature: { origin: 'gemini', value: 'G' } }))).toEqual({ type: 'reasoning', text: 'sum', signature: { origin: 'gemini', value: 'G' } });
  });
});

describe('decodeInput: turns', () => {
  it('no input is no messages; empty instructions are no system prompt; a string is one user message', () => {
    expect(run(undefined, '')).toEqual({ system: [], messages: [], warnings: [] });
    expect(run('q', 'S')).toEqual({ system: [text('S')], messages: [{ role: 'user', content: [text('q')] }], warnings: [] });
  });

  it('system and developer messages before the conversation join the system prompt silently, after instructions', () => {
    const { system, messages, warnings } = run([{ role: 'system', content: 'A' }, { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'B' }] }, { role: 'user', content: 'q' }], 'I');
    expect(system).toEqual([text('I'), text('A'), text('B')]);
    expect(messages).toEqual([{ role: 'user', content: [text('q')] }]);
    expect(warnings).toEqual([]);
  });

  it('assistant messages merge with the model’s items around them; a user message after tool outputs starts a new one; outputs after a user message too', () => {
    const signature = { origin: 'gemini' as const, value: 'SIG' };
    const signedId = encodeToolCallId('call_1', signature);
    const { messages } = run([
      { role: 'assistant', content: 'one' },
      { role: 'assistant', content: 'two' },
      { type: 'function_call', call_id: signedId, name: 'f', arguments: '{}' },
      { type: 'custom_tool_call', call_id: 'call_2', name: 'p', input: 'raw' },
      { type: 'function_call_output', call_id: signedId, output: [{ type: 'input_text', text: 'r1' }, { type: 'input_image', image_url: 'https://x/a.png' }] },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'r2' },
      { role: 'user', content: 'u1' },
      { type: 'function_call_output', call_id: 'call_3', output: 'r3' },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'hm' }], encrypted_content: 'gAAA' },
      { role: 'assistant', content: [{ type: 'output_text', text: 'three' }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: [text('one'), text('two'), { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}', signature }, { type: 'tool-call', id: 'call_2', name: 'p', arguments: 'raw', custom: true }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool-result', callId: 'call_1', content: [text('r1'), { type: 'image', source: { type: 'url', url: 'https://x/a.png' } }] },
          { type: 'tool-result', callId: 'call_2', content: [text('r2')], custom: true },
        ],
      },
      { role: 'user', content: [text('u1')] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'call_3', content: [text('r3')] }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'hm', signature: { origin: 'openai', value: 'gAAA' } }, text('three')] },
    ]);
  });

  it('two user messages in a row stay two; items are checked with their place named', () => {
    expect(run([{ role: 'user', content: 'a' }, { type: 'message', role: 'user', content: 'b' }]).messages).toEqual([
      { role: 'user', content: [text('a')] },
      { role: 'user', content: [text('b')] },
    ]);
    expect(() => run([{ role: 'user', content: 'a' }, { type: 'reasoning', summary: 'x' }])).toThrow(expect.objectContaining({ param: 'input[1].summary' }));
    expect(() => run([{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_video' }] }])).toThrow(expect.objectContaining({ param: 'input[0].output[0].type' }));
    expect(() => run([{ type: 'custom_tool_call', call_id: 'c', name: 'p' }])).toThrow(expect.objectContaining({ param: 'input[0].input', code: 'missing_required_parameter' }));
    expect(() => run(['just text'])).toThrow(expect.objectContaining({ kind: 'invalid-request', param: 'input[0]' }));
  });
});

describe('compaction items', () => {
  it('a compaction_trigger last asks for a compaction; anywhere else it is a 400', async () => {
    const { decodeInput } = await import('./decode-input.ts');
    const { encodeCompaction } = await import('../../src/canonical/index.ts');
    const user = { type: 'message', role: 'user', content: 'hi' };
    expect(decodeInput(undefined, [user, { type: 'compaction_trigger' }], []).compact).toBe(true);
    expect(() => decodeInput(undefined, [{ type: 'compaction_trigger' }, user], [])).toThrow(/must be the last input item/);
    // Ours: its summary as a user turn. OpenAI's: sealed, for a Responses upstream only.
    const ours = decodeInput(undefined, [{ type: 'compaction', encrypted_content: encodeCompaction({ summary: 'S', origin: 'gemini' }) }, user], []);
    expect(ours.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'S' }], summary: true });
    const theirs = decodeInput(undefined, [{ type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAA' }], []);
    expect(theirs.messages).toEqual([{ role: 'user', content: [], sealed: { dialect: 'openai-responses', data: 'gAAAA' } }]);
    expect(() => decodeInput(undefined, [{ type: 'compaction' }], [])).toThrow();
  });
});

describe('our compaction stands for what came before it', () => {
  it('keeps only the caller messages before it; an earlier trigger is history', async () => {
    const { decodeInput } = await import('./decode-input.ts');
    const { encodeCompaction } = await import('../../src/canonical/index.ts');
    const carried = encodeCompaction({ summary: 'S', origin: 'anthropic' });
    const d = decodeInput(undefined, [
      { type: 'message', role: 'developer', content: 'rules' },
      { type: 'message', role: 'user', content: 'task' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'big output' },
      { type: 'message', role: 'assistant', content: 'thinking aloud' },
      { type: 'compaction_trigger' },
      { type: 'compaction', encrypted_content: carried },
      { type: 'message', role: 'user', content: 'go on' },
    ], []);
    expect(d.compact).toBeUndefined();
    expect(d.system).toEqual([{ type: 'text', text: 'rules' }]);
    expect(d.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'task' }] },
      { role: 'user', content: [{ type: 'text', text: 'S' }], summary: true },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
    ]);
  });
});
