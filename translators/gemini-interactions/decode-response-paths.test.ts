import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';

const req: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const decode = (body: unknown) => decodeResponse(body, req, testContext());
const content = (steps: unknown[]) => decode({ id: 'v1_x', status: 'completed', steps }).choices[0]!.content;

describe('Interactions decodeResponse: the less common bodies', () => {
  it('an Interaction with a status but no id, model or time gets a fresh id, the caller’s model and now', () => {
    expect(decode({ status: 'completed', steps: [] })).toEqual({
      id: 'v1_test0001',
      model: 'caller-model',
      created: 1_700_000_000,
      choices: [{ index: 0, content: [], finishReason: { unified: 'stop', raw: 'completed' } }],
    });
  });

  it('media: inline without a type is octet-stream, videos are files, a media content with neither data nor uri is left out', () => {
    expect(
      content([
        {
          type: 'model_output',
          content: [
            { type: 'image', data: 'AA==' },
            { type: 'video', uri: 'files/v', mime_type: 'video/mp4' },
            { type: 'audio' },
            { type: 'document', uri: 'files/d' },
          ],
        },
      ]),
    ).toEqual([
      { type: 'image', source: { type: 'base64', data: 'AA==', mediaType: 'application/octet-stream' } },
      { type: 'file', source: { type: 'url', url: 'files/v', mediaType: 'video/mp4' } },
      { type: 'file', source: { type: 'url', url: 'files/d' } },
    ]);
  });

  it('summary contents join with a blank line; a thought with neither summary nor signature is nothing', () => {
    expect(content([{ type: 'thought', summary: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AA==' }, { type: 'text', text: 'b' }] }, { type: 'thought', summary: [] }])).toEqual([
      { type: 'reasoning', text: 'a\n\nb' },
    ]);
  });

  it('a summarised, signed thought before a call: its text stays reasoning, its signature goes on the call', () => {
    expect(content([{ type: 'thought', signature: 'EqS', summary: [{ type: 'text', text: 'plan' }] }, { type: 'function_call', id: 'c', name: 'f', arguments: { a: 1 } }])).toEqual([
      { type: 'reasoning', text: 'plan' },
      { type: 'tool-call', id: 'c', name: 'f', arguments: '{"a":1}', signature: { origin: 'gemini', value: 'EqS' } },
    ]);
  });

  it('a body that is not an Interaction is reported with the body (cut), or nothing when there was none', () => {
    const raw = (body: unknown) => {
      try {
        decode(body);
      } catch (e) {
        expect(e).toBeInstanceOf(ProxyError);
        expect((e as ProxyError).message).toBe('The upstream returned a body that is not an Interaction.');
        return (e as ProxyError & { raw?: unknown }).raw;
      }
      throw new Error('expected an error');
    };
    expect(raw([1, 2])).toBe('[1,2]');
    expect(raw({ note: 'x'.repeat(3000) })).toHaveLength(2000);
    expect(raw(undefined)).toBe('');
  });
});
