import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { decodeRequest } from './decode-request.ts';

const decode = (input: unknown) => decodeRequest({ body: { model: 'm', input }, headers: {}, params: {}, query: {} }).value.messages;

function failure(body: unknown): { param?: string; message: string } {
  try {
    decodeRequest({ body, headers: {}, params: {}, query: {} });
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    return { param: (e as ProxyError).param, message: (e as ProxyError).message };
  }
  throw new Error('expected a 400');
}

describe('decodeInput: the less common inputs', () => {
  it.each([
    ['audio/mpeg', { format: 'mp3' }],
    ['audio/x-wav', { format: 'wav' }],
    ['Audio/OGG; codecs=opus', { format: 'ogg' }],
    ['audio', {}],
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
