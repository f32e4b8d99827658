/** The Gemini upstream's own model list: the request, and which models it lists. */
import { describe, expect, it } from 'vitest';
import { decodeModelList, encodeModelListRequest } from './model-list.ts';

describe('gemini model list', () => {
  it('GET /v1beta/models with the key header and no content type', () => {
    expect(encodeModelListRequest({ name: 'g', model: 'gemini-2.5-flash', apiKey: 'AIza-k', options: { headers: { 'x-goog-user-project': 'p' } } })).toEqual({
      method: 'GET',
      path: '/v1beta/models?pageSize=1000',
      headers: { 'x-goog-user-project': 'p', 'x-goog-api-key': 'AIza-k' },
      stream: false,
    });
  });

  it('names without models/, only models that generate content or embed (or say nothing of it)', () => {
    const body = {
      models: [
        { name: 'models/gemini-2.5-flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
        { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
        { name: 'models/aqa', supportedGenerationMethods: ['generateAnswer'] },
        { name: 'tunedModels/mine' },
        { name: 7 },
        null,
      ],
    };
    expect(decodeModelList(body)).toEqual(['gemini-2.5-flash', 'text-embedding-004', 'tunedModels/mine']);
    for (const bad of [null, {}, { models: 'x' }]) expect(decodeModelList(bad)).toEqual([]);
  });
});
