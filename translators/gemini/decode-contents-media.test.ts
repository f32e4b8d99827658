/** A Gemini caller's media and function responses at their edges. */
import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const decode = (contents: unknown) => gemini.decodeRequest({ body: { contents }, headers: {}, params: { model: 'g', method: 'generateContent' }, query: {} }, testContext()).value.messages;

describe('gemini caller media and responses: edges', () => {
  it('an audio MIME type with no subtype gives no format; gs:// and Files API URIs are file handles, https URLs are URLs', () => {
    expect(
      decode([
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'audio/', data: 'A' } },
            { fileData: { fileUri: 'gs://bucket/a.png', mimeType: 'image/png' } },
            { fileData: { fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mimeType: 'application/pdf' } },
            { fileData: { fileUri: 'https://example.com/a.png', mimeType: 'image/png' } },
          ],
        },
      ])[0]!.content,
    ).toEqual([
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/', data: 'A' } },
      { type: 'image', source: { type: 'file-id', id: 'gs://bucket/a.png', mediaType: 'image/png' } },
      { type: 'file', source: { type: 'file-id', id: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mediaType: 'application/pdf' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png', mediaType: 'image/png' } },
    ]);
  });

  it('a function response without a response object is an empty result', () => {
    const messages = decode([
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f' } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f' } }] },
    ]);
    expect(messages[2]!.content).toEqual([{ type: 'tool-result', callId: 'call_1_0', name: 'f', content: [{ type: 'text', text: '{}' }] }]);
  });
});
