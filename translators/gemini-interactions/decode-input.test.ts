import { describe, expect, it } from 'vitest';
import { encodeReasoning, encodeSignature, encodeToolCallId } from '../../src/canonical/index.ts';
import { decodeRequest } from './decode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const decode = (input: unknown) => decodeRequest({ body: { model: 'm', input }, headers: {}, params: {}, query: {} }).value.messages;
const decoded = (input: unknown) => decodeRequest({ body: { model: 'm', input }, headers: {}, params: {}, query: {} });

function failure(body: unknown): { param?: string; message: string } {
  const e = proxyErrorOf(() => decodeRequest({ body, headers: {}, params: {}, query: {} }));
  return { param: e.param, message: e.message };
}

describe('decodeInput: the less common inputs', () => {
  it.each([
    ['audio/mpeg', { format: 'mp3' }],
    ['audio/x-wav', { format: 'wav' }],
    ['Audio/OGG; codecs=opus', { format: 'ogg' }],
    ['audio', {}],
    ['audio/vnd.x-custom', { format: 'vnd.x-custom' }],
  ])('audio %s', (mime, format) => {
    expect(decode({ type: 'audio', data: 'AA==', mime_type: mime })).toEqual([{ role: 'user', content: [{ type: 'audio', source: { type: 'base64', mediaType: mime, data: 'AA==' }, ...format }] }]);
  });

  it('a step without contents is an empty turn; summary media are not thought text', () => {
    expect(decode([{ type: 'user_input' }, { type: 'model_output', content: null }])).toEqual([
      { role: 'user', content: [] },
      { role: 'assistant', content: [] },
    ]);
    const messages = decode([
      { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
      { type: 'thought', signature: 'EqS', summary: [{ type: 'image', data: 'AA==', mime_type: 'image/png' }, { type: 'text', text: 'why' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(messages[1]!.content[0]).toEqual({ type: 'reasoning', text: 'why', signature: { origin: 'gemini', value: 'EqS' } });
  });

  it.each([
    [{ type: 'image' }, 'input.data', "Invalid value at 'input.data': required field is missing (a image content needs 'data' with 'mime_type', or 'uri')."],
    [[{ type: 'user_input', content: [] }, { type: 'model_output', content: [{ type: 'video', data: 'AA==' }] }], 'input[1].content[0].mime_type', "Invalid value at 'input[1].content[0].mime_type': required with inline 'data'."],
  ])('errors name the content: %j', (input, param, message) => {
    expect(failure({ model: 'm', input })).toEqual({ param, message });
  });

  it('a body that is not an object', () => {
    expect(failure('hi')).toEqual({ param: 'body', message: 'Invalid JSON payload received. The body must be a JSON object.' });
  });
});

describe('decodeInput: a hosted search in the caller\'s steps', () => {
  const user = { type: 'user_input', content: [{ type: 'text', text: 'q' }] };
  const call = { type: 'google_search_call', id: 'gs1', arguments: { queries: ['euro'] }, signature: 'EqC' };
  const result = { type: 'google_search_result', call_id: 'gs1', result: [], signature: 'EqR' };

  it('its call and result are one web search part of the assistant message, with the text after them; nothing dropped', () => {
    const { value, warnings } = decoded([user, call, result, { type: 'model_output', content: [{ type: 'text', text: 'Spain.' }] }]);
    expect(value.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [
        { type: 'web-search', id: 'gs1', kind: 'search', queries: ['euro'], results: [], raw: { dialect: 'gemini-interactions', value: [call, result] } },
        { type: 'text', text: 'Spain.' },
      ] },
    ]);
    expect(warnings).toEqual([]);
  });

  it('a result of no call is dropped naming it; a call whose result never came is dropped at the end naming it and its id', () => {
    const page = { type: 'url_context_call', id: 'u1', arguments: { urls: ['https://a.org'] } };
    const { value, warnings } = decoded([user, { type: 'url_context_result', call_id: 'nope', result: [] }, call, page, { type: 'model_output', content: [{ type: 'text', text: 'a' }] }]);
    expect(value.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'input[1]', detail: 'url_context_result without its call' },
      { code: 'dropped', path: 'input', detail: 'google_search_call gs1 without its result' },
      { code: 'dropped', path: 'input', detail: 'url_context_call u1 without its result' },
    ]);
  });

  it('search steps between results and the next user turn open the model\'s message', () => {
    const messages = decode([user, { type: 'function_result', call_id: 'c', result: 'r' }, call, result]);
    expect(messages.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([['user', ['text']], ['user', ['tool-result']], ['assistant', ['web-search']]]);
  });
});

describe('decodeInput: lists and steps', () => {
  it('a list opening with a content is one user turn; one opening with a step (or anything else) is steps', () => {
    expect(decode([{ type: 'document', uri: 'files/d' }, { type: 'text', text: 'x' }])).toEqual([{ role: 'user', content: [{ type: 'file', source: { type: 'url', url: 'files/d' } }, { type: 'text', text: 'x' }] }]);
    const { value, warnings } = decoded([{ type: 'weird_step' }, { type: 'user_input', content: [{ type: 'text', text: 'q' }] }]);
    expect(value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'input[0]', detail: 'weird_step', lossy: true }]);
  });

  it('a content among steps is a 400 naming its type', () => {
    expect(failure({ model: 'm', input: [{ type: 'user_input', content: [] }, { type: 'audio', uri: 'files/a' }] })).toEqual({
      param: 'input[1].type',
      message: "Invalid value at 'input[1].type' (\"audio\"): a list of steps cannot mix in contents; wrap them in a 'user_input' step.",
    });
  });

  it('results: an object is its JSON text, a list its contents; is_error only when true (false: none); a call id carrying a signature read plain', () => {
    const messages = decode([
      { type: 'function_result', call_id: encodeToolCallId('c1', { origin: 'gemini', value: 'S' }), result: { ok: 1 }, is_error: false },
      { type: 'function_result', call_id: 'c2', name: 'f', result: [{ type: 'text', text: 'a' }], is_error: true },
    ]);
    expect(messages).toEqual([{ role: 'user', content: [
      { type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: '{"ok":1}' }] },
      { type: 'tool-result', callId: 'c2', name: 'f', content: [{ type: 'text', text: 'a' }], isError: true },
    ] }]);
  });

  it('a call id carrying a signature gives the call that signature, over the thought before it', () => {
    const messages = decode([
      { type: 'thought', signature: 'EqT' },
      { type: 'function_call', id: encodeToolCallId('c1', { origin: 'anthropic', value: 'A' }), name: 'f', arguments: { x: 1 } },
      { type: 'function_call', id: 'c2', name: 'g' },
    ]);
    expect(messages).toEqual([{ role: 'assistant', content: [
      { type: 'tool-call', id: 'c1', name: 'f', arguments: '{"x":1}', signature: { origin: 'anthropic', value: 'A' } },
      { type: 'tool-call', id: 'c2', name: 'g', arguments: '{}' },
    ] }]);
  });
});

