/**
 * The canonical request a Gemini caller's body becomes, compared whole: empty sections give no
 * field at all (no empty tool list, no empty reasoning or extras that another upstream would be
 * sent or warned about).
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
const messages = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
const decode = (body: Record<string, unknown>, method = 'generateContent') =>
  gemini.decodeRequest({ body: { contents, ...body }, headers: {}, params: { model: 'gemini-x', method }, query: {} }, testContext());
const bare: ChatRequest = { model: 'gemini-x', system: [], messages: messages as ChatRequest['messages'], stream: false };

describe('gemini request → canonical, whole', () => {
  it.each<[string, Record<string, unknown>, Partial<ChatRequest>]>([
    ['a bare body', {}, {}],
    ['empty sections', { tools: [{}, { functionDeclarations: [] }], toolConfig: { functionCallingConfig: {} }, generationConfig: { thinkingConfig: {} }, systemInstruction: { parts: [] } }, {}],
    ['a thinking level and no budget', { generationConfig: { thinkingConfig: { thinkingLevel: 'low' } } }, { reasoning: { effort: 'low' } }],
    ['an unspecified thinking level', { generationConfig: { thinkingConfig: { thinkingLevel: 'THINKING_LEVEL_UNSPECIFIED' } } }, {}],
    ['a JSON response type', { generationConfig: { responseMimeType: 'application/json' } }, { responseFormat: { type: 'json' } }],
    ['NONE', { toolConfig: { functionCallingConfig: { mode: 'NONE' } } }, { toolChoice: { type: 'none' } }],
    ['ANY with one allowed name', { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } } }, { toolChoice: { type: 'tool', name: 'f' } }],
    ['ANY with two allowed names', { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f', 'g'] } } }, { toolChoice: { type: 'allowed', names: ['f', 'g'], mode: 'required' } }],
    ['AUTO with an empty list', { toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: [] } } }, { toolChoice: { type: 'auto' } }],
    [
      'a declaration with a description and both schema forms (the JSON one wins)',
      { tools: [{ functionDeclarations: [{ name: 'f', description: 'd', parameters: { type: 'STRING' }, parametersJsonSchema: { type: 'integer' } }] }] },
      { tools: [{ name: 'f', description: 'd', parameters: { type: 'integer' } }] },
    ],
    [
      'safety settings, cached content and unknown fields, as Gemini extras',
      { safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }], cachedContent: 'cachedContents/x', generationConfig: { mediaResolution: 'MEDIA_RESOLUTION_LOW' } },
      {
        extras: {
          dialect: 'gemini',
          fields: { 'generationConfig.mediaResolution': 'MEDIA_RESOLUTION_LOW', safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }], cachedContent: 'cachedContents/x' },
        },
      },
    ],
  ])('%s', (_label, body, fields) => {
    expect(decode(body).value).toStrictEqual({ ...bare, ...fields });
  });

  it('a stream asks for usage too', () => {
    expect(decode({}, 'streamGenerateContent').value).toStrictEqual({ ...bare, stream: true, streamUsage: true });
  });

  it('countTokens: the wrapped request when there is one, the body itself when it has contents', () => {
    const wrapped = gemini.decodeRequest({ body: { generateContentRequest: { model: 'models/gemini-x', contents, generationConfig: { temperature: 0.5 } } }, headers: {}, params: { model: 'gemini-x', method: 'countTokens' }, query: {} }, testContext());
    expect(wrapped.value).toStrictEqual({ ...bare, temperature: 0.5 });
    const both = gemini.decodeRequest({ body: { contents, generateContentRequest: { contents: [] } }, headers: {}, params: { model: 'gemini-x', method: 'countTokens' }, query: {} }, testContext());
    expect(both.value.messages).toEqual(messages);
    expect(() => gemini.decodeRequest({ body: { generateContentRequest: { contents } }, headers: {}, params: { model: 'gemini-x', method: 'generateContent' }, query: {} }, testContext())).toThrow();
  });

  it.each<[string, unknown, string, string]>([
    ['a body that is no object', [1], 'Invalid JSON payload received. Expected an object.', 'body'],
    ['a system part that is not text', { contents, systemInstruction: { parts: [{ text: 'a' }, { inlineData: { mimeType: 'image/png', data: 'x' } }] } }, 'systemInstruction accepts text parts only.', 'systemInstruction.parts[1]'],
    ['an unknown response modality', { contents, generationConfig: { responseModalities: ['TEXT', 'VIDEO'] } }, "Invalid responseModalities value 'VIDEO'.", 'generationConfig.responseModalities[1]'],
  ])('refused in Gemini words: %s', (_label, body, message, param) => {
    let err: unknown;
    try {
      gemini.decodeRequest({ body, headers: {}, params: { model: 'gemini-x', method: 'generateContent' }, query: {} }, testContext());
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ kind: 'invalid-request', status: 400, message, param });
  });
});