describe('decodeInput: thought steps', () => {
  const thought = (signature: string | undefined, summary?: unknown[]) => decode([{ type: 'thought', ...(signature === undefined ? {} : { signature }), ...(summary ? { summary } : {}) }])[0]!.content[0];

  it('summary texts joined by a blank line, empty ones skipped; no signature: unsigned', () => {
    expect(thought(undefined, [{ type: 'text', text: 'a' }, { type: 'text', text: '' }, { type: 'text', text: 'b' }])).toEqual({ type: 'reasoning', text: 'a\n\nb' });
    expect(thought('', [{ type: 'text', text: 'c' }])).toEqual({ type: 'reasoning', text: 'c' });
  });

  it('the reasoning carrier gives back another vendor\'s block: redacted whole, signed with its own text (the summary when it has none)', () => {
    const redacted = { origin: 'anthropic' as const, value: 'R' };
    expect(thought(encodeReasoning({ text: 'hidden', redacted }), [{ type: 'text', text: 's' }])).toEqual({ type: 'reasoning', text: 'hidden', redacted });
    const signature = { origin: 'anthropic' as const, value: 'Sig' };
    expect(thought(encodeReasoning({ text: 'mine', signature }), [{ type: 'text', text: 's' }])).toEqual({ type: 'reasoning', text: 'mine', signature });
    expect(thought(encodeReasoning({ text: '', signature }), [{ type: 'text', text: 's' }])).toEqual({ type: 'reasoning', text: 's', signature });
  });

  it('a signature carrier alone: that vendor\'s signature, the summary its text; anything else Gemini\'s raw value', () => {
    expect(thought(encodeSignature({ origin: 'anthropic', value: 'x' }), [{ type: 'text', text: 's' }])).toEqual({ type: 'reasoning', text: 's', signature: { origin: 'anthropic', value: 'x' } });
    expect(thought('EqRaw', [{ type: 'text', text: 's' }])).toEqual({ type: 'reasoning', text: 's', signature: { origin: 'gemini', value: 'EqRaw' } });
  });
});

describe('decodeInput: messages and what the errors name', () => {
  it('each user_input is its own user message; consecutive results one', () => {
    expect(decode([
      { type: 'user_input', content: [{ type: 'text', text: 'a' }] },
      { type: 'user_input', content: [{ type: 'text', text: 'b' }] },
      { type: 'function_result', call_id: 'c1', name: null, result: 'r1' },
      { type: 'function_result', call_id: 'c2', result: 'r2' },
    ])).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'a' }] },
      { role: 'user', content: [{ type: 'text', text: 'b' }] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'r1' }] }, { type: 'tool-result', callId: 'c2', content: [{ type: 'text', text: 'r2' }] }] },
    ]);
  });

  it('another vendor\'s signed thought before a call keeps its signature; the call gets none', () => {
    const signature = { origin: 'anthropic' as const, value: 'Sig' };
    expect(decode([{ type: 'thought', signature: encodeReasoning({ text: 'mine', signature }) }, { type: 'function_call', id: 'c', name: 'f' }])).toStrictEqual([
      { role: 'assistant', content: [{ type: 'reasoning', text: 'mine', signature }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }] },
    ]);
  });

  it.each([
    [[{ type: 'thought', summary: [{ type: 'image' }] }], 'input[0].summary[0].data'],
    [[{ type: 'function_result', call_id: 'c', result: [{ type: 'audio' }] }], 'input[0].result[0].data'],
  ])('a bad content inside a step is named by its path: %j', (input, param) => {
    expect(failure({ model: 'm', input }).param).toBe(param);
  });
});
